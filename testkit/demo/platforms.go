package demo

import (
	"cmp"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/platform"
	"github.com/gigs/gigs/testkit/emulator"
)

// platformDef is one ticketing platform of the corpus.
type platformDef struct {
	name    string // the source name
	kind    platform.Kind
	host    string // the API's host, served by the platform emulator
	url     string // the events endpoint
	env     string // the variable demo.env sets to the platform's credential
	primary bool   // its cancellations win over a venue's stale "scheduled"
}

// The platforms, by index into platformDefs.
const (
	tixhub = iota
	gigseek
	evently
	fanlist
	scenekick
	platformCount
)

var platformDefs = [platformCount]platformDef{
	tixhub:    {name: "tixhub", kind: platform.KindHAL, host: "api.tixhub.test", url: "http://api.tixhub.test/discovery/v2/events.json", env: "GIGS_TIXHUB_KEY", primary: true},
	gigseek:   {name: "gigseek", kind: platform.KindMeta, host: "api.gigseek.test", url: "http://api.gigseek.test/2/events", env: "GIGS_GIGSEEK_CLIENT_ID"},
	evently:   {name: "evently", kind: platform.KindContinuation, host: "www.evently.test", url: "http://www.evently.test/v3/events/search/", env: "GIGS_EVENTLY_TOKEN"},
	fanlist:   {name: "fanlist", kind: platform.KindBandsintown, host: "rest.fanlist.test", url: "http://rest.fanlist.test/artists/{artist}/events", env: "GIGS_FANLIST_APP_ID"},
	scenekick: {name: "scenekick", kind: platform.KindSongkick, host: "api.scenekick.test", url: "http://api.scenekick.test/api/3.0/metro_areas/1/calendar.json", env: "GIGS_SCENEKICK_KEY"},
}

// The fan platforms list some of the listed gigs too: scenekick one in fanShare of them,
// fanlist the shows of the fanArtists most popular acts (it is read one artist at a time).
const (
	fanShare   = 5
	fanArtists = 16
)

// changedPlatform is the platform whose listings revision 1 changes.
const changedPlatform = gigseek

// listing is one gig as one platform lists it.
type listing struct {
	p int // index into platformDefs
	l emulator.Listing
}

// platformVenue is a venue as one platform names and places it, the same on all its listings.
type platformVenue struct {
	id, name, city, street, postal string
	lat, lon                       float64
}

// Platform sets a listed gig can get, with relative weights: tixhub alone most often.
var (
	platformSets = [][]int{{tixhub}, {gigseek}, {evently}, {tixhub, gigseek}, {tixhub, evently}, {gigseek, evently}, {tixhub, gigseek, evently}}
	setWeights   = []int{30, 15, 15, 15, 10, 5, 10}
)

// Counts of the hand-made platform cases.
const (
	earlyLatePairs    = 4 // early and late shows listed under one title
	staleVenueDates   = 4 // the primary platform has moved a show the venue still lists on its old date
	primaryCancelOnly = 4 // the primary platform has cancelled a show the venue still lists
)

