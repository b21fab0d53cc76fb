package demo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"strconv"
	"strings"
	"time"

	"github.com/gigs/gigs/loader/places"
)

const schemaOrg = "https://schema.org/"

// The JSON-LD node types. Field order is the order pages write them in.
type (
	eventNode struct {
		Context           string     `json:"@context,omitempty"`
		Type              any        `json:"@type"`
		ID                string     `json:"@id,omitempty"`
		Name              string     `json:"name"`
		URL               string     `json:"url"`
		Image             string     `json:"image,omitempty"`
		StartDate         string     `json:"startDate"`
		DoorTime          string     `json:"doorTime,omitempty"`
		EndDate           string     `json:"endDate,omitempty"`
		EventStatus       string     `json:"eventStatus,omitempty"`
		PreviousStartDate string     `json:"previousStartDate,omitempty"`
		Location          *placeNode `json:"location"`
		Performer         any        `json:"performer,omitempty"`
		Offers            any        `json:"offers,omitempty"`
		Genre             any        `json:"genre,omitempty"`
	}
	placeNode struct {
		Context string      `json:"@context,omitempty"`
		Type    string      `json:"@type"`
		ID      string      `json:"@id,omitempty"`
		Name    string      `json:"name"`
		Address addressNode `json:"address"`
		Geo     geoNode     `json:"geo"`
		URL     string      `json:"url"`
	}
	addressNode struct {
		Type       string `json:"@type"`
		Street     string `json:"streetAddress"`
		Locality   string `json:"addressLocality"`
		Region     string `json:"addressRegion,omitempty"`
		PostalCode string `json:"postalCode"`
		Country    any    `json:"addressCountry"`
	}
	geoNode struct {
		Type      string `json:"@type"`
		Latitude  any    `json:"latitude"`
		Longitude any    `json:"longitude"`
	}
	countryNode struct {
		Type string `json:"@type"`
		Name string `json:"name"`
	}
	performerNode struct {
		Type   string   `json:"@type"`
		Name   string   `json:"name"`
		Genre  []string `json:"genre,omitempty"`
		SameAs []string `json:"sameAs,omitempty"`
	}
	offerNode struct {
		Type         string `json:"@type"`
		Name         string `json:"name,omitempty"`
		URL          string `json:"url"`
		Price        any    `json:"price,omitempty"`
		LowPrice     any    `json:"lowPrice,omitempty"`
		HighPrice    any    `json:"highPrice,omitempty"`
		Currency     string `json:"priceCurrency"`
		Availability string `json:"availability"`
	}
	graphNode struct {
		Context string `json:"@context"`
		Graph   []any  `json:"@graph"`
	}
	webPageNode struct {
		Context    string       `json:"@context"`
		Type       string       `json:"@type"`
		ID         string       `json:"@id"`
		Name       string       `json:"name"`
		MainEntity itemListNode `json:"mainEntity"`
	}
	itemListNode struct {
		Type            string         `json:"@type"`
		NumberOfItems   int            `json:"numberOfItems,omitempty"`
		ItemListElement []listItemNode `json:"itemListElement"`
	}
	listItemNode struct {
		Type     string `json:"@type"`
		Position int    `json:"position"`
		Name     string `json:"name,omitempty"`
		Item     any    `json:"item"`
	}
	webSiteNode struct {
		Context string `json:"@context"`
		Type    string `json:"@type"`
		Name    string `json:"name"`
		URL     string `json:"url"`
	}
)

// blocks returns the JSON-LD blocks of a venue's page in page order, shaped by its style:
// every gig appears in exactly one of them, once.
func blocks(v *venue) []any {
	s := &v.style
	place := placeOf(v)
	gigs := v.listed()
	events := make([]*eventNode, len(gigs))
	for i, g := range gigs {
		events[i] = eventOf(g, place)
	}
	var out []any
	if s.breadcrumbs {
		out = append(out, breadcrumbs(v))
	}
	switch s.shape {
	case perEventScripts:
		out = append(out, webSiteNode{s.context, "WebSite", v.text(v.name), v.origin()})
		for _, e := range events {
			e.Context = s.context
			out = append(out, e)
		}
	case eventArray:
		for _, e := range events {
			e.Context = s.context
		}
		out = append(out, events)
	case graph:
		nodes := []any{&placeNode{Type: place.Type, ID: v.origin() + "#venue", Name: place.Name, Address: place.Address, Geo: place.Geo, URL: place.URL}}
		for _, e := range events {
			nodes = append(nodes, e)
		}
		out = append(out, graphNode{s.context, nodes})
	case webPage:
		list := itemListNode{Type: "ItemList", NumberOfItems: len(events)}
		for i, e := range events {
			list.ItemListElement = append(list.ItemListElement, listItemNode{Type: "ListItem", Position: i + 1, Item: e})
		}
		out = append(out, webPageNode{s.context, "WebPage", v.site.url(), v.text(v.name) + " – What's on", list})
	}
	return out
}

