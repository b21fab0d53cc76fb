package places

import "testing"

// TestCityOverNamesakeCountry keeps a reviewer's lines of session 48 (each placed so before
// that session): a final part that is a country's name in some language and a city's name
// is the city (countrynames.go); a town before a larger place is read so only near the
// most populous city of that name, and never when a namesake abroad is four times as
// populous (townBeforePlace), and the reading says the rule decided it.
func TestCityOverNamesakeCountry(t *testing.T) {
	g := Default()
	for _, c := range []struct {
		line, slug, by string // slug "": no reading in Australia (the line fails or is read elsewhere)
		notIn          string
	}{
		{line: "Venue, عمان", slug: "amman"},
		{line: "عمان", slug: "amman"},
		{line: "مسرح, تونس", slug: "tunis"},
		{line: "Club, Сальвадор", slug: "salvador"},
		{line: "Teatro, Tunisi", slug: "tunis"},
		{line: "Venue, Gateshead, Newcastle", notIn: "AU"},
		{line: "Venue, Dorchester, London", slug: "london-gb"},
		{line: "St Thomas, London", slug: "london-gb"},
		{line: "Manchester, London", slug: "london-gb"},
		{line: "Bristol, Bath", slug: "bath"},
		{line: "Villarreal, Castellón", slug: "vila-real-es", by: byTownBeforePlace},
		{line: "Kreuzberg, Berlin", slug: "berlin"},
	} {
		r, err := g.Read(Place{Locality: c.line}, Context{})
		switch {
		case c.notIn != "":
			if err == nil && r.City.Country == c.notIn {
				t.Errorf("%q: placed in %s, %s", c.line, r.City.Slug, r.City.Country)
			}
		case err != nil:
			t.Errorf("%q: %v", c.line, err)
		case r.City.Slug != c.slug || r.Made || r.By != c.by:
			t.Errorf("%q: %s (made %v, by %q), want %s (by %q)", c.line, r.City.Slug, r.Made, r.By, c.slug, c.by)
		}
	}
}

// TestGuessedCountry checks a context whose country is guessed (Context.Guessed): it
// reads a region's code and takes a town of its own when no namesake abroad is four times
// as populous, but never against one; a stated country takes its own town still.
func TestGuessedCountry(t *testing.T) {
	g := Default()
	us := Context{Country: "US", CountryBy: "the feed's towns", Guessed: true}
	stated := Context{Country: "US", CountryBy: "the feed's country"}
	for _, c := range []struct {
		line string
		ctx  Context
		want string // the city's country
	}{
		{"Toronto", us, "CA"},
		{"Toronto", stated, "US"},
		{"Salem, IN", us, "US"},
		{"Moscow", us, "RU"},
		{"Moscow", stated, "US"},
	} {
		r, err := g.Read(Place{Locality: c.line}, c.ctx)
		if err != nil || r.City.Country != c.want {
			t.Errorf("%q (guessed %v): %+v %v, want %s", c.line, c.ctx.Guessed, r.City, err, c.want)
		}
	}
}