// listPlatforms puts about a third of the upcoming gigs venue sites list on one to three
// platforms, favouring popular acts and busy venues, plus every gig that must be listed:
// the hand-made cases and the upcoming shows no site lists. Past shows are never listed.
func (c *corpus) listPlatforms(r *rand.Rand) {
	c.pvenues = map[[2]string]*platformVenue{}
	c.ids = map[[2]string]bool{}
	var pairs []*gig
	for _, v := range c.venues {
		for _, g := range v.gigs {
			if g.partner != nil && g.partner.start.After(g.start) && g.onPage && g.partner.onPage && dayIndex(c.today, g.start) >= 0 {
				pairs = append(pairs, g)
			}
		}
	}
	for _, g := range shuffled(r, pairs)[:min(earlyLatePairs, len(pairs))] {
		g.listed, g.partner.listed = true, true
	}
	type keyed struct {
		g   *gig
		key float64
	}
	var pool []keyed
	var chosen []*gig
	onPage := 0
	for _, v := range c.venues {
		for _, g := range v.gigs {
			if dayIndex(c.today, g.start) < 0 {
				continue
			}
			if g.onPage {
				onPage++
			}
			if g.listed || !g.onPage {
				chosen = append(chosen, g)
				continue
			}
			w := 1 + 3/(1+float64(g.acts[0].rank)/25) + [...]float64{tiny: 0, small: 0.3, mid: 0.6, big: 1}[v.size]
			if g.series != nil {
				w = 0.3
			}
			pool = append(pool, keyed{g, r.ExpFloat64() / w})
		}
	}
	slices.SortStableFunc(pool, func(a, b keyed) int { return cmp.Compare(a.key, b.key) })
	want := int(math.Round(float64(onPage) / 3))
	n := 0 // chosen gigs on pages
	for _, g := range chosen {
		if g.onPage {
			n++
		}
	}
	for _, k := range pool {
		if n >= want {
			break
		}
		if k.g.listed {
			continue // taken as a partner
		}
		k.g.listed = true
		chosen = append(chosen, k.g)
		n++
		if p := k.g.partner; p != nil && !p.listed && p.onPage && dayIndex(c.today, p.start) >= 0 {
			p.listed = true
			chosen = append(chosen, p)
			n++
		}
	}
	slices.SortStableFunc(chosen, func(a, b *gig) int {
		return cmp.Or(cmp.Compare(a.venue.index, b.venue.index), a.start.Compare(b.start))
	})

	special := map[*gig]string{} // lookups only
	var plain []*gig
	for _, g := range chosen {
		if g.status == scheduled && g.partner == nil && g.series == nil && !g.dateOnly && !g.misdated && g.name == "" && g.onPage {
			plain = append(plain, g)
		}
	}
	plain = shuffled(r, plain)
	for i, g := range plain[:min(len(plain), staleVenueDates+primaryCancelOnly)] {
		special[g] = []string{"moved", "cancelled"}[min(i/staleVenueDates, 1)]
	}
	sets := map[*gig][]int{} // lookups only
	for _, g := range chosen {
		set := pickWeighted(r, platformSets, setWeights)
		switch {
		case special[g] != "":
			set = []int{tixhub, 1 + r.IntN(2)} // the primary and one other that disagrees
		case g.partner != nil && sets[g.partner] != nil:
			set = sets[g.partner]
		}
		sets[g] = set
		for _, p := range set {
			c.addListing(r, p, g, special[g])
		}
	}
	// The fan platforms draw from their own stream, so the others' listings stay as they
	// were before there were fan platforms. They list scheduled shows only.
	fan := rand.New(rand.NewPCG(c.hash("fan platforms"), 0))
	for _, g := range chosen {
		if g.status != scheduled || special[g] != "" {
			continue
		}
		if g.acts[0].rank < fanArtists {
			c.addListing(fan, fanlist, g, "")
		}
		if fan.IntN(fanShare) == 0 {
			c.addListing(fan, scenekick, g, "")
		}
	}
}

