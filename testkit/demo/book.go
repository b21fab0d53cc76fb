package demo

import "math/rand/v2"

// genreSet is a set of genres as bits.
type genreSet uint16

func genresOf(gs ...int) genreSet {
	var s genreSet
	for _, g := range gs {
		s |= 1 << g
	}
	return s
}

// What kinds of venue book, by genre.
var (
	hallGenres      = genresOf(rock, indie, electronic, jazzGenre, hipHop, folk, metal, classical, pop, soul, punk)
	barGenres       = genresOf(rock, indie, folk, punk, metal, soul, pop)
	jazzGenres      = genresOf(jazzGenre, soul, classical, folk)
	clubGenres      = genresOf(electronic, hipHop, pop, indie, techno, soul, punk)
	clubNightGenres = genresOf(electronic, techno, hipHop)
)

// suits reports whether an act plays what a slot's venue books that night.
func suits(s *slot, a *artist) bool {
	want := hallGenres
	switch {
	case s.kind == clubNight || s.kind == afterHours:
		want = clubNightGenres
	case s.venue.kind == bar:
		want = barGenres
	case s.venue.kind == jazz:
		want = jazzGenres
	case s.venue.kind == club:
		want = clubGenres
	}
	return genresOf(a.genres...)&want != 0
}

// booking is one night an act is taken.
type booking struct {
	day  int
	city *city
}

// diary holds every act's bookings, indexed by rank.
type diary [][]booking

// add books a for the night day in c.
func (d diary) add(a *artist, day int, c *city) { d[a.rank] = append(d[a.rank], booking{day, c}) }

// free reports whether a can play in c on day: not the same night as another show, three
// days to change area, three weeks before returning to a city.
func (d diary) free(a *artist, day int, c *city) bool {
	for _, b := range d[a.rank] {
		gap := max(b.day-day, day-b.day)
		if gap == 0 || gap < 3 && b.city.area != c.area || gap < 21 && b.city == c {
			return false
		}
	}
	return true
}

// Popularity: headliners follow a steep Zipf law, support acts a flat one.
const (
	headlinerSkew = 0.6
	supportSkew   = 0.3
)

// book fills every slot's bill, in slot order: a headliner drawn by popularity that suits
// the venue (mostly) and is free that night, then up to two less popular support acts.
// Slots no act is free for stay empty; there are far more acts than that needs. It returns
// the bookings of every act, the ones beyond the touring pool included (they have none).
func book(r *rand.Rand, slots []*slot, all []*artist) diary {
	artists := all[:artistCount]
	heads, supports := newZipf(len(artists), headlinerSkew), newZipf(len(artists), supportSkew)
	d := make(diary, len(all))
	take := func(s *slot, a *artist) {
		s.acts = append(s.acts, a)
		d.add(a, s.day, s.venue.city)
	}
	for _, s := range slots {
		h := drawAct(r, heads, artists, 40, func(a *artist) bool {
			return d.free(a, s.day, s.venue.city) && (suits(s, a) || r.IntN(20) == 0)
		})
		if h == nil {
			h = firstFree(r, artists, func(a *artist) bool { return d.free(a, s.day, s.venue.city) })
		}
		if h == nil {
			continue
		}
		take(s, h)
		for range supportCount(r, s.kind) {
			a := drawAct(r, supports, artists, 20, func(a *artist) bool {
				return a.rank > h.rank && d.free(a, s.day, s.venue.city) && (suits(s, a) || r.IntN(10) == 0)
			})
			if a != nil {
				take(s, a)
			}
		}
	}
	return d
}

// drawAct draws up to tries acts by popularity and returns the first that ok accepts, or nil.
func drawAct(r *rand.Rand, z zipf, artists []*artist, tries int, ok func(*artist) bool) *artist {
	for range tries {
		if a := artists[z.draw(r)]; ok(a) {
			return a
		}
	}
	return nil
}

// firstFree returns the first act ok accepts, scanning from a random rank, or nil.
func firstFree(r *rand.Rand, artists []*artist, ok func(*artist) bool) *artist {
	start := r.IntN(len(artists))
	for i := range artists {
		if a := artists[(start+i)%len(artists)]; ok(a) {
			return a
		}
	}
	return nil
}

// supportCount returns how many support acts a night has: mostly one, often none, sometimes two.
func supportCount(r *rand.Rand, k slotKind) int {
	x := r.Float64()
	switch {
	case k == afterHours || k == twoShows:
		return r.IntN(2)
	case x < 0.35:
		return 0
	case x < 0.8:
		return 1
	}
	return 2
}
