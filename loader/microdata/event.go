package microdata

import (
	"cmp"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gigs/gigs/loader/schemaorg"
	"github.com/gigs/gigs/loader/source"
)

// event reads event item it, the n-th of the page, or drops it when it lacks a name or a
// readable start. It reports false when the budget ran out, and the page is not read further.
func (p *parser) event(it int32, n int) bool {
	ps := p.propsOf(it)
	id := schemaorg.ID(p.base, p.nodes[it].el.itemid)
	e := source.Event{
		Ref:   cmp.Or(id, p.ref+"#"+strconv.Itoa(n)),
		URL:   schemaorg.Link(p.links, p.token(ps.get("url"))),
		Line:  p.line(it),
		Title: cmp.Or(p.text(ps.get("name")), p.text(ps.get("summary"))), // data-vocabulary.org's
	}
	// A show an act's page lists is the act's, and takes its name when it has none.
	var act source.Performer
	if a, ok := p.actOf[it]; ok {
		act = p.performerItem(a)
		e.Title = cmp.Or(e.Title, act.Name)
	}
	dates := schemaorg.Dates{
		Start:         p.token(ps.get("startdate")),
		End:           p.token(ps.get("enddate")),
		Doors:         p.token(ps.get("doortime")),
		PreviousStart: p.token(ps.get("previousstartdate")),
	}
	reason := schemaorg.SetDates(&e, dates, id, n)
	if reason == "" {
		e.Status = schemaorg.Status(p.token(ps.get("eventstatus")))
		e.Venue = p.location(ps.get("location"))
		e.Performers = p.performers(ps)
		if act.Name != "" && len(e.Performers) == 0 {
			e.Performers = []source.Performer{{Name: act.Name, Genres: slices.Clone(act.Genres)}}
		}
		e.Offers = schemaorg.SoldOut(p.token(ps.get("remainingattendeecapacity")), p.offers(ps.get("offers")), e.URL)
		e.Genres = p.genres(ps.get("genre"))
		e.Kinds = p.types(it) // lower-cased
		e.Image = schemaorg.Link(p.links, p.token(ps.get("image")))
		e.MinAge, e.HasMinAge = source.ParseAge(p.text(ps.get("typicalagerange")))
		for _, o := range p.items(ps.get("offers")) {
			os := p.propsOf(o)
			if w, err := schemaorg.When(cmp.Or(p.token(os.get("availabilitystarts")), p.token(os.get("validfrom")))); err == nil {
				e.OnSale = w
				break
			}
		}
	}
	switch {
	case p.over:
		p.tooComplex(it)
		return false
	case reason != "":
		p.drop(e.Line, reason)
	default:
		if parent, ok := p.parentOf[it]; ok {
			if i, ok := p.eventOf[parent]; ok && !schemaorg.SubEvent(&p.events[i], &e) {
				break // its parent's own performance, listed again
			}
		}
		p.eventOf[it] = len(p.events)
		p.events = append(p.events, e)
	}
	return true
}

// text returns the first non-empty text among values, as schemaorg.Text cleans it. Items
// are not text.
func (p *parser) text(values props) string {
	for _, v := range values {
		if s := p.value(v.el, schemaorg.MaxText); s != "" {
			return s
		}
	}
	return ""
}

// token returns the first non-empty value among values as a token: a date, a URL, a number.
// Its white space is collapsed, which none of those minds, and it may be as long as a link.
func (p *parser) token(values props) string {
	for _, v := range values {
		if s := p.value(v.el, schemaorg.MaxLink+1); s != "" {
			return s
		}
	}
	return ""
}

// value returns the property value of element n, cleaned as schemaorg.Text does and cut to
// limit bytes: the value of its attribute (see element), or its text content. An item has
// none.
func (p *parser) value(n int32, limit int) string {
	el := p.nodes[n].el
	b := schemaorg.TextBuilder{Limit: limit}
	switch {
	case el.scope:
	case el.isURL:
		b.WriteString(p.resolve(el.val))
	case el.hasVal:
		b.WriteString(el.val)
	default:
		p.textContent(n, &b)
	}
	return b.String()
}

