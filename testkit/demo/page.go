package demo

import (
	"bytes"
	"fmt"
	"html"
	"strconv"
)

// page renders a venue's index.html: a small venue website listing its shows in HTML, with
// the JSON-LD blocks of blocks(v) in its head or at the end of its body.
func page(v *venue) ([]byte, error) {
	var scripts bytes.Buffer
	open, end := scriptTags[v.style.scriptTag][0], scriptTags[v.style.scriptTag][1]
	for _, x := range blocks(v) {
		body, err := encodeBlock(&v.style, x)
		if err != nil {
			return nil, fmt.Errorf("cannot render page of %s: %w", v.key, err)
		}
		fmt.Fprintf(&scripts, "%s\n%s\n%s\n", open, body, end)
	}
	name := html.EscapeString(v.name)
	var b bytes.Buffer
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=%q>\n<head>\n<meta charset=\"utf-8\">\n", countries[v.city.country].lang)
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	fmt.Fprintf(&b, "<title>%s – Live music in %s</title>\n", name, html.EscapeString(v.city.name))
	fmt.Fprintf(&b, "<link rel=\"canonical\" href=\"%s\">\n<link rel=\"stylesheet\" href=\"/assets/site.css\">\n", v.site.url())
	b.WriteString("<script>window.dataLayer = window.dataLayer || [];</script>\n")
	if v.style.inHead {
		b.Write(scripts.Bytes())
	}
	b.WriteString("</head>\n<body>\n<header class=\"site-header\">\n")
	fmt.Fprintf(&b, "<h1><a href=\"/\">%s</a></h1>\n", name)
	fmt.Fprintf(&b, "<p class=\"address\">%s · %s %s</p>\n", html.EscapeString(v.street), html.EscapeString(v.postal), html.EscapeString(v.style.locality))
	b.WriteString("<nav><a href=\"/\">What's on</a> <a href=\"/visit\">Getting here</a> <a href=\"/about\">About</a></nav>\n</header>\n")
	b.WriteString("<main id=\"shows\">\n<h2>What&#39;s on</h2>\n<ul class=\"listing\">\n")
	for _, g := range v.listed() {
		listItem(&b, g)
	}
	b.WriteString("</ul>\n</main>\n")
	if !v.style.inHead {
		b.Write(scripts.Bytes())
	}
	fmt.Fprintf(&b, "<footer><p>© %s · <a href=\"/privacy\">Privacy</a></p></footer>\n", name)
	b.WriteString("<script src=\"/assets/site.js\" defer></script>\n</body>\n</html>\n")
	return b.Bytes(), nil
}

// listItem writes one show of the HTML listing.
func listItem(b *bytes.Buffer, g *gig) {
	start := g.shown()
	when, display := start.Format(localLayouts[1]), start.Format("Mon 2 Jan, 15:04")
	if g.dateOnly {
		when, display = start.Format(dateLayout), start.Format("Mon 2 Jan")+", time TBA"
	}
	fmt.Fprintf(b, "<li class=\"show\"><time datetime=\"%s\">%s</time> <a href=\"/events/%s\">%s</a>",
		when, display, strconv.Itoa(g.n), html.EscapeString(title(g)))
	if !g.doors.IsZero() {
		fmt.Fprintf(b, " <span class=\"doors\">Doors %s</span>", g.doors.Format("15:04"))
	}
	switch {
	case g.status == cancelled:
		b.WriteString(" <em class=\"status\">Cancelled</em>")
	case g.status == postponed:
		b.WriteString(" <em class=\"status\">Postponed – new date to be announced</em>")
	case g.status == rescheduled:
		fmt.Fprintf(b, " <em class=\"status\">Rescheduled from %s</em>", g.previous.Format("Mon 2 Jan"))
	case g.tickets != nil && g.tickets.avail == soldOut:
		b.WriteString(" <em class=\"status\">Sold out</em>")
	}
	b.WriteString("</li>\n")
}
