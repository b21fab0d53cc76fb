// Package scale generates synthetic, realistic datasets of any size for the engine's
// benchmarks and property tests: Zipf-like artist popularity and city and venue sizes, a
// spread of time zones including the extreme offsets (+14:00, -12:00) and the half- and
// quarter-hour ones, times near midnight, cancelled shows and times to be announced.
//
// The same Config always gives the same Dataset.
package scale

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"
	_ "time/tzdata" // the zones below must load on any machine

	"github.com/gigs/gigs/engine"
)

// Config sizes a dataset.
type Config struct {
	Gigs int
	Seed uint64
	Now  time.Time // gigs start from Now's day, over Days days
	Days int       // horizon; 365 when zero
}

var zones = []struct {
	city, country, zone string
	lat, lon            float64
}{
	{"London", "GB", "Europe/London", 51.507, -0.128}, {"Berlin", "DE", "Europe/Berlin", 52.52, 13.405},
	{"Paris", "FR", "Europe/Paris", 48.857, 2.352}, {"New York", "US", "America/New_York", 40.713, -74.006},
	{"Los Angeles", "US", "America/Los_Angeles", 34.052, -118.244}, {"Chicago", "US", "America/Chicago", 41.878, -87.63},
	{"Toronto", "CA", "America/Toronto", 43.653, -79.383}, {"London", "CA", "America/Toronto", 42.984, -81.246},
	{"São Paulo", "BR", "America/Sao_Paulo", -23.551, -46.633}, {"Mumbai", "IN", "Asia/Kolkata", 19.076, 72.878},
	{"Kathmandu", "NP", "Asia/Kathmandu", 27.717, 85.324}, {"St. John's", "CA", "America/St_Johns", 47.562, -52.713},
	{"Tokyo", "JP", "Asia/Tokyo", 35.676, 139.65}, {"Sydney", "AU", "Australia/Sydney", -33.869, 151.209},
	{"Auckland", "NZ", "Pacific/Auckland", -36.849, 174.763}, {"Kiritimati", "KI", "Pacific/Kiritimati", 1.872, -157.43},
	{"Baker Island", "UM", "Etc/GMT+12", 0.194, -176.477}, {"Reykjavík", "IS", "Atlantic/Reykjavik", 64.147, -21.942},
	{"Kraków", "PL", "Europe/Warsaw", 50.065, 19.945}, {"Zürich", "CH", "Europe/Zurich", 47.377, 8.542},
	{"Madrid", "ES", "Europe/Madrid", 40.417, -3.704}, {"Oslo", "NO", "Europe/Oslo", 59.914, 10.752},
	{"Seoul", "KR", "Asia/Seoul", 37.567, 126.978}, {"Mexico City", "MX", "America/Mexico_City", 19.433, -99.133},
	{"Honolulu", "US", "Pacific/Honolulu", 21.307, -157.858},
}

var genres = []string{"Rock", "Indie", "Electronic", "Techno", "Jazz", "Hip-Hop", "Pop", "Metal",
	"Folk", "Classical", "Soul", "Punk", "Blues", "Reggae", "Country"}

var syllables = []string{"ka", "lo", "mi", "ra", "ven", "tor", "sa", "ne", "ö", "dru", "fa", "lis",
	"mo", "ræ", "thu", "gan", "bel", "ki", "sø", "mar", "ze", "pol", "qui", "ros"}