// listedArtists returns the headliners of platform p's listings, sorted: the artists a
// per-artist platform is read for.
func (c *corpus) listedArtists(p int) []string {
	var out []string
	for _, l := range c.platformListings(p) {
		out = append(out, l.Performers[0])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// addListing lists g on platform p with the variation real platforms show. special forces a
// case: "moved" (the platform has a new date the venue lacks), "cancelled" (the primary
// platform has cancelled it).
func (c *corpus) addListing(r *rand.Rand, p int, g *gig, special string) *listing {
	v := g.venue
	pv := c.platformVenue(r, p, v)
	l := emulator.Listing{
		ID:         c.listingID(p, g),
		Genres:     platformGenres(p, g.acts[0]),
		VenueID:    pv.id,
		VenueName:  pv.name,
		Street:     pv.street,
		City:       pv.city,
		PostalCode: pv.postal,
		Country:    v.city.country,
		Lat:        pv.lat,
		Lon:        pv.lon,
		Zone:       v.loc.String(),
		Status:     "scheduled",
	}
	for _, a := range g.acts {
		l.Performers, l.MBIDs = append(l.Performers, a.name), append(l.MBIDs, a.mbid())
	}
	if len(l.Performers) > 1 && r.IntN(10) < 3 {
		l.Performers, l.MBIDs = l.Performers[:1], l.MBIDs[:1] // support acts missing
	}
	l.Name = platformTitle(r, p, g)
	start := g.start
	switch g.status {
	case cancelled:
		if r.IntN(2) == 0 {
			l.Status = "cancelled"
		}
	case postponed:
		if r.IntN(2) == 0 {
			l.Status = "postponed"
		}
	case rescheduled:
		if r.IntN(5) < 3 && dayIndex(c.today, g.previous) >= 0 {
			start = g.previous // not updated yet
		} else {
			l.Status = "rescheduled"
		}
	}
	switch {
	case special == "moved" && p == tixhub:
		start = start.AddDate(0, 0, 7+r.IntN(22))
		l.Status = "rescheduled"
	case special == "cancelled" && p == tixhub:
		l.Status = "cancelled"
	}
	c.setWhen(r, p, &l, g, start)
	c.setPrice(r, &l, g)
	l.URL = listingURL(p, l)
	c.setExtras(&l, g)
	li := &listing{p: p, l: l}
	g.listings = append(g.listings, li)
	return li
}

// setWhen sets a listing's date and time from start: mostly the venue's time, sometimes the
// doors time, no time, or an after-midnight show dated to the evening before. evently and
// fanlist always state a time (their feeds cannot say "to be announced").
func (c *corpus) setWhen(r *rand.Rand, p int, l *emulator.Listing, g *gig, start time.Time) {
	l.LocalDate, l.LocalTime, l.TimeTBA = start.Format(dateLayout), start.Format("15:04:05"), false
	if g.dateOnly {
		if r.IntN(10) < 3 || p == evently || p == fanlist { // the platform knows the time the venue has not announced
			t := c.at(g.venue, dayIndex(c.today, start), g.venue.style.usual)
			l.LocalTime = t.Format("15:04:05")
			return
		}
		l.LocalTime, l.TimeTBA = "", true
		return
	}
	x := r.IntN(100)
	switch {
	case start.Hour() < 2 && x < 50: // an after-midnight show dated to the evening before
		prev := start.AddDate(0, 0, -1)
		l.LocalDate = prev.Format(dateLayout)
		if x < 25 {
			l.LocalTime = "23:30:00"
		}
	case x < 12: // the doors time
		doors := g.doors
		if doors.IsZero() || !doors.Before(g.start) {
			doors = g.start.Add(-time.Duration(30+15*r.IntN(3)) * time.Minute)
		}
		doors = doors.Add(start.Sub(g.start))
		l.LocalDate, l.LocalTime = doors.Format(dateLayout), doors.Format("15:04:05")
	case x < 18 && p != evently && p != fanlist:
		l.LocalTime, l.TimeTBA = "", true
	}
}

// setExtras sets what some listings state besides: a picture, when public sales opened and
// an age limit. They come from a hash of the listing, not the random stream, so the rest of
// the corpus is as it was before listings stated them.
func (c *corpus) setExtras(l *emulator.Listing, g *gig) {
	h := c.hash("extras", l.ID)
	if h%3 != 0 {
		return
	}
	l.Image = "http://img.demo.test/" + engine.Slugify(g.acts[0].name) + ".jpg"
	days := 30 + int(h/3%60)
	on := g.start.AddDate(0, 0, -days)
	l.OnSale = time.Date(on.Year(), on.Month(), on.Day(), 10, 0, 0, 0, on.Location()).Format(time.RFC3339)
	switch h / 180 % 4 {
	case 0:
		l.MinAge = "18+"
	case 1:
		l.MinAge = "All Ages"
	}
}

// setPrice sets a listing's prices: the venue's plus a booking fee, or its own when the
// venue states none.
func (c *corpus) setPrice(r *rand.Rand, l *emulator.Listing, g *gig) {
	co := countries[g.venue.city.country]
	l.Currency = co.currency
	t := g.tickets
	if t == nil {
		if r.IntN(10) < 3 {
			return
		}
		low := math.Max(co.step, math.Round(12*(1+r.Float64())*co.perEuro/co.step)*co.step)
		t = &tickets{low: low, high: low}
	}
	fee := 1 + 0.08 + 0.04*r.Float64()
	l.PriceMin = math.Round(t.low*fee*100) / 100
	l.PriceMax = math.Round(t.high*fee*100) / 100
	l.HasPrice = true
	l.SoldOut = t.avail == soldOut
}

// platformTitle names a gig as a platform does: by its headliner mostly, sometimes as the
// venue does, and then often with a variant spelling.
func platformTitle(r *rand.Rand, p int, g *gig) string {
	head := g.acts[0].name
	t := head
	switch x := r.IntN(100); {
	case g.name != "":
		t = g.name
	case x < 15 && len(g.acts) > 1:
		t = head + " with " + g.acts[1].name
	case x < 35:
		t = title(g)
	}
	if g.label != "" && r.IntN(2) == 0 { // else both shows of the night carry one title
		t += pick(r, []string{" (" + g.label + ")", " – " + g.label})
	}
	if r.IntN(100) >= 45 {
		return t
	}
	switch pick(r, []string{"sold out", "dj set", "live", "the", "and", "feat", "accents", "upper", "tour"}) {
	case "sold out":
		if g.tickets != nil && g.tickets.avail == soldOut {
			return "SOLD OUT: " + t
		}
	case "dj set":
		if g.acts[0].person || g.kind == clubNight {
			return t + " (DJ set)"
		}
	case "live":
		return t + pick(r, []string{" – Live", " Live", " (Live)"})
	case "the":
		if rest, ok := strings.CutPrefix(t, "The "); ok {
			return rest
		}
		if g.name == "" && t == head {
			return "The " + t
		}
	case "and":
		switch {
		case strings.Contains(t, " & "):
			return strings.Replace(t, " & ", " and ", 1)
		case strings.Contains(t, " and "):
			return strings.Replace(t, " and ", " & ", 1)
		}
	case "feat":
		if len(g.acts) > 1 && g.name == "" {
			return head + " feat. " + g.acts[1].name
		}
	case "accents":
		if !isASCII(t) {
			return stripAccents(t)
		}
	case "upper":
		return strings.ToUpper(t)
	case "tour":
		if g.acts[0].tour != "" && g.name == "" {
			return head + pick(r, []string{": World Tour " + strconv.Itoa(g.start.Year()+1), ": " + g.acts[0].tour, " – " + g.acts[0].tour})
		}
	}
	return t
}

// stripAccents drops accents and writes the letters that do not decompose in ASCII, keeping
// case: "Sigur Rós" → "Sigur Ros", "Bjørn" → "Bjorn".
func stripAccents(s string) string {
	var b strings.Builder
	for _, c := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, c):
		case c == 'ø':
			b.WriteByte('o')
		case c == 'Ø':
			b.WriteByte('O')
		case c == 'æ':
			b.WriteString("ae")
		case c == 'ß':
			b.WriteString("ss")
		case c == 'ł':
			b.WriteByte('l')
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// platformGenres is how a platform classifies an act's main genre.
func platformGenres(p int, a *artist) []string {
	g := genres[a.genres[0]].spellings[0]
	switch p {
	case tixhub:
		return []string{"Music", g}
	case gigseek:
		return []string{"concert", strings.ToLower(strings.ReplaceAll(g, "-", " "))}
	}
	return []string{"Music", "Music/" + g}
}

// platformVenue returns how platform p names and places v, made on first use.
func (c *corpus) platformVenue(r *rand.Rand, p int, v *venue) *platformVenue {
	k := [2]string{platformDefs[p].name, v.key}
	if pv := c.pvenues[k]; pv != nil {
		return pv
	}
	h := c.hash("venue", k[0], k[1])
	pv := &platformVenue{name: v.name, city: v.city.name, street: v.street, postal: v.postal}
	switch p {
	case tixhub:
		pv.id = "KovZ" + base62(h, 8)
	case gigseek:
		pv.id = strconv.FormatUint(1000+h%899000, 10)
	default:
		pv.id = strconv.FormatUint(10000000+h%89999999, 10)
	}
	switch x := r.IntN(100); {
	case x < 12:
		if rest, ok := strings.CutPrefix(v.name, "The "); ok {
			pv.name = rest
		} else {
			pv.name = "The " + v.name
		}
	case x < 24:
		pv.name = v.name + " " + v.city.name
	case x < 30:
		pv.name = v.name + " (" + v.city.name + ")"
	case x < 36:
		pv.name = stripAccents(v.name)
	}
	if len(v.city.aka) > 0 && r.IntN(5) == 0 {
		pv.city = pick(r, v.city.aka)
	}
	if p == evently && r.IntN(3) == 0 {
		pv.street, pv.postal = "", ""
	}
	digits := []float64{1e3, 1e4, 1e6, 1e6, 1e7}[p]
	pv.lat = math.Round((v.lat+(r.Float64()-0.5)*0.0006)*digits) / digits
	pv.lon = math.Round((v.lon+(r.Float64()-0.5)*0.0006)*digits) / digits
	c.pvenues[k] = pv
	return pv
}

// listingID returns the id platform p gives g's listing: derived from the seed and the
// concert, so it stays the same across revisions, and unique on the platform.
func (c *corpus) listingID(p int, g *gig) string {
	name := platformDefs[p].name
	for salt := 0; ; salt++ {
		h := c.hash("listing", name, strconv.Itoa(g.concert), strconv.Itoa(salt))
		var id string
		switch p {
		case tixhub:
			id = "G5v" + base62(h, 14)
		case gigseek:
			id = strconv.FormatUint(10000000+h%90000000, 10)
		default:
			id = strconv.FormatUint(100000000000+h%900000000000, 10)
		}
		if k := [2]string{name, id}; !c.ids[k] {
			c.ids[k] = true
			return id
		}
	}
}

// listingURL returns a listing's page on its platform.
func listingURL(p int, l emulator.Listing) string {
	slug := engine.Slugify(l.Name)
	switch p {
	case tixhub:
		return "http://www.tixhub.test/" + slug + "-tickets/event/" + l.ID
	case gigseek:
		return "http://gigseek.test/" + slug + "-tickets/" + engine.Slugify(l.City) + "-" + l.LocalDate + "/concert/" + l.ID
	case fanlist:
		return "http://www.fanlist.test/e/" + l.ID
	case scenekick:
		return "http://www.scenekick.test/concerts/" + l.ID + "-" + slug
	}
	return "http://www.evently.test/e/" + slug + "-tickets-" + l.ID
}

// hash returns a 64-bit FNV-1a hash of the seed and parts.
func (c *corpus) hash(parts ...string) uint64 {
	h := fnv.New64a()
	h.Write(strconv.AppendUint(nil, c.opt.Seed, 10))
	for _, p := range parts {
		h.Write([]byte{0})
		h.Write([]byte(p))
	}
	return h.Sum64()
}

// base62 writes n base-62 digits drawn from h with SplitMix64 steps.
func base62(h uint64, n int) string {
	const digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	b := make([]byte, n)
	for i := range b {
		h += 0x9e3779b97f4a7c15
		z := (h ^ h>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		b[i] = digits[(z^z>>31)%62]
	}
	return string(b)
}

// platformListings returns platform p's listings sorted by local date, time and id.
func (c *corpus) platformListings(p int) []emulator.Listing {
	var out []emulator.Listing
	for _, v := range c.venues {
		for _, g := range v.gigs {
			for _, l := range g.listings {
				if l.p == p {
					out = append(out, l.l)
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b emulator.Listing) int {
		return cmp.Or(strings.Compare(a.LocalDate, b.LocalDate), strings.Compare(a.LocalTime, b.LocalTime), strings.Compare(a.ID, b.ID))
	})
	return out
}