// resolve returns the URL s resolved against the page, or s when that cannot be done.
func (p *parser) resolve(s string) string {
	if p.links == nil || len(s) > schemaorg.MaxLink {
		return s
	}
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil {
		return s
	}
	return p.links.ResolveReference(u).String()
}

// textContent writes the text of the nodes below n, in tree order, until b is full.
func (p *parser) textContent(n int32, b *schemaorg.TextBuilder) {
	for c := p.nodes[n].first; c >= 0 && p.spend(1); {
		nd := &p.nodes[c]
		if nd.el == nil && !b.WriteString(p.tree.text[nd.start:nd.end]) {
			return
		}
		if nd.first >= 0 {
			c = nd.first
			continue
		}
		for c != n && p.nodes[c].next < 0 {
			c = p.nodes[c].parent
		}
		if c == n {
			return
		}
		c = p.nodes[c].next
	}
}

// items returns the values that are items.
func (p *parser) items(values props) []int32 {
	var out []int32
	for _, v := range values {
		if p.isItem(v.el) {
			out = append(out, v.el)
		}
	}
	return out
}

// location reads the venue: a Place item (or a subtype such as MusicVenue), or a name as
// text. Of several, the first physical place counts (a VirtualLocation does not).
func (p *parser) location(values props) source.Place {
	for _, it := range p.items(values) {
		if !slices.Contains(p.types(it), "virtuallocation") {
			return p.place(it)
		}
	}
	for _, v := range values {
		if el := p.nodes[v.el].el; el.isURL && !el.scope {
			// A link: the venue's name is its text, its address the page it links to.
			link := schemaorg.Link(p.links, p.value(v.el, schemaorg.MaxLink+1))
			name := p.linkText(v.el)
			if name == "" {
				name = schemaorg.NameFromURL(link)
			}
			return source.Place{Name: name, URL: link}
		}
	}
	return source.Place{Name: p.text(values)}
}

// linkText returns the text content of element n, cleaned and cut as text is.
func (p *parser) linkText(n int32) string {
	b := schemaorg.TextBuilder{Limit: schemaorg.MaxText}
	p.textContent(n, &b)
	return b.String()
}

// place reads a Place. Its address is a PostalAddress item or text, kept whole in Street,
// or the properties of a PostalAddress on the place itself (a location typed PostalAddress);
// its country is text or a Country item's name; its coordinates are in a GeoCoordinates
// item "geo" or on the place itself and are kept only when both are in range and not 0,0.
func (p *parser) place(it int32) source.Place {
	if pl, ok := p.places[it]; ok {
		return pl
	}
	ps := p.propsOf(it)
	pl := source.Place{Name: p.text(ps.get("name")), URL: schemaorg.Link(p.links, p.token(ps.get("url")))}
	if pl.Name == "" { // named only by the link to its page: its text, else the address
		for _, u := range ps.get("url") {
			if pl.Name = p.linkText(u.el); pl.Name != "" {
				break
			}
		}
		if pl.Name == "" {
			pl.Name = schemaorg.NameFromURL(pl.URL)
		}
	}
	as := ps // a PostalAddress as the location itself, or a Place with its address's properties on it
	if a := ps.get("address"); len(a) > 0 && p.isItem(a[0].el) {
		as = p.propsOf(a[0].el)
	} else {
		pl.Street = p.text(a)
	}
	// schema.org's PostalAddress, else data-vocabulary.org's Address.
	pl.Street = cmp.Or(pl.Street, p.text(as.get("streetaddress")), p.text(as.get("street-address")))
	pl.Locality = cmp.Or(p.text(as.get("addresslocality")), p.text(as.get("locality")))
	pl.Region = cmp.Or(p.text(as.get("addressregion")), p.text(as.get("region")))
	pl.PostalCode = cmp.Or(p.text(as.get("postalcode")), p.text(as.get("postal-code")))
	pl.Country = cmp.Or(p.text(as.get("addresscountry")), p.text(as.get("country-name")))
	if c := as.get("addresscountry"); len(c) > 0 && p.isItem(c[0].el) {
		pl.Country = p.text(p.propsOf(c[0].el).get("name"))
	}
	geo := ps
	if g := ps.get("geo"); len(g) > 0 && p.isItem(g[0].el) {
		geo = p.propsOf(g[0].el)
	}
	lat, okLat := schemaorg.Coord(p.token(geo.get("latitude")), 90)
	lon, okLon := schemaorg.Coord(p.token(geo.get("longitude")), 180)
	if okLat && okLon && (lat != 0 || lon != 0) {
		pl.Lat, pl.Lon, pl.HasGeo = lat, lon, true
	}
	p.places[it] = pl
	return pl
}

