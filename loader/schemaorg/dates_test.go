package schemaorg

import "testing"

func TestLooseDates(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"2018-7-19", "2018-07-19"},
		{"2019-9-18T10:00", "2019-09-18T10:00:00"},
		{"2012-05-13-11:00:00", "2012-05-13T11:00:00"},
		{"2018-8-6T9:05:00-04:00", "2018-08-06T09:05:00-04:00"},
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
