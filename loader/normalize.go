package loader

import (
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/places"
	"github.com/gigs/gigs/loader/source"
)

// horizon is how far ahead a start may lie; later ones are taken for typos.
const horizon = 2 * 365 * 24 * time.Hour

// Role says what a source is. It decides whose facts win when listings merge.
type Role uint8

// Roles, most authoritative first.
const (
	RoleVenue    Role = iota // a venue's own website or feed: times and the bill come from here
	RolePrimary              // a primary ticketing platform: its cancellations count
	RolePlatform             // any other ticketing platform
	// RoleGuest is a venue site's record of an event at another venue than its own: it
	// speaks for nobody there. It never renames a venue another role names, and it is
	// ignored wherever it meets a record of another role (see clusters); alone, it lists
	// a gig as a platform's record would, and of guests alone listing one gig, one speaks.
	RoleGuest
)

// record is one source event, normalized: placed at a venue of a city, in venue-local
// time, with the keys merging compares.
type record struct {
	ev      *source.Event
	src     int32 // index of its source in the run
	role    Role
	city    *places.City
	venue   int32     // index in normalizer.venues
	start   time.Time // in the city's zone; local midnight when tba
	tba     bool
	day     int32     // venue-local date as days since 1970-01-01
	prev    time.Time // previous start (before a reschedule), zero when none
	keys    [2]string // headliner key and title key; they may be equal, never both empty
	tribute bool
	stable  bool // the ref is an identity the source keeps, not a position in a document
}

// venueEntry is a venue as the sources name it; the most authoritative source names it.
type venueEntry struct {
	city     *places.City
	name     string
	key      string // venueKey of name
	role     Role   // the most authoritative role of the records filed here
	place    source.Place
	platform bool // a platform's record is filed here
}

// streetAt is a venue filed under a street, and whether a platform's record gave it that
// street (else only venue sites' records did).
type streetAt struct {
	venue    int32
	platform bool
}

// normalizer turns source events into records. Not safe for concurrent use.
type normalizer struct {
	now          time.Time
	recs         []record
	venues       []venueEntry
	venueKeys    map[string]int32      // city slug + "\x00" + venue key → venues index
	venueStreets map[string][]streetAt // city slug + "\x00" + street key → the venues there, first named first
	near         map[string][]int32    // city slug → venues with coordinates
	places       *places.Gazetteer
	cities       map[string]*places.City // the cities of the run's records, by slug
	seen         map[string]bool         // source index + ref of every record taken
	// feed is the context of the source being added (see feedContext); readings and
	// readingOrder collect its places' readings for its report (nil: not collected).
	feed         places.Context
	hint         *VenueHint // the operator's hint for the source being added (hintcity.go)
	readings     map[string]*PlaceReading
	readingOrder []string
	log          *slog.Logger // where disagreements of sources are told; nil: nowhere

	// orders are the events of the source being added whose places restate read in
	// another order than venue first, and the order (see placeorder.go).
	orders map[*source.Event]string
}

// newNormalizer returns a normalizer for about size records.
func newNormalizer(now time.Time, size int) *normalizer {
	return &normalizer{now: now, recs: make([]record, 0, size), venueKeys: map[string]int32{}, venueStreets: map[string][]streetAt{}, near: map[string][]int32{},
		places: places.Default(), cities: map[string]*places.City{}, seen: map[string]bool{}}
}

