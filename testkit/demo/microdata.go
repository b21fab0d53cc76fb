package demo

import (
	"bytes"
	"fmt"
	"html"
	"strconv"
	"strings"
)

// microdataPage renders a venue page that marks its shows up as schema.org microdata: one
// top-level Event item per show, in page order, with the place, its address and
// coordinates, the performers and the offers nested in it.
func microdataPage(v *venue) []byte {
	s := &v.style
	esc := html.EscapeString
	name := esc(v.name)
	var b bytes.Buffer
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=%q>\n<head>\n<meta charset=\"utf-8\">\n", countries[v.city.country].lang)
	fmt.Fprintf(&b, "<title>%s · Programme</title>\n<link rel=\"canonical\" href=\"%s\">\n", name, esc(v.site.url()))
	b.WriteString("<link rel=\"stylesheet\" href=\"/css/main.css\">\n</head>\n<body>\n")
	if s.md.wrap == 2 { // the venue as an item of its own: not an event
		fmt.Fprintf(&b, "<header itemscope itemtype=\"%s%s\">\n<h1 itemprop=\"name\">%s</h1>\n", s.md.scheme, s.placeType, name)
		fmt.Fprintf(&b, "<p itemprop=\"address\">%s, %s %s</p>\n<a itemprop=\"url\" href=\"/\">Home</a>\n</header>\n", esc(v.street), esc(v.postal), esc(s.locality))
	} else {
		fmt.Fprintf(&b, "<header>\n<h1>%s</h1>\n<p class=\"address\">%s, %s %s</p>\n</header>\n", name, esc(v.street), esc(v.postal), esc(s.locality))
	}
	b.WriteString("<main>\n<h2>Upcoming shows</h2>\n")
	wrap := [...][2]string{{"<section class=\"events\">\n", "</section>\n"}, {"<ul class=\"events\">\n", "</ul>\n"}, {"<div class=\"event-table\">\n", "</div>\n"}}[s.md.wrap]
	b.WriteString(wrap[0])
	for _, g := range v.listed() {
		microdataEvent(&b, g)
	}
	b.WriteString(wrap[1])
	fmt.Fprintf(&b, "</main>\n<footer>%s · <a href=\"/imprint\">Imprint</a></footer>\n</body>\n</html>\n", name)
	return b.Bytes()
}

// microdataEvent writes one show as an Event item.
func microdataEvent(b *bytes.Buffer, g *gig) {
	v := g.venue
	s := &v.style
	esc := html.EscapeString
	tag := [...]string{"article", "li", "div"}[s.md.wrap]
	fmt.Fprintf(b, "<%s class=\"event\" itemscope itemtype=\"%s%s\"", tag, s.md.scheme, s.eventType)
	if id := eventID(g); id != "" {
		fmt.Fprintf(b, " itemid=\"%s\"", esc(id))
	}
	b.WriteString(">\n")
	fmt.Fprintf(b, "  <h3 itemprop=\"name\">%s</h3>\n", esc(title(g)))
	start := g.shown()
	display := start.Format("Mon 2 Jan 2006, 15:04")
	if g.dateOnly {
		display = start.Format("Mon 2 Jan 2006") + " · time TBA"
	}
	if s.md.timeTag {
		fmt.Fprintf(b, "  <time itemprop=\"startDate\" datetime=\"%s\">%s</time>\n", g.stamp(g.start), display)
	} else {
		fmt.Fprintf(b, "  <meta itemprop=\"startDate\" content=\"%s\"><span class=\"date\">%s</span>\n", g.stamp(g.start), display)
	}
	if !g.doors.IsZero() {
		fmt.Fprintf(b, "  <p class=\"doors\">Doors <time itemprop=\"doorTime\" datetime=\"%s\">%s</time></p>\n", g.stamp(g.doors), g.doors.Format("15:04"))
	}
	if !g.end.IsZero() {
		fmt.Fprintf(b, "  <meta itemprop=\"endDate\" content=\"%s\">\n", g.stamp(g.end))
	}
	if g.status != scheduled || s.status {
		st := [...]string{"EventScheduled", "EventCancelled", "EventPostponed", "EventRescheduled"}[g.status]
		fmt.Fprintf(b, "  <link itemprop=\"eventStatus\" href=\"%s%s\">", s.md.scheme, st)
		if g.status != scheduled {
			fmt.Fprintf(b, "<strong class=\"status\">%s</strong>", strings.TrimPrefix(st, "Event"))
		}
		b.WriteString("\n")
	}
	if !g.previous.IsZero() {
		fmt.Fprintf(b, "  <meta itemprop=\"previousStartDate\" content=\"%s\">\n", g.stamp(g.previous))
	}
	if s.images {
		fmt.Fprintf(b, "  <img itemprop=\"image\" src=\"/img/events/%d.jpg\" alt=\"\">\n", g.n)
	}
	microdataPlace(b, v)
	microdataPerformers(b, g)
	microdataOffers(b, g)
	fmt.Fprintf(b, "  <a itemprop=\"url\" href=\"/events/%d\">More info</a>\n</%s>\n", g.n, tag)
}

