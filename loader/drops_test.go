package loader

import (
	"encoding/json"
	"errors"
	"os"
	"testing"
)

func TestDropClass(t *testing.T) {
	for reason, want := range map[string]string{
		`not music: the source classifies it as "Sports"`:                                                     "not_music",
		"venue without a name":                                                                                "no_venue",
		`venue in "Valencia" has no country, and the city's name does not tell it`:                            "no_place",
		`unknown city "Port Perry" in CA, and no time zone for it (state one, or coordinates)`:                "no_place",
		`ambiguous place: "Concord" names 3 towns in US (…) and nothing in the event or its feed tells which`: "no_place",
		"start date to be announced":                                                                          "date_tba",
		`event "Atlanta Braves vs. Miami Marlins": not published (status "tribe-ignored")`:                    "date_tba",
		`event "Verstecktes internes Treffen": hidden from the site's listings`:                               "date_tba",
		"start 2031-01-01 is more than two years ahead":                                                       "out_of_range",
		`event "X": cannot parse startDate "soon": cannot parse`:                                              "no_start",
		`vevent "X": cannot read dtstart "20260310T200000": time zone "Mars" is unknown`:                      "no_start",
		`no usable start: cannot parse time "TBA": too short`:                                                 "no_start",
		`vevent "X": rrule part BYSETPOS is not supported; the series is dropped`:                             "unsupported",
		"invalid json-ld: line 3: unexpected end of JSON input":                                               "unreadable",
		`cannot decode event: field "stats" is a json string`:                                                 "unreadable",
		"no event id": "unreadable",
		`vevent "X": recurs more than 366 times in the window; the later occurrences are left out`: "capped",
		"something new": "other",
	} {
		if got := dropClass(reason); got != want {
			t.Errorf("dropClass(%q) = %q, want %q", reason, got, want)
		}
	}
}

func TestPublicError(t *testing.T) {
	for in, want := range map[string]string{
		`cannot fetch "https://user:pw@api.example.com/v2/events?apikey=REDACTED": status 500`: `cannot fetch "https://api.example.com/…": status 500`,
		`open /var/lib/gigs/pages/venue.html: no such file or directory`:                       `open …/venue.html: no such file or directory`,
		`cannot read "file:///srv/feeds/x.ics": too large`:                                     `cannot read "…/x.ics": too large`,
		"plain": "plain",
	} {
		if got := publicError(errors.New(in)); got != want {
			t.Errorf("publicError(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRealDropsHaveClasses holds every reason the real corpus drops records for to a class.
func TestRealDropsHaveClasses(t *testing.T) {
	b, err := os.ReadFile("../testdata/real/expect.json")
	if err != nil {
		t.Fatal(err)
	}
	var exp map[string]struct{ Dropped map[string]int }
	if err := json.Unmarshal(b, &exp); err != nil {
		t.Fatal(err)
	}
	for name, e := range exp {
		for reason := range e.Dropped {
			if dropClass(reason) == "other" {
				t.Errorf("%s: %q has no class", name, reason)
			}
		}
	}
}
