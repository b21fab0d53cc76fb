package demo

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// windowsZones are the Windows names of the corpus's IANA zones, as Outlook and Exchange
// write them in TZID (from the CLDR windowsZones table).
var windowsZones = map[string]string{
	"Europe/London": "GMT Standard Time", "Europe/Dublin": "GMT Standard Time", "Europe/Lisbon": "GMT Standard Time",
	"Atlantic/Reykjavik": "Greenwich Standard Time",
	"Europe/Berlin":      "W. Europe Standard Time", "Europe/Amsterdam": "W. Europe Standard Time", "Europe/Rome": "W. Europe Standard Time",
	"Europe/Stockholm": "W. Europe Standard Time", "Europe/Oslo": "W. Europe Standard Time", "Europe/Vienna": "W. Europe Standard Time",
	"Europe/Zurich": "W. Europe Standard Time", "Europe/Luxembourg": "W. Europe Standard Time",
	"Europe/Paris": "Romance Standard Time", "Europe/Madrid": "Romance Standard Time", "Europe/Brussels": "Romance Standard Time",
	"Europe/Copenhagen": "Romance Standard Time",
	"Europe/Warsaw":     "Central European Standard Time", "Europe/Zagreb": "Central European Standard Time",
	"Europe/Prague": "Central Europe Standard Time", "Europe/Bratislava": "Central Europe Standard Time",
	"Europe/Budapest": "Central Europe Standard Time", "Europe/Ljubljana": "Central Europe Standard Time",
	"Europe/Belgrade": "Central Europe Standard Time",
	"Europe/Helsinki": "FLE Standard Time", "Europe/Tallinn": "FLE Standard Time", "Europe/Riga": "FLE Standard Time",
	"Europe/Vilnius": "FLE Standard Time",
	"Europe/Athens":  "GTB Standard Time", "Europe/Bucharest": "GTB Standard Time",
	"Europe/Istanbul":  "Turkey Standard Time",
	"America/New_York": "Eastern Standard Time", "America/Toronto": "Eastern Standard Time",
	"America/Chicago": "Central Standard Time", "America/Denver": "Mountain Standard Time",
	"America/Phoenix": "US Mountain Standard Time", "America/Los_Angeles": "Pacific Standard Time",
	"America/Vancouver": "Pacific Standard Time", "Pacific/Honolulu": "Hawaiian Standard Time",
	"America/Halifax": "Atlantic Standard Time", "America/St_Johns": "Newfoundland Standard Time",
	"America/Mexico_City": "Central Standard Time (Mexico)", "America/Bogota": "SA Pacific Standard Time",
	"America/Lima": "SA Pacific Standard Time", "America/Santiago": "Pacific SA Standard Time",
	"America/Sao_Paulo": "E. South America Standard Time", "America/Argentina/Buenos_Aires": "Argentina Standard Time",
	"America/Montevideo": "Montevideo Standard Time",
	"Asia/Tokyo":         "Tokyo Standard Time", "Asia/Seoul": "Korea Standard Time", "Asia/Taipei": "Taipei Standard Time",
	"Asia/Bangkok": "SE Asia Standard Time", "Asia/Singapore": "Singapore Standard Time",
	"Asia/Kolkata": "India Standard Time", "Asia/Kathmandu": "Nepal Standard Time",
	"Australia/Sydney": "AUS Eastern Standard Time", "Australia/Melbourne": "AUS Eastern Standard Time",
	"Australia/Brisbane": "E. Australia Standard Time", "Australia/Adelaide": "Cen. Australia Standard Time",
	"Australia/Perth": "W. Australia Standard Time", "Pacific/Auckland": "New Zealand Standard Time",
	"Africa/Johannesburg": "South Africa Standard Time",
}

const (
	icsLocal = "20060102T150405"
	icsUTC   = "20060102T150405Z"
	icsDate  = "20060102"
)

// icsWriter writes content lines, folded at 75 octets.
type icsWriter struct {
	b     bytes.Buffer
	eol   string
	naive bool // fold at exactly 75 octets, even inside a UTF-8 character
}

// line writes one content line, folding it: proper folds break between characters, naive
// ones after every 75 octets (74 on continuation lines, after the leading space).
func (w *icsWriter) line(s string) {
	limit := 75
	for len(s) > limit {
		cut := limit
		if !w.naive {
			for cut > 0 && !utf8.RuneStart(s[cut]) {
				cut--
			}
		}
		w.b.WriteString(s[:cut])
		w.b.WriteString(w.eol)
		w.b.WriteByte(' ')
		s = s[cut:]
		limit = 74
	}
	w.b.WriteString(s)
	w.b.WriteString(w.eol)
}

