package ical

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gigs/gigs/loader/places"
)

// Outlook on the web and some Exchange servers name a zone by its Windows display name,
// "(UTC+10:00) Canberra, Melbourne, Sydney" or "(GMT-05:00) Eastern Time (US & Canada)",
// with no VTIMEZONE. Such a name is read as the zone of the first place it lists whose
// standard offset is the one it states: a region Windows names by words (below), else a
// city of the gazetteer. Some clients write the list without its offset ("Amsterdam,
// Belgrade, Berlin, Brussels, Budapest, Madrid, Paris, Prague, Stockholm"): that is read
// when every place in it is a city of the gazetteer and their zones agree (see cityList).

var displayName = regexp.MustCompile(`^\((?:UTC|GMT)(?:([+-])(\d{1,2}):?(\d{2})?)?\)\s*(.+)$`)

// displayRegions are the places Windows display names give as words, not cities.
var displayRegions = map[string]string{
	"eastern time": "America/New_York", "central time": "America/Chicago", "mountain time": "America/Denver",
	"pacific time": "America/Los_Angeles", "alaska": "America/Anchorage", "hawaii": "Pacific/Honolulu",
	"atlantic time": "America/Halifax", "arizona": "America/Phoenix", "newfoundland": "America/St_Johns",
	"coordinated universal time": "UTC", "saskatchewan": "America/Regina", "indiana (east)": "America/Indiana/Indianapolis",
}

// displayZone returns the zone a Windows display name names, or nil.
func displayZone(name string) *time.Location {
	m := displayName.FindStringSubmatch(strings.TrimSpace(name))
	if m == nil {
		return cityList(name)
	}
	offset := 0
	if m[1] != "" {
		h, _ := strconv.Atoi(m[2])
		mins, _ := strconv.Atoi(m[3])
		offset = (h*60 + mins) * 60
		if m[1] == "-" {
			offset = -offset
		}
	}
	rest := strings.ToLower(m[4])
	for words, zone := range displayRegions {
		if strings.HasPrefix(rest, words) {
			if loc := ianaZone(zone); loc != nil && standardOffset(loc) == offset {
				return loc
			}
		}
	}
	for _, part := range strings.FieldsFunc(m[4], func(r rune) bool { return r == ',' || r == '(' || r == ')' || r == '&' || r == '/' }) {
		for _, c := range places.Default().CitiesNamed(strings.TrimSpace(part)) {
			if c.Major() && standardOffset(c.Location) == offset {
				return c.Location
			}
		}
	}
	return nil
}

// cityList returns the zone of a list of two or more cities separated by commas, when
// each names a city of the gazetteer and one pair of January and July offsets is that of
// a city of each name (Paris is also in Texas; Belgrade settles it): the zone of the
// first name's city with those offsets. Otherwise nil.
func cityList(name string) *time.Location {
	parts := strings.Split(name, ",")
	if len(parts) < 2 || len(parts) > maxListedCities {
		return nil
	}
	first := places.Default().CitiesNamed(strings.TrimSpace(parts[0]))
	for _, c := range first {
		if !c.Major() {
			continue // display names list major cities only
		}
		want, all := seasons(c.Location), true
		for _, part := range parts[1:] {
			found := false
			for _, other := range places.Default().CitiesNamed(strings.TrimSpace(part)) {
				if other.Major() && seasons(other.Location) == want {
					found = true
					break
				}
			}
			if !found {
				all = false
				break
			}
		}
		if all {
			return c.Location
		}
	}
	return nil
}

// maxListedCities bounds the cities of a list cityList looks up.
const maxListedCities = 20

// standardOffset is a zone's offset outside daylight saving time: the smaller of its
// January and July offsets in a recent year.
func standardOffset(loc *time.Location) int {
	o := seasons(loc)
	return min(o.jan, o.jul)
}

// offsets are a zone's UTC offsets in seconds in mid-January and mid-July of a recent year.
type offsets struct{ jan, jul int }

func seasons(loc *time.Location) offsets {
	_, jan := time.Date(2025, 1, 15, 12, 0, 0, 0, loc).Zone()
	_, jul := time.Date(2025, 7, 15, 12, 0, 0, 0, loc).Zone()
	return offsets{jan, jul}
}
