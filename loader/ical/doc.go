// Package ical reads the events of iCalendar (RFC 5545) feeds that venues publish.
//
// # Reading
//
// Parse takes a document with or without a UTF-8 byte order mark, with CRLF or bare LF line
// ends. Folded lines (a line end followed by a space or a tab) are unfolded on bytes, so a
// fold may split a UTF-8 character; the unfolded line is then made valid UTF-8, invalid
// bytes becoming U+FFFD. Parameter values may be quoted and hold ";", ":" and ","; TEXT
// values are unescaped (\\ \; \, \n \N). Property and component names are case-insensitive.
// Lines that are not content lines, and properties the adapter does not read, are skipped.
//
// # Events
//
// Every VEVENT with a DTSTART and a SUMMARY yields an event, or one per occurrence for a
// series. Source is left empty for the caller, and package source's rule holds: nothing is
// invented.
//
//   - Ref is the UID, or ref + "#" + the 1-based index of the VEVENT in the document when it
//     has none (or one longer than 2,000 bytes). An occurrence of a series (RRULE or RDATE) adds "/" and its date as stated,
//     in DTSTART's own zone or form ("uid/2026-12-05"), and "T15:04", its clock, when that
//     differs from DTSTART's. A VEVENT with a RECURRENCE-ID takes the ref of the
//     occurrence it replaces. Lone events whose UID other VEVENTs without a RECURRENCE-ID
//     share take the date form too, so that each keeps a ref of its own.
//   - Line is the 1-based physical line of BEGIN:VEVENT (of the first line of a folded one).
//   - Title is SUMMARY; Status is engine.StatusCancelled for STATUS:CANCELLED and empty
//     otherwise (CONFIRMED, TENTATIVE or none): iCalendar cannot say that an event was
//     postponed or rescheduled, so no event is stated to be on schedule. URL is URL when it
//     is an absolute http or https URL; Genres and Kinds are the CATEGORIES, comma lists
//     and repeated properties alike, up to 20. In text, HTML entities are decoded (CMS exports put them
//     in), control characters dropped and white space collapsed; it is cut to 500 bytes.
//   - Venue comes from LOCATION, split at commas and line breaks: a last part that names a
//     country ("Deutschland", "UK") is the Country; of the rest, three parts or more are
//     "venue, street, city", the name, the street and the rest as Locality (the loader
//     reads it as an address on one line); two are "venue, city", unless the second holds
//     a digit ("venue, street 12"), which is then the street; one is the name. GEO
//     gives Lat and Lon when both are in range and not 0,0. LOCATION cannot say more;
//     the calendar around it can: FeedZone is the zone of DTSTART's TZID, else the
//     calendar's X-WR-TIMEZONE (not UTC or an Etc/ zone), which the loader uses to choose
//     between readings of the place ("Ruston, LA" in an America/Chicago calendar is in
//     Louisiana), never as the venue's zone.
//   - End is DTEND, or DTSTART plus DURATION; a date-only DTEND is exclusive, as RFC 5545
//     has it. An end that cannot be read or lies before the start is left out.
//   - No performers: the loader takes the headliner from the title. DESCRIPTION, ATTENDEE,
//     ORGANIZER and alarms are not read.
//
// # Times
//
// A DATE value (any 8-digit value) is a date-only When; a VALUE=DATE that carries a time
// anyway is read as the date-time it states. A DATE-TIME with "Z" is UTC: offset 0. One
// without "Z" or TZID is in the calendar's X-WR-TIMEZONE when that names a zone, and
// floating otherwise: a When without an offset, which the loader reads as venue-local. One
// with a TZID keeps its stated wall clock and gets the offset of that zone at that wall
// time. The TZID may be quoted and is read as
//
//   - an IANA name ("Europe/Berlin"), whether or not the document has a VTIMEZONE for it;
//   - a Windows name ("W. Europe Standard Time", "India Standard Time"), mapped to the
//     IANA zone CLDR's windowsZones gives for territory 001 (windowszones.tsv);
//   - a Windows display name ("(UTC+10:00) Canberra, Melbourne, Sydney", "(GMT-05:00)
//     Eastern Time (US & Canada)"): the zone of the first place it lists, a US or Canadian
//     region by its words or a gazetteer city, whose standard offset is the one it states;
//     without the offset ("Amsterdam, Belgrade, Berlin, …"), when every place it lists is
//     a gazetteer city and their zones agree;
//   - a prefixed name whose trailing part is an IANA name
//     ("/mozilla.org/20050126_1/Europe/Berlin", "/Europe/Stockholm");
//   - through the X-LIC-LOCATION of the document's VTIMEZONE for the TZID;
//   - failing those, by the rules of that VTIMEZONE (an Outlook display name, "Customized
//     Time Zone"): the zone, of those windowszones.tsv names, whose offsets agree with its
//     STANDARD and DAYLIGHT observances every day of the three years around Options.Now.
//     An observance without RRULE holds from its DTSTART until a later one (Exchange's
//     zones without daylight saving start in 1601); a yearly one recurs until its UNTIL,
//     or until one of its kind with a later DTSTART begins (Exchange's eras); one whose
//     RRULE is not a yearly "nth weekday of a month" rule makes the VTIMEZONE unusable.
//
// A TZID none of these resolve is never read as venue-local time: the value is an error,
// and an event whose DTSTART it is is dropped with the reason. A wall time that a daylight
// saving change skips (02:30 on the night clocks go from 02:00 to 03:00) keeps its stated
// wall; its offset is the one that makes the wall minus the offset the instant time.Date
// gives for it, which is one of the two offsets around the gap: Go does not promise which.
// A repeated wall time likewise gets the offset of the instant time.Date chooses.
//
// # Recurrence
//
// RRULE is expanded for FREQ=DAILY, WEEKLY, MONTHLY and YEARLY with INTERVAL, COUNT, UNTIL
// (a date, a UTC date-time or a floating one), BYDAY (with ordinals such as 1FR or -1SA for
// MONTHLY and YEARLY), BYMONTHDAY, BYMONTH and WKST. DTSTART is always the first
// occurrence and counts towards COUNT, as RFC 5545 says. Occurrences are generated in wall
// time, so a zoned series keeps its clock across daylight saving changes and each
// occurrence gets the offset of its own day. RDATE (dates, date-times, PERIODs: each
// occurrence lasts to its period's end) adds occurrences, EXDATE (repeated, comma lists, with a TZID or VALUE=DATE, which removes any
// occurrence on that date) takes them away; values in another form than DTSTART are
// compared after conversion to DTSTART's zone. EXDATE is ignored on an event that does not
// recur.
//
// Only occurrences that start within [Options.Now-24h, Options.Now+Options.Horizon] are
// returned; floating and date-only starts are placed in the window as if they were UTC.
// Lone events are returned whatever their date. A
// recurring event yields at most Options.MaxOccurrences of them, its RRULEs and RDATEs
// together; more is a drop, and the first ones are kept. A VEVENT with a RECURRENCE-ID and the UID of a series in the document replaces
// that occurrence: it is returned when it or the occurrence it replaces lies in the window,
// takes the title, venue, URL and genres of the series when it states none, starts at its
// RECURRENCE-ID (in the series' zone) when it has no DTSTART, and with STATUS:CANCELLED
// cancels that occurrence alone. A RECURRENCE-ID whose TZID no zone resolves is read by
// its date alone, which names an occurrence of an all-day series (Exchange writes
// "UTC+01"); of any other series the override is dropped with the reason. Of two
// overrides of one occurrence the higher SEQUENCE wins. An override with
// RANGE=THISANDFUTURE also overrides every later occurrence that has no override of its
// own: each takes its fields and duration, and moves as it moved its occurrence. An
// override whose series is not in the document is an event of its own.
//
// A rule the adapter cannot expand exactly is not guessed at: a part it does not support
// (BYSETPOS, BYHOUR, BYMINUTE, BYSECOND, BYYEARDAY, BYWEEKNO, FREQ=HOURLY and finer, RSCALE),
// an unknown or repeated part, a combination RFC 5545 forbids, or an EXRULE drops the whole
// series, and so does an EXDATE that cannot be read. An RDATE that cannot be read is left
// out with a drop.
//
// # Drops and limits
//
// A VEVENT the adapter cannot use is never lost silently. One without DTSTART or SUMMARY,
// with a DTSTART that cannot be read, or without END:VEVENT (a truncated document) is a
// drop; so are END without BEGIN, a VCALENDAR that is not closed, and a document with
// neither VCALENDAR nor VEVENT (at line 0). Each drop names ref, the line (of the VEVENT,
// or of the property at fault) and a lowercase reason; drops come in line order. The rest
// of the document is still read.
//
// Work is bounded, and each of these limits reached is a drop: content lines longer than
// 256 KiB and components nested deeper than 8 are ignored, at most 100,000 VEVENTs are read
// and 100,000 events returned, a VEVENT with more than 8 RRULEs or 2,000 RDATE and EXDATE
// values is dropped, and expanding the rules of one document looks at no more than
// 10,000,000 days. Beyond the first 100 distinct TZIDs of a document a TZID resolves no
// zone (its values are errors, as above), and at most 10 are matched by their rules.
//
// Events come in document order, the occurrences of a series in order of start at the
// place of its VEVENT. Parse never panics, never modifies its input, and is safe for
// concurrent use.
package ical
