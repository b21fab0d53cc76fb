// Reads an iCalendar file with ical.js and prints its events as JSON, their start's UTC
// offset computed from the file's own VTIMEZONE components. Used by testkit/icalcheck:
// node parse.mjs <path to ical.js's dist/ical.js> <file.ics>
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const ICAL = (await import(pathToFileURL(process.argv[2]).href)).default;
const cal = new ICAL.Component(ICAL.parse(readFileSync(process.argv[3], "utf8")));
for (const tz of cal.getAllSubcomponents("vtimezone")) {
  ICAL.TimezoneService.register(tz);
}
const offset = (t) => {
  if (t.isDate) return "";
  const s = t.utcOffset();
  const a = Math.abs(s);
  const p = (n) => String(n).padStart(2, "0");
  return (s < 0 ? "-" : "+") + p(Math.floor(a / 3600)) + ":" + p(Math.floor(a / 60) % 60);
};
const events = cal.getAllSubcomponents("vevent").map((v) => {
  const e = new ICAL.Event(v);
  const start = e.startDate;
  return {
    uid: e.uid,
    summary: e.summary,
    start: start.isDate ? start.toString() : start.toString() + offset(start),
    end: v.hasProperty("dtend") ? e.endDate.toString() + offset(e.endDate) : "",
    tzid: start.isDate ? "" : start.zone.tzid,
    zone: start.isDate ? "" : start.zone.tzid,
    status: v.getFirstPropertyValue("status") || "",
    sequence: e.sequence,
    location: e.location || "",
    description: e.description || "",
  };
});
const prop = (n) => String(cal.getFirstPropertyValue(n) ?? "");
process.stdout.write(JSON.stringify({
  calendar: { VERSION: prop("version"), PRODID: prop("prodid"), METHOD: prop("method"), "X-WR-CALNAME": prop("x-wr-calname"),
    "REFRESH-INTERVAL": prop("refresh-interval"), "X-PUBLISHED-TTL": prop("x-published-ttl") },
  events,
}));
