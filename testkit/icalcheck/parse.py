"""Reads an iCalendar file with Debian's python3-icalendar and prints its events as JSON.

Each event: uid, summary, start (ISO 8601 with the offset pytz gives its TZID, or the
date when DTSTART is a DATE), tzid, status, sequence, location, description. Used by
testkit/icalcheck.
"""
import datetime
import json
import sys

import icalendar

with open(sys.argv[1], "rb") as f:
    cal = icalendar.Calendar.from_ical(f.read())
out = {"calendar": {k: str(cal.get(k, "")) for k in ("VERSION", "PRODID", "METHOD", "X-WR-CALNAME", "REFRESH-INTERVAL", "X-PUBLISHED-TTL")}, "events": []}
for ev in cal.walk("VEVENT"):
    start = ev.decoded("DTSTART")
    prop = ev["DTSTART"]
    tzid = prop.params.get("TZID", "")
    if isinstance(start, datetime.datetime):
        if start.tzinfo is None:
            raise SystemExit("DTSTART of %s has no zone" % ev["UID"])
        start_text = start.isoformat()
        zone = str(start.tzinfo.zone) if hasattr(start.tzinfo, "zone") else tzid
    else:
        start_text, zone = start.isoformat(), ""
    end = ev.decoded("DTEND").isoformat() if "DTEND" in ev else ""
    out["events"].append({
        "uid": str(ev["UID"]),
        "summary": str(ev["SUMMARY"]),
        "start": start_text,
        "end": end,
        "tzid": tzid,
        "zone": zone,
        "status": str(ev.get("STATUS", "")),
        "sequence": int(ev.get("SEQUENCE", 0)),
        "location": str(ev.get("LOCATION", "")),
        "description": str(ev.get("DESCRIPTION", "")),
    })
json.dump(out, sys.stdout)
