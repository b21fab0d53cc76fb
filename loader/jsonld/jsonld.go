package jsonld

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gigs/gigs/loader/schemaorg"
	"github.com/gigs/gigs/loader/source"
)

// Parse extracts every schema.org event from the JSON-LD blocks of one HTML page.
// ref names the page (its URL) in Event.Ref, Event.Source is left empty for the caller,
// and in Drop.Ref. It never panics, on any input.
//
// Events come in document order. An event's Ref is its "@id", resolved against ref when ref
// is an absolute URL, or else ref + "#" + its 1-based position among the page's events;
// its Line is the line of the event object's "{". Drops come in line order.
func Parse(page []byte, ref string) ([]source.Event, []source.Drop) {
	p := newParser(ref)
	var roots []any
	for _, b := range scripts(page) {
		d := decode(b)
		if d.err != nil {
			p.drop(b.line, d.reason())
		}
		if d.deep {
			p.drop(b.line, fmt.Sprintf("json-ld nested deeper than %d levels: the deeper values are ignored", maxDepth))
		}
		roots = append(roots, d.vals...)
	}
	for _, v := range roots {
		p.index(v)
	}
	for _, v := range roots {
		p.walk(v)
	}
	slices.SortStableFunc(p.drops, func(a, b source.Drop) int { return cmp.Compare(a.Line, b.Line) })
	return p.events, p.drops
}

// parser holds the state of one Parse call.
type parser struct {
	ref  string
	base *url.URL           // ref as an absolute URL, or nil
	ids  map[string]*object // nodes by "@id", to resolve references
	n    int                // events met so far, dropped ones included
	full bool               // schemaorg.MaxEvents was reached
	act  *object            // the performer whose "event" list is being read, or nil
	// parent is the index in events of the event whose sub-events are being read, or -1.
	parent int

	// What was read from a node, kept so that a node referenced by many events is read
	// once and the work stays linear in the page.
	places      map[*object]source.Place
	performerOf map[*object]source.Performer
	offersOf    map[*object][]source.Offer

	events []source.Event
	drops  []source.Drop
}

func newParser(ref string) *parser {
	return &parser{
		ref:         ref,
		base:        schemaorg.Base(ref),
		parent:      -1,
		ids:         map[string]*object{},
		places:      map[*object]source.Place{},
		performerOf: map[*object]source.Performer{},
		offersOf:    map[*object][]source.Offer{},
	}
}

func (p *parser) drop(line int, reason string) {
	p.drops = append(p.drops, source.Drop{Ref: p.ref, Line: line, Reason: reason})
}

// index records every node that has an "@id" and says more than that, so that references
// to it elsewhere on the page can be resolved. The first such node wins.
func (p *parser) index(v any) {
	switch v := v.(type) {
	case []any:
		for _, x := range v {
			p.index(x)
		}
	case *object:
		if id, ok := v.get("@id").(string); ok && len(v.keys) > 1 && p.ids[id] == nil {
			p.ids[id] = v
		}
		for _, x := range v.vals {
			p.index(x)
		}
	}
}

// deref returns the node that a reference {"@id": ...} points to, or v itself.
func (p *parser) deref(v any) any {
	if o, ok := v.(*object); ok && isRef(o) {
		if id, ok := o.vals[0].(string); ok && p.ids[id] != nil {
			return p.ids[id]
		}
	}
	return v
}

// isRef reports whether o only refers to a node: {"@id": ...}.
func isRef(o *object) bool { return len(o.keys) == 1 && o.keys[0] == "@id" }

// walk reads the events in v and below, in document order. Inside an event only its
// sub-events are looked at. The tree is at most maxDepth deep, which bounds the recursion.
func (p *parser) walk(v any) {
	if p.full {
		return
	}
	switch v := v.(type) {
	case []any:
		for _, x := range v {
			p.walk(x)
		}
	case *object:
		if !isEvent(v) {
			act := p.act
			if isAct(v) {
				p.act = v // its events are its own shows (see event)
			}
			for _, x := range v.vals {
				p.walk(x)
			}
			p.act = act
			return
		}
		at, parent := len(p.events), p.parent
		p.event(v)
		p.parent = -1
		if len(p.events) > at {
			p.parent = at
		}
		p.walk(v.get("subEvent"))
		p.walk(v.get("subEvents"))
		p.parent = parent
	}
}

func isEvent(o *object) bool {
	return slices.ContainsFunc(list(o.get("@type")), func(t any) bool { return schemaorg.IsEventType(term(t)) })
}

// isAct reports whether o is a performer that may list its shows in "event" (see
// schemaorg.IsActType).
func isAct(o *object) bool {
	return slices.ContainsFunc(list(o.get("@type")), func(t any) bool { return schemaorg.IsActType(term(t)) })
}