// Generate builds a dataset of about cfg.Gigs gigs, all from cfg.Now's day on.
func Generate(cfg Config) *engine.Dataset {
	r := rand.New(rand.NewPCG(cfg.Seed, 0x5ca1e))
	days := cfg.Days
	if days == 0 {
		days = 365
	}
	ds := &engine.Dataset{Gigs: make([]engine.Gig, 0, cfg.Gigs)}
	for _, g := range genres {
		ds.Genres = append(ds.Genres, engine.Genre{Slug: engine.Slugify(g), Name: g})
	}
	for i, z := range zones {
		ds.Cities = append(ds.Cities, engine.City{Slug: fmt.Sprintf("%s-%d", engine.Slugify(z.city), i), Name: z.city, Country: z.country, Timezone: z.zone,
			Lat: z.lat, Lon: z.lon, HasGeo: true})
	}
	nVenues := min(max(cfg.Gigs/40, len(zones)), 25000)
	cityZipf := rand.NewZipf(r, 1.2, 2, uint64(len(zones)-1))
	// Venues lie within about 15 km of their city's centre; a third have no coordinates.
	// Positions come from a generator of their own, so that the rest is as it was.
	geo := rand.New(rand.NewPCG(cfg.Seed, 0x6e0))
	for i := range nVenues {
		c := ds.Cities[i%len(zones)] // every city has a venue
		if i >= len(zones) {
			c = ds.Cities[cityZipf.Uint64()]
		}
		lat := c.Lat + (geo.Float64()-0.5)*0.27
		lon := c.Lon + (geo.Float64()-0.5)*0.27/math.Cos(c.Lat*math.Pi/180)
		ds.Venues = append(ds.Venues, engine.Venue{Slug: fmt.Sprintf("venue-%d", i), Name: name(r, 2) + " Hall",
			City: c.Slug, Address: fmt.Sprintf("%d Main Street", i+1), Lat: math.Round(lat*1e5) / 1e5,
			Lon: math.Round(lon*1e5) / 1e5, HasGeo: i%3 != 0})
	}
	nArtists := min(max(cfg.Gigs/8, 10), 200000)
	for i := range nArtists {
		a := engine.Artist{Slug: fmt.Sprintf("artist-%d", i), Name: name(r, 2+r.IntN(2))}
		a.Genres = append(a.Genres, ds.Genres[r.IntN(len(genres))].Slug)
		if r.IntN(3) == 0 {
			if g := ds.Genres[r.IntN(len(genres))].Slug; g != a.Genres[0] {
				a.Genres = append(a.Genres, g)
			}
		}
		ds.Artists = append(ds.Artists, a)
	}
	artistZipf := rand.NewZipf(r, 1.1, 5, uint64(nArtists-1))
	venueZipf := rand.NewZipf(r, 1.05, 10, uint64(nVenues-1))
	locs := map[string]*time.Location{}
	for _, c := range ds.Cities {
		locs[c.Slug], _ = time.LoadLocation(c.Timezone)
	}
	cityOf := map[string]string{}
	for _, v := range ds.Venues {
		cityOf[v.Slug] = v.City
	}
	y, m, d := cfg.Now.UTC().Date()
	for i := range cfg.Gigs {
		v := ds.Venues[venueZipf.Uint64()]
		loc := locs[cityOf[v.Slug]]
		hour := []int{19, 20, 20, 21, 22, 23, 0, 1, 18, 12}[r.IntN(10)]
		start := time.Date(y, m, d+1+r.IntN(days), hour, []int{0, 30, 0, 15}[r.IntN(4)], 0, 0, loc)
		g := engine.Gig{ID: fmt.Sprintf("g%07d", i), Venue: v.Slug, Start: start, TimeTBA: r.IntN(40) == 0}
		_ = r.IntN(1000) // drawn for a field gigs no longer have: the same seed gives the same gigs as before
		switch r.IntN(50) {
		case 0:
			g.Status = engine.StatusCancelled
		case 1:
			g.Status, g.PreviousStart = engine.StatusRescheduled, start.AddDate(0, 0, -7)
		}
		if r.IntN(2) == 0 {
			g.Doors = start.Add(-time.Hour)
		}
		seen := map[string]bool{}
		for n := range 1 + r.IntN(3) {
			a := ds.Artists[artistZipf.Uint64()]
			if seen[a.Slug] {
				continue
			}
			seen[a.Slug] = true
			g.Artists = append(g.Artists, engine.Billing{Artist: a.Slug, Headliner: n == 0})
			for _, gn := range a.Genres {
				if !seen["genre:"+gn] {
					seen["genre:"+gn] = true
					g.Genres = append(g.Genres, gn)
				}
			}
		}
		g.Title = nameOf(ds, g.Artists[0].Artist)
		price := float64(10 + r.IntN(90))
		g.Tickets = []engine.Ticket{{URL: fmt.Sprintf("https://tickets.example/%s", g.ID), Source: "platform", PriceMin: &price, Currency: "EUR", Availability: "in_stock"}}
		g.Sources = []engine.Attribution{{Name: "venue-" + v.Slug, URL: fmt.Sprintf("https://%s.example/", v.Slug)}}
		ds.Gigs = append(ds.Gigs, g)
	}
	return ds
}

func nameOf(ds *engine.Dataset, slug string) string {
	var n int
	_, _ = fmt.Sscanf(slug, "artist-%d", &n)
	return ds.Artists[n].Name
}

func name(r *rand.Rand, parts int) string {
	b := make([]byte, 0, 16)
	for i := range parts {
		s := syllables[r.IntN(len(syllables))]
		if i == 0 && 'a' <= s[0] && s[0] <= 'z' {
			b = append(b, s[0]-'a'+'A')
			s = s[1:]
		}
		b = append(b, s...)
	}
	return string(b)
}
