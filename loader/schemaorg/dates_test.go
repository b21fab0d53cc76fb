package schemaorg

import "testing"

func TestLooseDates(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"2018-7-19", "2018-07-19"},
		{"2019-9-18T10:00", "2019-09-18T10:00:00"},
		{"2012-05-13-11:00:00", "2012-05-13T11:00:00"},
		{"2018-8-6T9:05:00-04:00", "2018-08-06T09:05:00-04:00"},
		// EventON (WordPress): the site's offset of the day the page was made, dropped
		{"2026-8-26T20:30+2:00", "2026-08-26T20:30:00"}, // A-Trane, Berlin
		{"2026-8-29T21:00+2:00", "2026-08-29T21:00:00"}, // Harlem Jazz Club, Barcelona
		{"2026-12-5T19:30-5:00", "2026-12-05T19:30:00"},
		{"2027-1-9T20:00+5.5:00", "2027-01-09T20:00:00"},
		{"2026-8-28T21:00+0:00", "2026-08-28T21:00:00"},
		{"2026-8-26T20:30+2:30", "2026-08-26T20:30:00+2:30"},  // no gmt_offset: kept, and unread
		{"2026-8-5T20:00+10:00", "2026-08-05T20:00:00+10:00"}, // ISO 8601's as well: kept
		{"2026-8-5T20:00+10.5:00", "2026-08-05T20:00:00"},
		// ISO 8601's basic format, as iCalendar writes it
		{"20260303T19:00:00", "2026-03-03T19:00:00"}, // The Loft, Vienna
		{"20260303T190000", "2026-03-03T19:00:00"},
		{"20260303T1900", "2026-03-03T19:00:00"},
		{"20261205T193000Z", "2026-12-05T19:30:00Z"},
		{"20261205T193000+0100", "2026-12-05T19:30:00+0100"},
		{"20261205T19:30:00.000-05:00", "2026-12-05T19:30:00.000-05:00"},
		{"20260303", "2026-03-03"},
		{"202603031900", ""},
		{"20260303T19", ""},
		{"20260303T190000 PM", ""},
		{"Saturday, August  4, 2018  7:30 PM", "2018-08-04T19:30:00"},
		{"Wednesday, August  8, 2018  7:00 PM", "2018-08-08T19:00:00"},
		{"Aug 4 2018 19:30", "2018-08-04T19:30:00"},
		{"4 August 2018, 19:30", "2018-08-04T19:30:00"},
		{"August 4th, 2018 at 7pm", "2018-08-04T19:00:00"},
		{"Sat 4 Aug 2018 12:15 am", "2018-08-04T00:15:00"},
		{"December 31, 2026", "2026-12-31"},
		{"August 4, 2018 at 7", ""},
		{"Smarch 4, 2018", ""},
		{"2019-9-18T10-10-00-00", ""},
		{"13 pm", ""},
	} {
		if got := loose(c.in); got != c.want {
			t.Errorf("loose(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestSiteOffset checks that EventON's dates keep their wall clock and lose the site's
// offset, which is not the event's (see siteOffset), while an offset ISO 8601 writes is
// kept, with a zero-padded date or without.
func TestSiteOffset(t *testing.T) {
	for _, c := range []struct {
		in        string
		wall      string
		hasOffset bool
		offset    int
	}{
		{"2026-8-26T20:30+2:00", "2026-08-26 20:30", false, 0},
		{"2026-12-26T20:30+2:00", "2026-12-26 20:30", false, 0},
		{"2026-12-5T19:30-5:00", "2026-12-05 19:30", false, 0},
		{"2026-12-26T20:30+01:00", "2026-12-26 20:30", true, 3600},
		{"2018-8-6T9:05:00-04:00", "2018-08-06 09:05", true, -4 * 3600},
	} {
		w, err := When(c.in)
		if err != nil {
			t.Errorf("When(%q): %v", c.in, err)
			continue
		}
		if got := w.Wall.Format("2006-01-02 15:04"); got != c.wall || w.HasOffset != c.hasOffset || w.Offset != c.offset {
			t.Errorf("When(%q) = %s, offset %v %d; want %s, %v %d", c.in, got, w.HasOffset, w.Offset, c.wall, c.hasOffset, c.offset)
		}
	}
}

func TestNameFromURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://venue.example/venues/the-jazz-cafe":  "The Jazz Cafe",
		"https://venue.example/venues/the_jazz_cafe/": "The Jazz Cafe",
		"http://www.thegarage.london/":                "thegarage.london",
		"https://venue.example/v/12345":               "venue.example",
		"https://venue.example/place.php?id=3":        "Place",
		"mailto:x@example.com":                        "",
		"not a url":                                   "",
	} {
		if got := NameFromURL(in); got != want {
			t.Errorf("NameFromURL(%q) = %q, want %q", in, got, want)
		}
	}
}