// add normalizes one event of source src into a record, or says why it cannot. A record
// its source already gave (same ref; for a record known only by its position on the page,
// same title, start and venue) is skipped without error: pages repeat events.
func (n *normalizer) add(ev *source.Event, src int, role Role) error {
	scrub(ev)
	title := clean(ev.Title)
	switch {
	case clean(ev.Venue.Name) == "":
		return fmt.Errorf("venue without a name")
	case title == "":
		return fmt.Errorf("no title")
	case ev.Start.IsZero():
		return fmt.Errorf("no start")
	}
	if k := notMusic(ev.Kinds); k != "" && !(stageKind(k) && titleNamesConcert(title)) {
		return fmt.Errorf("not music: the source classifies it as %q", k)
	}
	if k := titleKind(title); k != "" && len(ev.Kinds) == 0 {
		return fmt.Errorf("not music: its title names it a %q", k) // titlekind.go
	}
	city, reading, err := n.placeEvent(ev)
	if err != nil {
		return err
	}
	n.checkGeo(&ev.Venue, city)
	if placeholder(ev, city.Location) {
		local, _ := instant(ev.Start, city.Location)
		y, m, d := local.Date()
		ev.Start = source.When{Wall: time.Date(y, m, d, 0, 0, 0, 0, time.UTC), DateOnly: true}
	}
	start, tba := instant(ev.Start, city.Location)
	if start.Sub(n.now) > horizon {
		return fmt.Errorf("start %s is more than two years ahead", start.Format(time.DateOnly))
	}
	seenKey := fmt.Sprint(src) + "\x00" + ev.Ref
	if ev.Positional {
		// A record known only by its place on the page is the same record as another of
		// the page with its title, start and venue: pages repeat events (a list and a
		// "featured" box, JSON-LD and microdata of one event).
		seenKey = fmt.Sprint(src) + "\x00" + strings.ToLower(title) + "\x00" + start.UTC().Format(time.RFC3339) + "\x00" + venueKey(ev.Venue.Name, city.Name)
	}
	if ev.Ref != "" && n.seen[seenKey] {
		return nil
	}
	n.seen[seenKey] = true
	r := record{ev: ev, src: int32(src), role: role, city: city, start: start, tba: tba, day: localDay(start), stable: !ev.Positional}
	if !ev.PreviousStart.IsZero() {
		r.prev, _ = instant(ev.PreviousStart, city.Location)
	}
	r.keys[1] = titleKey(title, ev.Venue.Name, city.Name)
	if !ev.ActsOnly {
		ev.Performers = lineup(ev.Performers, title)
	}
	if len(ev.Performers) > 0 {
		r.keys[0] = artistKey(ev.Performers[0].Name)
	}
	if r.keys[0] == "" {
		r.keys[0] = r.keys[1]
	}
	if r.keys[0] == "" {
		return fmt.Errorf("no name left in title %q", title)
	}
	r.tribute = isTribute(title) || len(ev.Performers) > 0 && isTribute(ev.Performers[0].Name)
	r.venue = n.venue(ev.Venue, city, role)
	n.recs = append(n.recs, r)
	n.notePlace(ev.Venue, reading)
	return nil
}

// home returns the test of whether an event of a venue site is at the site's own venue:
// the venue of the operator's hint, in the hint's city when it names one the gazetteer can
// place, else in the city most of the events at the hint's name are in. Venues are told
// apart by city and name key, so a hint's name alone never makes a namesake in another city
// home. A site whose hint names no venue speaks for none: which venue a site is, is the
// operator's word, never the site's own (a hostile site listing its forgeries at another
// venue would otherwise be that venue's).
func (n *normalizer) home(events []source.Event, hint *VenueHint) func(*source.Event) bool {
	if hint == nil || hint.Name == "" {
		return func(*source.Event) bool { return false }
	}
	hp := source.Place{Name: hint.Name, Locality: hint.City, Country: hint.Country, Zone: hint.Zone}
	if want := n.venueIdentity(hp); want != "" {
		return func(ev *source.Event) bool { return n.venueIdentity(ev.Venue) == want }
	}
	counts := map[string]int{}
	best, most := "", 0
	for i := range events {
		k := n.venueIdentity(events[i].Venue)
		if k == "" || venueKey(events[i].Venue.Name, "") != venueKey(hint.Name, "") {
			continue
		}
		if counts[k]++; counts[k] > most {
			best, most = k, counts[k]
		}
	}
	return func(ev *source.Event) bool { return best != "" && n.venueIdentity(ev.Venue) == best }
}

// venueIdentity is what tells a venue from another for home: its city's slug and its
// name key; "" when its city is unknown (such an event is dropped anyway).
func (n *normalizer) venueIdentity(p source.Place) string {
	c, _, err := n.lookupCity(p)
	if err != nil {
		return ""
	}
	return c.Slug + "\x00" + venueKey(p.Name, c.Name)
}

