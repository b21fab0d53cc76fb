package discover

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
)

// link is one <a> or <link> of a page.
type link struct {
	tag, href, rel, typ, text string
}

// maxLinks caps the links read from one page, and maxText the text kept of a link.
const (
	maxLinks = 5000
	maxText  = 200
)

// links returns the page's <a href> and <link href> elements, at most maxLinks, with an
// <a>'s text.
func links(page []byte) []link {
	z := html.NewTokenizer(bytes.NewReader(page))
	z.SetMaxBuf(1 << 20)
	var out []link
	open := -1 // the index of the <a> whose text is being read
	for len(out) < maxLinks {
		switch z.Next() {
		case html.ErrorToken:
			return out
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			tag := string(name)
			if tag != "a" && tag != "link" {
				continue
			}
			l := link{tag: tag}
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				switch string(k) {
				case "href":
					l.href = string(v)
				case "rel":
					l.rel = string(v)
				case "type":
					l.typ = string(v)
				}
			}
			if l.href == "" {
				continue
			}
			out = append(out, l)
			if tag == "a" {
				open = len(out) - 1
			}
		case html.TextToken:
			if open >= 0 && len(out[open].text) < maxText {
				out[open].text = strings.TrimSpace(out[open].text + " " + strings.TrimSpace(string(z.Text())))
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); string(name) == "a" {
				open = -1
			}
		}
	}
	return out
}