// event reads one event object, or drops it when it lacks a name or a readable start.
func (p *parser) event(o *object) {
	if p.n == schemaorg.MaxEvents {
		p.full = true
		p.drop(o.line, fmt.Sprintf("more than %d events on the page: the rest are ignored", schemaorg.MaxEvents))
		return
	}
	p.n++
	id := schemaorg.ID(p.base, token(o.get("@id")))
	e := source.Event{
		Ref:   cmp.Or(id, p.ref+"#"+strconv.Itoa(p.n)),
		URL:   p.link(o.get("url")),
		Line:  o.line,
		Title: text(o.get("name")),
	}
	// A show an act's page lists is the act's, and takes its name when it has none.
	var act source.Performer
	if p.act != nil {
		act = p.performer(p.act)
		e.Title = cmp.Or(e.Title, act.Name)
	}
	dates := schemaorg.Dates{
		Start:         token(o.get("startDate")),
		End:           token(o.get("endDate")),
		Doors:         token(o.get("doorTime")),
		PreviousStart: token(o.get("previousStartDate")),
	}
	if reason := schemaorg.SetDates(&e, dates, id, p.n); reason != "" {
		p.drop(o.line, reason)
		return
	}
	e.Status = schemaorg.Status(str(o.get("eventStatus")))
	e.Venue = p.location(o.get("location"))
	e.Performers = p.performers(o)
	if act.Name != "" && len(e.Performers) == 0 {
		e.Performers = []source.Performer{{Name: act.Name, Genres: slices.Clone(act.Genres), MBID: act.MBID}}
	}
	e.Offers = schemaorg.SoldOut(token(o.get("remainingAttendeeCapacity")), p.offers(o.get("offers")), e.URL)
	e.Genres = genres(o.get("genre"))
	e.Image = p.image(o.get("image"))
	e.MinAge, e.HasMinAge = source.ParseAge(text(o.get("typicalAgeRange")))
	e.OnSale = p.onSale(o.get("offers"))
	for _, t := range list(o.get("@type")) {
		if k := schemaorg.Name(str(t)); k != "" && len(e.Kinds) < schemaorg.MaxKinds {
			e.Kinds = append(e.Kinds, k)
		}
	}
	if p.parent >= 0 && !schemaorg.SubEvent(&p.events[p.parent], &e) {
		return // its parent's own performance, listed again
	}
	p.events = append(p.events, e)
}

// link returns v as an absolute http or https URL, resolved against the page, or "".
func (p *parser) link(v any) string {
	return schemaorg.Link(p.base, strings.ReplaceAll(token(v), "&amp;", "&"))
}

// location reads the venue: a Place (or a subtype such as MusicVenue), a name as text, or
// an array of those, of which the first physical place counts (a VirtualLocation does not).
func (p *parser) location(v any) source.Place {
	name := ""
	for _, x := range list(v) {
		x = p.deref(x)
		if o, ok := x.(*object); ok {
			virtual := slices.ContainsFunc(list(o.get("@type")), func(t any) bool { return term(t) == "virtuallocation" })
			if !virtual {
				return p.place(o)
			}
		} else if name == "" {
			name = text(x)
		}
	}
	if lower := strings.ToLower(name); !strings.HasPrefix(lower, "http://") && !strings.HasPrefix(lower, "https://") {
		return source.Place{Name: name}
	}
	if link := p.link(name); link != "" {
		return source.Place{Name: schemaorg.NameFromURL(link), URL: link} // named by its address only
	}
	return source.Place{Name: name}
}

// place reads a Place. Its address is a PostalAddress or a plain string, kept whole in
// Street, or the properties of a PostalAddress on the place itself (a location typed
// PostalAddress); its coordinates are in "geo" or on the place itself and are kept only
// when both are in range and not 0,0.
func (p *parser) place(o *object) source.Place {
	if pl, ok := p.places[o]; ok {
		return pl
	}
	pl := source.Place{Name: text(o.get("name")), URL: p.link(o.get("url"))}
	if pl.Name == "" {
		pl.Name = schemaorg.NameFromURL(pl.URL)
	}
	addr := p.deref(first(o.get("address")))
	a, ok := addr.(*object)
	if !ok {
		pl.Street = text(addressLines(str(addr)))
		// A PostalAddress given as the location itself, or a Place with its address's
		// properties on it (schema.org allows both).
		a = o
	}
	pl.Street = cmp.Or(pl.Street, text(a.get("streetAddress")))
	pl.Locality = text(a.get("addressLocality"))
	pl.Region = text(a.get("addressRegion"))
	pl.PostalCode = text(a.get("postalCode"))
	pl.Country = text(a.get("addressCountry"))
	if c, ok := p.deref(first(a.get("addressCountry"))).(*object); ok {
		pl.Country = text(c.get("name"))
	}
	geo, ok := p.deref(first(o.get("geo"))).(*object)
	if !ok {
		geo = o
	}
	lat, okLat := coord(geo.get("latitude"), 90)
	lon, okLon := coord(geo.get("longitude"), 180)
	if okLat && okLon && (lat != 0 || lon != 0) {
		pl.Lat, pl.Lon, pl.HasGeo = lat, lon, true
	}
	p.places[o] = pl
	return pl
}

// addressLines returns an address written as text on several lines ("2 Greenland
// Place\nLondon, England, NW1\nUnited Kingdom") with a comma between its lines, as it
// would be written on one: each line is a part of it, which collapsing white space would
// run together ("2 Greenland Place London").
func addressLines(s string) string {
	if !strings.ContainsAny(s, "\n\r") {
		return s
	}
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }), ", ")
}

