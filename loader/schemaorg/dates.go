package schemaorg

import (
	"cmp"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/gigs/gigs/loader/source"
)

// Pages write dates other than ISO 8601 asks, and When reads the common ways:
// "2018-7-19" and "2019-9-18T10:00" (no zero padding), "2012-05-13-11:00:00" (a dash for
// the T), ISO 8601's basic format as iCalendar writes it, which sites that fill their
// JSON-LD from a calendar copy ("20260303T19:00:00", "20260303T190000Z", "20260303"),
// EventON's "2026-8-26T20:30+2:00" (its offset the site's, see siteOffset), and
// dates in English words: "Saturday, August 4, 2018 7:30 PM", "Aug 4 2018 19:30",
// "4 August 2018, 19:30", "August 4th, 2018 at 7pm". A time with a twelve-hour clock needs
// its AM or PM.
var (
	basic    = regexp.MustCompile(`^(\d{4})(\d{2})(\d{2})(?:T(\d{2}):?(\d{2})(?::?(\d{2}))?([.,]\d+)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$`)
	unpadded = regexp.MustCompile(`^(\d{4})-(\d{1,2})-(\d{1,2})(?:(?:[T ]|-)(\d{1,2}):(\d{2})(?::(\d{2}))?(.*))?$`)
	// month day, year [time] and day month year [time], after an optional weekday.
	mdy = regexp.MustCompile(`^(?:[a-z]+\.?,?\s+)?([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(.*)$`)
	dmy = regexp.MustCompile(`^(?:[a-z]+\.?,?\s+)?(\d{1,2})(?:st|nd|rd|th)?\.?\s+([a-z]+)\.?,?\s+(\d{4})(.*)$`)
	// the clock after such a date: "7:30 PM", "at 19:30", "- 7pm".
	clock = regexp.MustCompile(`^[\s,@-]*(?:at\s+)?(\d{1,2})(?:[:.](\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?\s*$`)
	// siteOffset is the UTC offset EventON, a WordPress events plug-in, writes after its
	// clocks ("2026-8-26T20:30+2:00"): WordPress's gmt_offset in hours, then ":00" ("+2:00",
	// "-5:00", "+5.5:00", "+0:00"). It is the site's offset when the page was made, not the
	// event's: a page of August writes "+2:00" for a December concert in Berlin, and a site
	// that set no zone "+0:00" for all. The clock before it is the venue's wall clock, and is
	// read as that, in the venue's zone. Hours of two digits without a decimal ("+10:00")
	// are an offset ISO 8601 allows too, which nothing tells from EventON's: they are kept.
	siteOffset = regexp.MustCompile(`^[+-](?:\d|\d\d\.\d+|\d\.\d+):00$`)
)

var months = map[string]int{
	"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
	"august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9,
	"oct": 10, "nov": 11, "dec": 12,
}

// loose rewrites a date written in one of the ways above as ISO 8601, or returns "".
func loose(s string) string {
	if m := basic.FindStringSubmatch(s); m != nil {
		out := m[1] + "-" + m[2] + "-" + m[3]
		if m[4] != "" {
			out += "T" + m[4] + ":" + m[5] + ":" + cmp.Or(m[6], "00") + m[7] + m[8]
		}
		return out
	}
	if m := unpadded.FindStringSubmatch(s); m != nil {
		out := fmt.Sprintf("%s-%02s-%02s", m[1], m[2], m[3])
		if m[4] != "" {
			sec := m[6]
			if sec == "" {
				sec = "00"
			}
			offset := strings.TrimSpace(m[7])
			if siteOffset.MatchString(offset) {
				offset = "" // the site's offset, not the event's: the clock is venue-local
			}
			out += fmt.Sprintf("T%02s:%s:%s%s", m[4], m[5], sec, offset)
		}
		return out
	}
	t := strings.ToLower(strings.Join(strings.Fields(s), " "))
	var month, day, year, rest string
	if m := mdy.FindStringSubmatch(t); m != nil && months[m[1]] > 0 {
		month, day, year, rest = m[1], m[2], m[3], m[4]
	} else if m := dmy.FindStringSubmatch(t); m != nil && months[m[2]] > 0 {
		day, month, year, rest = m[1], m[2], m[3], m[4]
	} else {
		return ""
	}
	d, _ := strconv.Atoi(day)
	out := fmt.Sprintf("%s-%02d-%02d", year, months[month], d)
	if strings.TrimSpace(rest) == "" {
		return out
	}
	c := clock.FindStringSubmatch(rest)
	if c == nil {
		return ""
	}
	h, _ := strconv.Atoi(c[1])
	mins := c[2]
	if mins == "" {
		mins = "00"
	}
	switch ampm := strings.ReplaceAll(c[3], ".", ""); {
	case ampm == "" && c[2] == "":
		return "" // "at 7": no clock to trust
	case ampm == "":
	case h < 1 || h > 12:
		return ""
	case ampm == "pm" && h < 12:
		h += 12
	case ampm == "am" && h == 12:
		h = 0
	}
	return fmt.Sprintf("%sT%02d:%s:00", out, h, mins)
}

// parseLoose reads s as ISO 8601 (source.ParseISO), else in one of the ways above.
func parseLoose(s string) (source.When, error) {
	w, err := source.ParseISO(s)
	if err == nil {
		return w, nil
	}
	if iso := loose(s); iso != "" {
		if w, err2 := source.ParseISO(iso); err2 == nil {
			return w, nil
		}
	}
	return w, err
}