// icsText escapes a TEXT value.
func icsText(s string) string {
	return strings.NewReplacer(`\`, `\\`, ";", `\;`, ",", `\,`, "\n", `\n`).Replace(s)
}

// tzid returns the TZID a feed writes for its venue's zone, quoted when the feed quotes
// parameter values, or "" for feeds without one.
func tzid(v *venue) string {
	s := &v.style.ics
	name := v.loc.String()
	switch s.tz {
	case tzWindows, tzWindowsBare:
		if w := windowsZones[name]; w != "" {
			name = w
		}
	case tzUTC, tzFloating:
		return ""
	}
	if s.quoteTZID {
		return `"` + name + `"`
	}
	return name
}

// icsFeed renders a venue's iCalendar feed. stamp is the time the corpus was made; events
// carry it as DTSTAMP when revision 1 changed them, else a fixed earlier time.
func icsFeed(v *venue, today, stamp time.Time) []byte {
	s := &v.style.ics
	w := &icsWriter{eol: "\r\n", naive: s.naiveFold}
	if s.lf {
		w.eol = "\n"
	}
	if s.bom {
		w.b.WriteString("\ufeff")
	}
	w.line("BEGIN:VCALENDAR")
	w.line("VERSION:2.0")
	w.line("PRODID:" + s.prodid)
	w.line("CALSCALE:GREGORIAN")
	w.line("METHOD:PUBLISH")
	if s.calName {
		w.line("X-WR-CALNAME:" + icsText(v.name))
		w.line("X-WR-CALDESC:" + icsText(fmt.Sprintf("Live music at %s, %s – concerts, club nights and more; programme subject to change – Änderungen vorbehalten – sous réserve de modifications.", v.name, v.city.name)))
	}
	if s.wrTimezone {
		w.line("X-WR-TIMEZONE:" + v.loc.String())
	}
	if id := tzid(v); id != "" && (s.tz == tzIANA || s.tz == tzWindows) {
		vtimezone(w, strings.Trim(id, `"`), v.loc, today, s.tz == tzWindows)
	}
	for _, g := range v.listed() {
		if g.series != nil {
			if g == g.series.gigs[0] {
				icsEvent(w, g, today, stamp)
			}
			continue
		}
		icsEvent(w, g, today, stamp)
	}
	w.line("END:VCALENDAR")
	return w.b.Bytes()
}

// uidOf returns the UID of g's VEVENT, in the feed's UID form.
func uidOf(g *gig) string {
	v := g.venue
	n := strconv.Itoa(g.n)
	switch v.style.ics.uid {
	case 0:
		return n + "@" + v.site.host
	case 1:
		return "event-" + n + "@" + v.site.host
	case 2:
		x := sha256.Sum256([]byte(v.site.host + "/" + n))
		return fmt.Sprintf("%x-%x-%x-%x-%x", x[0:4], x[4:6], x[6:8], x[8:10], x[10:16])
	}
	return strings.ReplaceAll(v.site.host, ".", "-") + "-" + n
}

// icsStart writes a DTSTART-like property for t: with the feed's TZID, in UTC, floating or
// as a date.
func icsStart(name string, g *gig, t time.Time) string {
	v := g.venue
	t = t.In(v.loc)
	if g.dateOnly {
		return name + ";VALUE=DATE:" + t.Format(icsDate)
	}
	id := tzid(v)
	switch {
	case g.series != nil && id == "" && v.style.ics.tz == tzUTC:
		id = v.loc.String() // recurring events keep the wall time: exporters give them a TZID
	case id == "" && v.style.ics.tz == tzUTC:
		return name + ":" + t.UTC().Format(icsUTC)
	}
	if id == "" {
		return name + ":" + t.Format(icsLocal)
	}
	return name + ";TZID=" + id + ":" + t.Format(icsLocal)
}