// addAll normalizes the events of source src (the i-th of the run), counting them in sr
// and reporting the ones it cannot use as drops. A venue site's events away from its home
// venue are guests: see RoleGuest.
func (n *normalizer) addAll(events []source.Event, i int, src Source, sr *SourceReport) {
	n.orders = map[*source.Event]string{}
	for j := range events {
		scrub(&events[j]) // before home compares names
		if by := n.restate(&events[j].Venue); by != "" {
			n.orders[&events[j]] = by // before the feed's context is read from its places
		}
	}
	n.placeAlone(events) // a venue named alone, where the feed's other events place it
	n.feed, n.readings, n.readingOrder = n.feedContext(events, src), map[string]*PlaceReading{}, nil
	n.hint = src.Home
	defer func() {
		for _, k := range n.readingOrder {
			sr.Places = append(sr.Places, *n.readings[k])
		}
		n.feed, n.readings, n.readingOrder, n.orders, n.hint = places.Context{}, nil, nil, nil, nil
	}()
	atHome := func(*source.Event) bool { return true }
	if src.Role == RoleVenue {
		atHome = n.home(events, src.Home)
	}
	generic := typesMusic(events)
	for j := range events {
		role := src.Role
		if !atHome(&events[j]) {
			role = RoleGuest
		}
		if generic && onlyEvent(events[j].Kinds) {
			sr.Dropped = append(sr.Dropped, source.Drop{Ref: events[j].Ref, Line: events[j].Line,
				Reason: `not music: the source types its concerts "MusicEvent" and this only "Event"`})
			continue
		}
		if err := n.add(&events[j], i, role); err != nil {
			sr.Dropped = append(sr.Dropped, source.Drop{Ref: events[j].Ref, Line: events[j].Line, Reason: err.Error()})
			continue
		}
		sr.Events++
	}
}

// typesMusic reports whether a document types its concerts: two events or more of the
// schema.org type MusicEvent. Its events of the plain type Event are then something else.
func typesMusic(events []source.Event) bool {
	n := 0
	for i := range events {
		if slices.ContainsFunc(events[i].Kinds, func(k string) bool { return strings.EqualFold(k, "MusicEvent") }) {
			n++
		}
	}
	return n >= 2
}

// onlyEvent reports whether kinds is the plain schema.org type Event alone.
func onlyEvent(kinds []string) bool { return len(kinds) == 1 && strings.EqualFold(kinds[0], "Event") }

// localDay numbers the venue-local date of t.
func localDay(t time.Time) int32 {
	y, m, d := t.Date()
	return int32(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// placeholder reports whether an event's start time stands for "time to be announced":
// 23:59 venue-local, which no show starts at and platforms write for an unknown time; a
// start and end that span the whole day (spansDay: b-flat's 09:00–23:55); or venue-local
// midnight with a hint that the date alone is meant: an end given as a date alone or at
// midnight, or a title saying TBA or TBC.
func placeholder(ev *source.Event, loc *time.Location) bool {
	if ev.Start.DateOnly || ev.Start.IsZero() {
		return false
	}
	start, _ := instant(ev.Start, loc)
	hh, mm, ss := start.Clock()
	switch {
	case hh == 23 && mm == 59, spansDay(ev.Start, ev.End):
		return true
	case hh != 0 || mm != 0 || ss != 0:
		return false
	case ev.End.DateOnly || !ev.End.IsZero() && ev.End.Wall.Hour() == 0 && ev.End.Wall.Minute() == 0:
		return true
	}
	t := " " + strings.Join(strings.FieldsFunc(engine.Fold(ev.Title), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 0x80)
	}), " ") + " "
	for _, h := range []string{" tba ", " tbc ", " to be announced ", " to be confirmed "} {
		if strings.Contains(t, h) {
			return true
		}
	}
	return false
}

// instant places a stated time in the venue's zone, to the minute (seconds are dropped). A
// wall time that falls in a daylight saving gap moves forward by the gap, as the clocks did.
func instant(w source.When, loc *time.Location) (t time.Time, dateOnly bool) {
	y, m, d := w.Wall.Date()
	if w.DateOnly {
		return time.Date(y, m, d, 0, 0, 0, 0, loc), true
	}
	hh, mm, _ := w.Wall.Clock() // shows start on the minute: "19:00:23" is a feed's noise
	if w.HasOffset {
		return time.Date(y, m, d, hh, mm, 0, 0, time.FixedZone("", w.Offset)).In(loc), false
	}
	return time.Date(y, m, d, hh, mm, 0, 0, loc), false
}