// microdataPlace writes the venue as the event's location.
func microdataPlace(b *bytes.Buffer, v *venue) {
	s := &v.style
	esc := html.EscapeString
	fmt.Fprintf(b, "  <div itemprop=\"location\" itemscope itemtype=\"%s%s\">\n", s.md.scheme, s.placeType)
	fmt.Fprintf(b, "    <span itemprop=\"name\">%s</span>\n", esc(v.name))
	fmt.Fprintf(b, "    <div itemprop=\"address\" itemscope itemtype=\"%sPostalAddress\">\n", s.md.scheme)
	fmt.Fprintf(b, "      <span itemprop=\"streetAddress\">%s</span>, <span itemprop=\"postalCode\">%s</span> <span itemprop=\"addressLocality\">%s</span>\n",
		esc(v.street), esc(v.postal), esc(s.locality))
	if v.city.region != "" {
		fmt.Fprintf(b, "      <meta itemprop=\"addressRegion\" content=\"%s\">\n", esc(v.city.region))
	}
	switch c := countryValue(v.city.country, s.country).(type) {
	case countryNode:
		fmt.Fprintf(b, "      <span itemprop=\"addressCountry\" itemscope itemtype=\"%sCountry\"><span itemprop=\"name\">%s</span></span>\n", s.md.scheme, esc(c.Name))
	case string:
		if c == v.city.country {
			fmt.Fprintf(b, "      <meta itemprop=\"addressCountry\" content=\"%s\">\n", c)
		} else {
			fmt.Fprintf(b, "      <span itemprop=\"addressCountry\">%s</span>\n", esc(c))
		}
	}
	b.WriteString("    </div>\n")
	fmt.Fprintf(b, "    <div itemprop=\"geo\" itemscope itemtype=\"%sGeoCoordinates\"><meta itemprop=\"latitude\" content=\"%s\"><meta itemprop=\"longitude\" content=\"%s\"></div>\n",
		s.md.scheme, strconv.FormatFloat(v.lat, 'f', -1, 64), strconv.FormatFloat(v.lon, 'f', -1, 64))
	b.WriteString("  </div>\n")
}

// microdataPerformers writes the bill: MusicGroup or Person items, or plain text.
func microdataPerformers(b *bytes.Buffer, g *gig) {
	s := &g.venue.style
	b.WriteString("  <p class=\"lineup\">")
	for i, a := range g.acts {
		if i > 0 {
			b.WriteString(" + ")
		}
		if s.performers == performerText {
			fmt.Fprintf(b, "<span itemprop=\"performer\">%s</span>", html.EscapeString(a.name))
			continue
		}
		typ := "MusicGroup"
		if a.person {
			typ = "Person"
		}
		fmt.Fprintf(b, "<span itemprop=\"performer\" itemscope itemtype=\"%s%s\"><span itemprop=\"name\">%s</span></span>", s.md.scheme, typ, html.EscapeString(a.name))
	}
	b.WriteString("</p>\n")
}

// microdataOffers writes the tickets as an Offer or an AggregateOffer.
func microdataOffers(b *bytes.Buffer, g *gig) {
	t := g.tickets
	if t == nil {
		return
	}
	v := g.venue
	s := &v.style
	cur := countries[v.city.country].currency
	avail := [...]string{"InStock", "LimitedAvailability", "SoldOut"}[t.avail]
	amount := func(prop string, x float64) string {
		text := fmt.Sprint(v.price(x))
		if s.priceText {
			return fmt.Sprintf("<span itemprop=\"%s\">%s</span>", prop, text)
		}
		return fmt.Sprintf("<span itemprop=\"%s\" content=\"%s\">%s %s</span>", prop, strconv.FormatFloat(x, 'f', -1, 64), cur, text)
	}
	if s.offers == aggregateOffer {
		fmt.Fprintf(b, "  <div itemprop=\"offers\" itemscope itemtype=\"%sAggregateOffer\">%s – %s", s.md.scheme, amount("lowPrice", t.low), amount("highPrice", t.high))
	} else {
		fmt.Fprintf(b, "  <div itemprop=\"offers\" itemscope itemtype=\"%sOffer\">%s", s.md.scheme, amount("price", t.low))
	}
	fmt.Fprintf(b, "<meta itemprop=\"priceCurrency\" content=\"%s\"><link itemprop=\"availability\" href=\"%s%s\"> <a itemprop=\"url\" href=\"/tickets/%d\">Tickets</a></div>\n",
		cur, s.md.scheme, avail, g.n)
}