// performers reads "performer" (or the older "performers"): items with a name and genres,
// or names as text, in tree order. Nameless performers are skipped, and so are texts that
// only name a type (see schemaorg.IsTypeName).
func (p *parser) performers(ps props) []source.Performer {
	values := ps.get("performer")
	if len(values) == 0 {
		values = ps.get("performers")
	}
	var out []source.Performer
	for _, v := range values {
		var pf source.Performer
		if p.isItem(v.el) {
			pf = p.performerItem(v.el)
			pf.Genres = slices.Clone(pf.Genres) // the events' slices must not share arrays
		} else if name := p.value(v.el, schemaorg.MaxText); !schemaorg.IsTypeName(name) {
			pf.Name = name
		}
		if pf.Name != "" {
			out = append(out, pf)
		}
	}
	return out
}

func (p *parser) performerItem(it int32) source.Performer {
	pf, ok := p.performer[it]
	if !ok {
		ps := p.propsOf(it)
		pf = source.Performer{Name: p.text(ps.get("name")), Genres: p.genres(ps.get("genre"))}
		p.performer[it] = pf
	}
	return pf
}

// offers reads an event's Offer and AggregateOffer items, up to schemaorg.MaxOffers.
func (p *parser) offers(values props) []source.Offer {
	var out []source.Offer
	for _, it := range p.items(values) {
		set, ok := p.offersOf[it]
		if !ok {
			set = p.offer(it, source.Offer{}, 1)
			p.offersOf[it] = set
		}
		out = append(out, set[:min(len(set), schemaorg.MaxOffers-len(out))]...)
		if len(out) == schemaorg.MaxOffers {
			break
		}
	}
	return out
}

// offer reads one Offer. An AggregateOffer with nested Offer items yields those instead (to
// a depth of 3), each taking the aggregate's URL, currency and availability where it states
// none; without, it yields one offer from lowPrice to highPrice. An offer with no URL, price
// or availability yields nothing.
func (p *parser) offer(it int32, outer source.Offer, depth int) []source.Offer {
	ps := p.propsOf(it)
	of := source.Offer{
		URL:          cmp.Or(schemaorg.Link(p.links, p.token(ps.get("url"))), outer.URL),
		Currency:     cmp.Or(p.text(ps.get("pricecurrency")), outer.Currency),
		Availability: cmp.Or(schemaorg.Availability(p.token(ps.get("availability"))), outer.Availability),
	}
	var nested []source.Offer
	if depth < 3 {
		for _, n := range p.items(ps.get("offers")) {
			if n != it && p.spend(1) {
				nested = append(nested, p.offer(n, of, depth+1)...)
			}
		}
	}
	if len(nested) > 0 {
		return nested
	}
	of.PriceMin, of.PriceMax, of.HasPrice = schemaorg.Prices(func(prop string) (float64, bool) {
		return schemaorg.Price(p.token(ps.get(strings.ToLower(prop))))
	})
	if of.URL == "" && !of.HasPrice && of.Availability == "" {
		return nil
	}
	return []source.Offer{of}
}

// genres reads genres given as text, up to schemaorg.MaxGenres.
func (p *parser) genres(values props) []string {
	var out []string
	for _, v := range values {
		if s := p.value(v.el, schemaorg.MaxText); s != "" && len(out) < schemaorg.MaxGenres {
			out = append(out, s)
		}
	}
	return out
}