// lookupCity places a venue in a city of the gazetteer (see places.Gazetteer.Read, in the
// context of its source and document: placeContext), or
// one made for it; one city per slug in a run. An address given on one line, in Street
// or, for a venue named by its address, in Name ("Memphis, TN, US"), with no locality
// ("100 Main St, Austin, TX 78701"), is read for its city; so is a street written as a
// postcode and a town ("4041 Linz") when the gazetteer has the town, and a town the
// venue's name ends in when its postcode confirms it (townInName), and the town that ends
// a line running street and town together (townAfterStreet).
// streetTownKm is how far from a venue's coordinates the town its street names may lie.
const streetTownKm = 50

func (n *normalizer) lookupCity(p source.Place) (*places.City, places.Reading, error) {
	q := statedPlace(p)
	locality := q.Locality
	r, err := n.places.Read(q, n.placeContext(p))
	if strings.TrimSpace(locality) == "" && places.PostcodeTown(p.Street) {
		// "Roadstar 16\n12764 Happyville\nDenmark", "Hauptstraße 1-5; 4041 Linz": the part
		// read as the street is the postcode and the town, when the gazetteer has the town
		// (a street is never made a town).
		// It never overrides coordinates it contradicts: a town more than 50 km from
		// them is another town of the street's name ("1600 Paris" in Lyon).
		q.Locality = p.Street
		if rs, errs := n.places.Read(q, n.placeContext(p)); errs == nil && !rs.Made &&
			(err != nil || !q.HasGeo || !rs.City.HasGeo || engine.DistanceKm(q.Lat, q.Lon, rs.City.Lat, rs.City.Lon) <= streetTownKm) {
			r, err = rs, nil
		}
	}
	if err != nil {
		if rs, ok := n.townInName(p); ok {
			r, err = rs, nil
		} else if rs, ok := n.inHintCity(p, err); ok {
			r, err = rs, nil
		}
	}
	if err == nil {
		if rs, ok, errs := n.townAfterStreet(p, q, r); ok {
			r, err = rs, errs
		}
	}
	if err != nil {
		return nil, r, err
	}
	if known := n.cities[r.City.Slug]; known != nil {
		r.City = known
		return known, r, nil
	}
	n.cities[r.City.Slug] = r.City
	return r.City, r, nil
}

// farFromCity is how far from its city a venue's coordinates may be before they are taken
// for wrong.
const farFromCity = 300e3 // metres

// checkGeo puts right coordinates written longitude first, and drops coordinates that
// are far from the venue's city: they would put the venue on a map where it is not.
func (n *normalizer) checkGeo(p *source.Place, c *places.City) {
	near := func() bool { return !c.HasGeo || places.Distance(p.Lat, p.Lon, c.Lat, c.Lon)*1e3 <= farFromCity }
	if !p.HasGeo || near() {
		return
	}
	if n.places.SwappedGeo(p.Lat, p.Lon, c.Country) {
		p.Lat, p.Lon = p.Lon, p.Lat
	}
	if !near() {
		p.Lat, p.Lon, p.HasGeo = 0, 0, false
	}
}

// nearby is how close two venues of one city must be for names that agree in part to be
// one venue's.
const nearby = 150 // metres