// icsEvent writes one VEVENT; a residency's first occurrence writes the whole series.
func icsEvent(w *icsWriter, g *gig, today, stamp time.Time) {
	v := g.venue
	s := &v.style.ics
	w.line("BEGIN:VEVENT")
	w.line("UID:" + uidOf(g))
	if g.edited {
		w.line("DTSTAMP:" + stamp.UTC().Format(icsUTC))
		w.line("SEQUENCE:1")
	} else {
		w.line("DTSTAMP:" + today.AddDate(0, 0, -1-g.n%20).UTC().Format(icsUTC))
	}
	w.line(icsStart("DTSTART", g, g.start))
	switch {
	case g.dateOnly && s.dtend:
		w.line("DTEND;VALUE=DATE:" + g.start.AddDate(0, 0, 1).Format(icsDate))
	case !g.dateOnly && s.dtend && !g.end.IsZero():
		w.line(icsStart("DTEND", g, g.end))
	case g.series != nil && s.dtend:
		w.line(icsStart("DTEND", g, g.start.Add(2*time.Hour)))
	}
	if res := g.series; res != nil {
		rule := "RRULE:FREQ=WEEKLY;COUNT=" + strconv.Itoa(res.count)
		if g.n%2 == 0 { // UNTIL is in UTC, or floating like a floating DTSTART
			last := g.start.AddDate(0, 0, 7*(res.count-1))
			until := last.UTC().Format(icsUTC)
			if s.tz == tzFloating {
				until = last.Format(icsLocal)
			}
			rule = "RRULE:FREQ=WEEKLY;UNTIL=" + until
		}
		if g.n%3 == 0 {
			rule += ";BYDAY=" + strings.ToUpper(g.start.Weekday().String()[:2])
		}
		w.line(rule)
		if len(res.exdates) > 0 {
			dates := make([]string, len(res.exdates))
			for i, t := range res.exdates {
				dates[i] = t.Format(icsLocal)
			}
			prop := icsStart("EXDATE", g, g.start)
			prop = prop[:strings.LastIndexByte(prop, ':')+1]
			w.line(prop + strings.Join(dates, ","))
		}
	}
	w.line("SUMMARY:" + icsText(title(g)))
	loc := v.name
	if s.fullAddress {
		loc += ", " + v.street + ", " + v.postal + " " + v.style.locality
	}
	w.line("LOCATION:" + icsText(loc))
	if s.description {
		var d []string
		if len(g.acts) > 1 {
			names := make([]string, len(g.acts)-1)
			for i, a := range g.acts[1:] {
				names[i] = a.name
			}
			d = append(d, "With "+strings.Join(names, " and ")+".")
		}
		if !g.doors.IsZero() {
			d = append(d, "Doors "+g.doors.Format("15:04")+".")
		}
		if g.status == rescheduled {
			d = append(d, "Rescheduled from "+g.previous.Format("Monday 2 January")+"; tickets remain valid.")
		}
		if t := g.tickets; t != nil {
			d = append(d, fmt.Sprintf("Tickets %v %s at %s", v.price(t.low), countries[v.city.country].currency, v.origin()+"tickets/"+strconv.Itoa(g.n)))
		}
		d = append(d, "Live at "+v.name+" – "+v.style.locality+".")
		w.line("DESCRIPTION:" + icsText(strings.Join(d, "\n")))
	}
	if s.categories {
		var cs []string
		for _, x := range g.acts[0].genres {
			cs = append(cs, icsText(v.spell(x)))
		}
		w.line("CATEGORIES:" + strings.Join(cs, ","))
	}
	switch g.status {
	case cancelled:
		w.line("STATUS:CANCELLED")
	case postponed:
		w.line("STATUS:TENTATIVE")
	default:
		w.line("STATUS:CONFIRMED")
	}
	w.line("URL:" + g.url())
	w.line("END:VEVENT")
}

// vtimezone writes a VTIMEZONE for loc under the name tzid. Outlook style states each
// offset change once, from 1601, with a yearly rule; else every change within a year of
// today is listed with its own DTSTART. Zones without changes get one STANDARD component.
func vtimezone(w *icsWriter, tzid string, loc *time.Location, today time.Time, outlook bool) {
	w.line("BEGIN:VTIMEZONE")
	w.line("TZID:" + tzid)
	changes := zoneChanges(loc, today.AddDate(-1, 0, 0), today.AddDate(1, 0, 0))
	offset := func(sec int) string {
		sign := '+'
		if sec < 0 {
			sign, sec = '-', -sec
		}
		return fmt.Sprintf("%c%02d%02d", sign, sec/3600, sec%3600/60)
	}
	if len(changes) == 0 {
		name, off := today.In(loc).Zone()
		w.line("BEGIN:STANDARD")
		w.line("DTSTART:19700101T000000")
		w.line("TZOFFSETFROM:" + offset(off))
		w.line("TZOFFSETTO:" + offset(off))
		w.line("TZNAME:" + name)
		w.line("END:STANDARD")
		w.line("END:VTIMEZONE")
		return
	}
	seen := map[bool]bool{} // kinds written, in Outlook style; lookups only
	for _, t := range changes {
		_, from := t.Add(-time.Second).Zone()
		name, to := t.Zone()
		kind := "STANDARD"
		if to > from {
			kind = "DAYLIGHT"
		}
		wall := t.In(time.FixedZone("", from)) // the change in the old offset
		if outlook {
			if seen[to > from] {
				continue
			}
			seen[to > from] = true
		}
		w.line("BEGIN:" + kind)
		if outlook {
			w.line("DTSTART:16010101T" + wall.Format("150405"))
			week := (wall.Day()-1)/7 + 1
			if wall.Day()+7 > time.Date(wall.Year(), wall.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day() {
				week = -1
			}
			w.line(fmt.Sprintf("RRULE:FREQ=YEARLY;BYDAY=%d%s;BYMONTH=%d", week, strings.ToUpper(wall.Weekday().String()[:2]), int(wall.Month())))
		} else {
			w.line("DTSTART:" + wall.Format(icsLocal))
		}
		w.line("TZOFFSETFROM:" + offset(from))
		w.line("TZOFFSETTO:" + offset(to))
		w.line("TZNAME:" + name)
		w.line("END:" + kind)
	}
	w.line("END:VTIMEZONE")
}
