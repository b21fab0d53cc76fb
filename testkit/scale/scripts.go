package scale

import "github.com/gigs/gigs/engine"

// Scripts renames a few of ds's entities in several scripts, for the tests of search by
// words: artist 0 is Motörhead and headlines every every-th gig alone; cities 0 to 3 are
// München, Москва, Αθήνα and 東京; venues 4 and 5 are 東京ドーム and 서울 올림픽공원.
// ds must have at least 4 cities and 6 venues (Generate makes 25 cities, and venues as many).
func Scripts(ds *engine.Dataset, every int) {
	ds.Artists[0].Name = "Motörhead"
	for i, name := range []string{"München", "Москва", "Αθήνα", "東京"} {
		ds.Cities[i].Name = name
	}
	ds.Venues[4].Name, ds.Venues[5].Name = "東京ドーム", "서울 올림픽공원"
	for i := range ds.Gigs {
		if i%every == 0 {
			ds.Gigs[i].Artists = append(ds.Gigs[i].Artists[:0], engine.Billing{Artist: ds.Artists[0].Slug, Headliner: true})
		}
	}
}