// venue returns the index of the venue p names in city c, adding it when new. Two names
// are one venue when their keys are equal; when they differ, when the addresses agree (the
// same street and number, see streetKey) or the venues stand within nearby metres, as
// joins allows ("Electric Ballroom" and "The Electric" at one street, "Roundhouse" and
// "Roundhouse Camden" side by side). Coordinates alone never make one venue of two: a
// building holds several.
func (n *normalizer) venue(p source.Place, c *places.City, role Role) int32 {
	name := venueKey(p.Name, c.Name)
	k := c.Slug + "\x00" + name
	i, ok := n.venueKeys[k]
	byKey := ok
	street := streetKey(p.Street)
	if !ok && street != "" {
		// The first venue there it joins, or better the first whose name agrees in part.
		for _, at := range n.venueStreets[c.Slug+"\x00"+street] {
			if n.joins(role, name, at.venue, at.platform) && (!ok || wordRun(name, n.venues[at.venue].key)) {
				i, ok = at.venue, true
				if wordRun(name, n.venues[i].key) {
					break
				}
			}
		}
	}
	if !ok && p.HasGeo {
		for _, j := range n.near[c.Slug] {
			v := &n.venues[j]
			if places.Distance(p.Lat, p.Lon, v.place.Lat, v.place.Lon)*1e3 <= nearby && n.joins(role, name, j, false) {
				i, ok = j, true
				break
			}
		}
	}
	created := !ok
	if created {
		i = int32(len(n.venues))
		n.venues = append(n.venues, venueEntry{city: c, name: clean(p.Name), key: name, role: role, place: p})
		if p.HasGeo {
			n.near[c.Slug] = append(n.near[c.Slug], i)
		}
	}
	if !byKey && (created || role != RoleGuest) {
		// The name leads here from now on; not a guest's for a venue it joined, or the site
		// of that name would find that venue by it without joins' leave.
		n.venueKeys[k] = i
	}
	platform := role == RolePrimary || role == RolePlatform
	n.venues[i].platform = n.venues[i].platform || platform
	if k := c.Slug + "\x00" + street; street != "" {
		ats := n.venueStreets[k]
		if j := slices.IndexFunc(ats, func(at streetAt) bool { return at.venue == i }); j < 0 {
			n.venueStreets[k] = append(ats, streetAt{i, platform})
		} else {
			ats[j].platform = ats[j].platform || platform
		}
	}
	v := &n.venues[i]
	if role < v.role {
		// A more authoritative source names the venue; facts it lacks stay, unless a guest
		// gave them: a guest describes no venue another role names.
		old, oldRole := v.place, v.role
		v.name, v.key, v.role, v.place = clean(p.Name), name, role, p
		if oldRole != RoleGuest {
			fill(&v.place.Street, old.Street)
			fill(&v.place.PostalCode, old.PostalCode)
			fill(&v.place.URL, old.URL)
			if !p.HasGeo && old.HasGeo {
				v.place.Lat, v.place.Lon, v.place.HasGeo = old.Lat, old.Lon, true
			}
		}
	}
	return i
}

// guestVenues names each venue that only guests list as its leading guest record does
// (see guestRank), so that no site's description of it wins by being read first.
func (n *normalizer) guestVenues(rank func(a, b int32) int) {
	lead := map[int32]int32{} // venue → its leading record
	for i := range n.recs {
		v := n.recs[i].venue
		if n.venues[v].role != RoleGuest {
			continue
		}
		if l, ok := lead[v]; !ok || rank(int32(i), l) < 0 {
			lead[v] = int32(i)
		}
	}
	for v, i := range lead {
		p := n.recs[i].ev.Venue
		n.venues[v].name, n.venues[v].place = clean(p.Name), p
	}
}

// joins reports whether a record of role, naming its venue name (a key), is at venue j,
// whose name differs, which it meets at a street (vouched: a platform's record gave j that
// street) or within nearby metres (vouched false). A street or coordinates are only what a
// document says, so a venue site never speaks for a venue by giving its street or its
// coordinates: a venue site's own record joins a venue only when its own name is a run of
// the other's words ("The Garage" and "Garage Highbury"; never "Garage Bar" and "The
// Garage"), and so does a venue a venue site named, unless a platform gave it that street.
// Otherwise a street a platform gave is enough, and nearness takes names that agree in part.
func (n *normalizer) joins(role Role, name string, j int32, vouched bool) bool {
	v := &n.venues[j]
	switch {
	case role == RoleVenue:
		return v.role != RoleVenue && wordRunIn(name, v.key)
	case v.role == RoleVenue && (!v.platform || !vouched):
		// Its name, street and coordinates may all be a site's word alone.
		return wordRunIn(v.key, name)
	}
	return vouched || wordRun(name, v.key)
}

// wordRunIn reports whether a is a run of whole words of b.
func wordRunIn(a, b string) bool {
	return a != "" && strings.Contains(" "+b+" ", " "+a+" ")
}

// wordRun reports whether the shorter of two keys is a run of whole words of the longer.
func wordRun(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	return wordRunIn(a, b)
}