// breadcrumbs returns a BreadcrumbList block: JSON-LD a page carries that holds no event.
func breadcrumbs(v *venue) any {
	return struct {
		Context         string         `json:"@context"`
		Type            string         `json:"@type"`
		ItemListElement []listItemNode `json:"itemListElement"`
	}{v.style.context, "BreadcrumbList", []listItemNode{
		{Type: "ListItem", Position: 1, Name: "Home", Item: v.origin()},
		{Type: "ListItem", Position: 2, Name: "What's on", Item: v.site.url() + "#shows"},
	}}
}

// encodeBlock writes x as the body of a script block. "</" is written "<\/" so no value
// can end the block early.
func encodeBlock(s *style, x any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(s.escapeHTML)
	if s.indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(x); err != nil {
		return nil, fmt.Errorf("cannot encode json-ld: %w", err)
	}
	return bytes.ReplaceAll(bytes.TrimSuffix(b.Bytes(), []byte("\n")), []byte("</"), []byte(`<\/`)), nil
}

// text returns s as the venue's JSON-LD writes text: HTML-escaped on pages whose CMS does so.
func (v *venue) text(s string) string {
	if v.entities {
		return html.EscapeString(s)
	}
	return s
}

// placeOf returns the venue's location node, shared by all its events.
func placeOf(v *venue) *placeNode {
	s := &v.style
	var lat, lon any = v.lat, v.lon
	if s.geoText {
		lat, lon = strconv.FormatFloat(v.lat, 'f', 4, 64), strconv.FormatFloat(v.lon, 'f', 4, 64)
	}
	return &placeNode{
		Type: s.placeType,
		Name: v.text(v.name),
		Address: addressNode{
			Type:       "PostalAddress",
			Street:     v.text(v.street),
			Locality:   v.text(s.locality),
			Region:     v.city.region,
			PostalCode: v.postal,
			Country:    countryValue(v.city.country, s.country),
		},
		Geo: geoNode{"GeoCoordinates", lat, lon},
		URL: v.origin(),
	}
}

// countryValue writes a country code in a form.
func countryValue(code string, f countryForm) any {
	name := places.CountryName(code)
	switch f {
	case countryEnglish:
		return name
	case countryLocal:
		if local := countries[code].local; local != "" {
			return local
		}
		return name
	case countryObject:
		return countryNode{"Country", name}
	}
	return code
}

// eventOf returns a gig's event node without @context.
func eventOf(g *gig, place *placeNode) *eventNode {
	v := g.venue
	s := &v.style
	e := &eventNode{
		Type:      s.eventType,
		ID:        eventID(g),
		Name:      v.text(title(g)),
		URL:       g.url(),
		StartDate: g.stamp(g.start),
		Location:  place,
		Performer: performers(g),
		Offers:    offers(g),
	}
	if s.images {
		e.Image = v.origin() + "img/events/" + strconv.Itoa(g.n) + ".jpg"
	}
	if !g.doors.IsZero() {
		e.DoorTime = g.stamp(g.doors)
	}
	if !g.end.IsZero() {
		e.EndDate = g.stamp(g.end)
	}
	if g.status != scheduled || s.status {
		e.EventStatus = schemaOrg + [...]string{"EventScheduled", "EventCancelled", "EventPostponed", "EventRescheduled"}[g.status]
	}
	if !g.previous.IsZero() {
		e.PreviousStartDate = g.stamp(g.previous)
	}
	if s.eventGenre || s.performers == performerText {
		e.Genre = eventGenre(g)
	}
	return e
}

// stamp writes a time of the gig as its page does: a misdated page moves it a day back.
func (g *gig) stamp(t time.Time) string {
	if g.misdated {
		t = t.AddDate(0, 0, -1)
	}
	switch {
	case g.dateOnly:
		return t.Format(dateLayout)
	case g.kind == afterHours: // the spring-forward edge case, always venue-local
		return t.Format(localLayouts[0])
	}
	return t.Format(g.venue.style.layout)
}

// title names a gig as its page does.
func title(g *gig) string {
	s := &g.venue.style
	t := baseTitle(g)
	if g.label != "" {
		t += " (" + g.label + ")"
	}
	if s.shout {
		switch {
		case g.status == cancelled:
			t = "CANCELLED: " + t
		case g.tickets != nil && g.tickets.avail == soldOut:
			t = "SOLD OUT: " + t
		}
	}
	return t
}