// performers reads "performer" (or the older "performers"): objects with a name and
// genres, names as text, or an array of those. Nameless performers are skipped, and so
// are texts that only name a type (see schemaorg.IsTypeName).
func (p *parser) performers(o *object) []source.Performer {
	v := o.get("performer")
	if v == nil {
		v = o.get("performers")
	}
	var out []source.Performer
	for _, x := range list(v) {
		var pf source.Performer
		if po, ok := p.deref(x).(*object); ok {
			pf = p.performer(po)
			pf.Genres = slices.Clone(pf.Genres) // the events' slices must not share arrays
		} else if name := text(x); !schemaorg.IsTypeName(name) {
			pf.Name = name
		}
		if pf.Name != "" {
			out = append(out, pf)
		}
	}
	return out
}

func (p *parser) performer(o *object) source.Performer {
	pf, ok := p.performerOf[o]
	if !ok {
		pf = source.Performer{Name: text(o.get("name")), Genres: genres(o.get("genre")), MBID: mbid(o.get("sameAs"))}
		p.performerOf[o] = pf
	}
	return pf
}

// offers reads an event's offers, an Offer, an AggregateOffer or an array of them, up to
// schemaorg.MaxOffers.
func (p *parser) offers(v any) []source.Offer {
	var out []source.Offer
	for _, x := range list(v) {
		o, ok := p.deref(x).(*object)
		if !ok {
			continue
		}
		set, ok := p.offersOf[o]
		if !ok {
			set = p.offer(o, source.Offer{})
			p.offersOf[o] = set
		}
		out = append(out, set[:min(len(set), schemaorg.MaxOffers-len(out))]...)
		if len(out) == schemaorg.MaxOffers {
			break
		}
	}
	return out
}

// image reads an image: a URL, an ImageObject with a url or contentUrl, or a list of those,
// of which the first that is an http(s) URL counts.
func (p *parser) image(v any) string {
	for _, x := range list(v) {
		switch x := p.deref(x).(type) {
		case *object:
			if u := cmp.Or(p.link(x.get("url")), p.link(x.get("contentUrl"))); u != "" {
				return u
			}
		default:
			if u := p.link(x); u != "" {
				return u
			}
		}
	}
	return ""
}

// onSale reads when tickets go on sale: the first offer's availabilityStarts, else its
// validFrom.
func (p *parser) onSale(v any) source.When {
	for _, x := range list(v) {
		if o, ok := p.deref(x).(*object); ok {
			for _, prop := range []string{"availabilityStarts", "validFrom"} {
				if w, err := schemaorg.When(token(o.get(prop))); err == nil {
					return w
				}
			}
		}
	}
	return source.When{}
}

// offer reads one Offer. An AggregateOffer with nested offers yields those instead (only
// when written inline, which keeps the recursion within the tree), each taking the aggregate's URL, currency and availability where it states none;
// without, it yields one offer from lowPrice to highPrice. An offer with no URL, price or
// availability yields nothing.
func (p *parser) offer(o *object, outer source.Offer) []source.Offer {
	of := source.Offer{
		URL:          cmp.Or(p.link(o.get("url")), outer.URL),
		Currency:     cmp.Or(text(o.get("priceCurrency")), outer.Currency),
		Availability: cmp.Or(schemaorg.Availability(str(o.get("availability"))), outer.Availability),
	}
	var nested []source.Offer
	for _, x := range list(o.get("offers")) {
		if n, ok := x.(*object); ok && !isRef(n) {
			nested = append(nested, p.offer(n, of)...)
		}
	}
	if len(nested) > 0 {
		return nested
	}
	of.PriceMin, of.PriceMax, of.HasPrice = prices(o)
	if of.URL == "" && !of.HasPrice && of.Availability == "" {
		return nil
	}
	return []source.Offer{of}
}

// prices reads price, lowPrice and highPrice; see schemaorg.Prices.
func prices(o *object) (lo, hi float64, ok bool) {
	return schemaorg.Prices(func(prop string) (float64, bool) { return price(o.get(prop)) })
}

// genres reads a genre given as text or as an array of texts, up to schemaorg.MaxGenres.
func genres(v any) []string {
	var out []string
	for _, x := range list(v) {
		if s := text(x); s != "" && len(out) < schemaorg.MaxGenres {
			out = append(out, s)
		}
	}
	return out
}

// list returns the elements of an array, a lone value as a list of one, and nil as none.
func list(v any) []any {
	switch v := v.(type) {
	case nil:
		return nil
	case []any:
		return v
	}
	return []any{v}
}

// first returns the first element of an array, or v itself.
func first(v any) any {
	if l := list(v); len(l) > 0 {
		return l[0]
	}
	return nil
}

// mbid returns the MusicBrainz id of the first of a performer's sameAs links (a URL or a
// list of them) that is a link to its MusicBrainz artist page, or "".
func mbid(v any) string {
	for _, x := range list(v) {
		if m := source.MBID(str(x)); m != "" {
			return m
		}
	}
	return ""
}