// streetWords are the spellings of street types folded to one: "Chalk Farm Road" and
// "Chalk Farm Rd." are one street.
var streetWords = map[string]string{
	"road": "rd", "street": "st", "avenue": "ave", "av": "ave", "boulevard": "blvd", "drive": "dr",
	"lane": "ln", "place": "pl", "square": "sq", "terrace": "ter", "highway": "hwy", "court": "ct",
	"parkway": "pkwy", "north": "n", "south": "s", "east": "e", "west": "w",
	"strasse": "str", "straat": "str", "platz": "pl",
}

// streetKey returns the key of a street address that names a house number: folded, its
// punctuation gone, street types abbreviated as above, "Hauptstr." and "Hauptstrasse"
// alike. An address without a number names no building and has no key.
func streetKey(street string) string {
	words := strings.FieldsFunc(engine.Fold(street), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 0x80)
	})
	number := false
	for i, w := range words {
		if short, ok := streetWords[w]; ok {
			words[i] = short
		} else if strings.HasSuffix(w, "strasse") || strings.HasSuffix(w, "str") {
			words[i] = strings.TrimSuffix(strings.TrimSuffix(w, "asse"), "str") + "str"
		}
		if w[0] >= '0' && w[0] <= '9' {
			number = true
		}
	}
	if !number || len(words) < 2 {
		return ""
	}
	return strings.Join(words, " ")
}

func fill(dst *string, s string) {
	if *dst == "" {
		*dst = s
	}
}

// contentKey names a gig by venue slug, venue-local date and time, and headliner key: how
// a gig is known when no source ref is.
func contentKey(venue string, local time.Time, tba bool, headliner string) string {
	clock := local.Format("15:04")
	if tba {
		clock = "tba"
	}
	return venue + "\x00" + local.Format(time.DateOnly) + "\x00" + clock + "\x00" + headliner
}

func sameTicket(a, b engine.Ticket) bool {
	price := func(p *float64) float64 {
		if p == nil {
			return -1
		}
		return *p
	}
	return a.URL == b.URL && a.Source == b.Source && a.Currency == b.Currency && a.Availability == b.Availability &&
		price(a.PriceMin) == price(b.PriceMin) && price(a.PriceMax) == price(b.PriceMax)
}

// scrub removes invisible characters from every text of ev a client may be shown and
// repairs text read in the wrong charset, in place (again harmlessly): see visible and
// demojibake.
func scrub(ev *source.Event) {
	for _, p := range []*string{&ev.Title, &ev.Venue.Name, &ev.Venue.Street, &ev.Venue.Locality, &ev.Venue.Region,
		&ev.Venue.PostalCode, &ev.Venue.Country} {
		*p = demojibake(visible(*p))
	}
	for _, p := range []*string{&ev.URL, &ev.Venue.Zone, &ev.Venue.URL, &ev.Image} {
		*p = visible(*p)
	}
	for i := range ev.Performers {
		ev.Performers[i].Name = demojibake(visible(ev.Performers[i].Name))
		scrubAll(ev.Performers[i].Genres)
	}
	for i := range ev.Offers {
		o := &ev.Offers[i]
		o.URL, o.Currency, o.Availability = visible(o.URL), visible(o.Currency), visible(o.Availability)
	}
	scrubAll(ev.Genres)
}

func scrubAll(list []string) {
	for i := range list {
		list[i] = demojibake(visible(list[i]))
	}
}

// visible returns s without format characters (Unicode Cf: bidi embeddings, overrides and
// isolates U+202A-U+202E and U+2066-U+2069, zero-width characters U+200B-U+200F, a BOM
// inside text, soft hyphens, tags) and control characters other than white space, so a
// listing cannot reorder or hide text in a client's display to pass for another. It
// returns s itself when there are none.
func visible(s string) string {
	if strings.IndexFunc(s, invisible) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if invisible(r) {
			return -1
		}
		return r
	}, s)
}

func invisible(r rune) bool {
	return unicode.Is(unicode.Cf, r) || unicode.IsControl(r) && !unicode.IsSpace(r)
}

// clean collapses white space and trims a name.
func clean(s string) string { return strings.Join(strings.Fields(s), " ") }