// baseTitle names a gig as its venue does, before the show label and status prefixes: its
// own name when it has one, else from the bill in the venue's title form. iCal feeds
// know only the "Headliner + Support" and "Headliner" forms and no club series.
func baseTitle(g *gig) string {
	if g.name != "" {
		return g.name
	}
	s := &g.venue.style
	ical := g.venue.site != nil && g.venue.site.format == iCal
	head := g.acts[0]
	names := make([]string, len(g.acts))
	for i, a := range g.acts {
		names[i] = a.name
	}
	t := head.name
	switch {
	case (g.kind == clubNight || g.kind == afterHours) && s.series != "" && !ical:
		t = s.series + " with " + strings.Join(names, ", ")
	case s.title == titlePlus && len(names) > 1:
		t = strings.Join(names, " + ")
	case s.title == titleWith && len(names) > 1 && !ical:
		t = head.name + " with " + strings.Join(names[1:], " and ")
	case s.title == titleTour && head.tour != "" && !ical:
		t = head.name + ": " + head.tour
	}
	return t
}

// eventID returns the identifier a page writes for g, "" on pages without them.
func eventID(g *gig) string {
	v := g.venue
	switch v.site.ids {
	case idAbsolute:
		return v.origin() + "events/" + strconv.Itoa(g.n)
	case idRelative:
		return "/events/" + strconv.Itoa(g.n)
	case idFragment:
		return "#event-" + strconv.Itoa(g.n)
	}
	return ""
}

// url returns the gig's own page on the venue's site.
func (g *gig) url() string { return g.venue.origin() + "events/" + strconv.Itoa(g.n) }

// shown returns the start the venue's page shows: a day early when misdated.
func (g *gig) shown() time.Time {
	if g.misdated {
		return g.start.AddDate(0, 0, -1)
	}
	return g.start
}

// spell writes a genre as the venue tags it.
func (v *venue) spell(g int) string {
	sp := genres[g].spellings
	return v.text(sp[(v.style.spelling+g)%len(sp)])
}

// performers returns the bill as the page writes it.
func performers(g *gig) any {
	v := g.venue
	switch v.style.performers {
	case performerText:
		if len(g.acts) == 1 {
			return v.text(g.acts[0].name)
		}
		names := make([]string, len(g.acts))
		for i, a := range g.acts {
			names[i] = v.text(a.name)
		}
		return names
	case performerCompact:
		if len(g.acts) == 1 {
			return performerOf(v, g.acts[0])
		}
	}
	out := make([]performerNode, len(g.acts))
	for i, a := range g.acts {
		out[i] = performerOf(v, a)
	}
	return out
}

func performerOf(v *venue, a *artist) performerNode {
	p := performerNode{Type: "MusicGroup", Name: v.text(a.name)}
	if a.person {
		p.Type = "Person"
	}
	for _, g := range a.genres {
		p.Genre = append(p.Genre, v.spell(g))
	}
	if m := a.mbid(); m != "" && len(a.name)%2 == 0 { // some venues' pages link MusicBrainz
		p.SameAs = []string{"https://musicbrainz.org/artist/" + m}
	}
	return p
}

// eventGenre returns the headliner's genres as an event-level tag: one string, or an array.
func eventGenre(g *gig) any {
	v, gs := g.venue, g.acts[0].genres
	if len(gs) == 1 {
		return v.spell(gs[0])
	}
	out := make([]string, len(gs))
	for i, x := range gs {
		out[i] = v.spell(x)
	}
	return out
}

// offers returns a gig's offers as the page writes them, or nil.
func offers(g *gig) any {
	t := g.tickets
	if t == nil {
		return nil
	}
	v := g.venue
	cur := countries[v.city.country].currency
	url := v.origin() + "tickets/" + strconv.Itoa(g.n)
	avail := schemaOrg + [...]string{"InStock", "LimitedAvailability", "SoldOut"}[t.avail]
	switch v.style.offers {
	case offerPair:
		door := schemaOrg + "InStock"
		if t.avail == soldOut {
			door = avail
		}
		return []offerNode{
			{Type: "Offer", Name: "Advance", URL: url, Price: v.price(t.low), Currency: cur, Availability: avail},
			{Type: "Offer", Name: "Door", URL: url + "?tier=door", Price: v.price(t.high), Currency: cur, Availability: door},
		}
	case aggregateOffer:
		return offerNode{Type: "AggregateOffer", URL: url, LowPrice: v.price(t.low), HighPrice: v.price(t.high), Currency: cur, Availability: avail}
	}
	return offerNode{Type: "Offer", URL: url, Price: v.price(t.low), Currency: cur, Availability: avail}
}

// price writes an amount as the page does: a number, or a string with the currency's
// usual decimals.
func (v *venue) price(x float64) any {
	if !v.style.priceText {
		return x
	}
	if countries[v.city.country].step < 1 {
		return strconv.FormatFloat(x, 'f', 2, 64)
	}
	return strconv.FormatFloat(x, 'f', 0, 64)
}
