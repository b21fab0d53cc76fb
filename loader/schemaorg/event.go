package schemaorg

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/gigs/gigs/loader/source"
)

// Base returns ref as an absolute URL to resolve a page's links against, or nil when it is not one.
func Base(ref string) *url.URL {
	if u, err := url.Parse(ref); err == nil && u.IsAbs() {
		return u
	}
	return nil
}

// Link returns s as an absolute http or https URL, resolved against base when base is not
// nil, or "".
func Link(base *url.URL, s string) string {
	s = Token(s)
	if s == "" || len(s) > MaxLink {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return ""
	}
	return u.String()
}

// ID returns an item's identity (a JSON-LD "@id", a microdata itemid) resolved against base
// when base is not nil, or "" when it has none, it is a blank node ("_:b0", meaningless
// outside the page) or it is absurdly long.
func ID(base *url.URL, s string) string {
	s = Token(s)
	if s == "" || len(s) > MaxLink || strings.HasPrefix(s, "_:") {
		return ""
	}
	if base != nil {
		if u, err := url.Parse(s); err == nil {
			return base.ResolveReference(u).String()
		}
	}
	return s
}

// When reads an ISO 8601 date or date-time (see source.ParseISO), or one of the other ways
// pages write dates (see loose).
func When(s string) (source.When, error) {
	s = Token(s)
	if len(s) > MaxQuote {
		return source.When{}, errors.New("too long")
	}
	return parseLoose(s)
}

// Doors reads a doorTime: a date-time, or a clock alone ("19:00", "19:00:00") on the
// start's date. A clock alone keeps its lack of an offset. What cannot be read is zero.
func Doors(s string, start source.When) source.When {
	if w, err := When(s); err == nil {
		return w
	}
	w, _ := When(start.Wall.Format("2006-01-02") + "T" + Token(s))
	return w
}

// Dates are an event's date properties as the page writes them.
type Dates struct {
	Start, End, Doors, PreviousStart string
}

// SetDates fills e's times from d and tells whether e can be listed: it needs a Title and a
// readable Start. Optional dates that cannot be read are left zero. When e cannot be listed,
// SetDates returns the reason to drop it, which names the event by its title, else by its
// identity id, else by its 1-based position n on the page; otherwise it returns "".
func SetDates(e *source.Event, d Dates, id string, n int) (reason string) {
	var problems []string
	if e.Title == "" {
		problems = append(problems, "missing name")
	}
	start := Token(d.Start)
	var err error
	e.Start, err = When(start)
	switch {
	case start == "":
		problems = append(problems, "missing startDate")
	case err != nil:
		problems = append(problems, fmt.Sprintf("cannot parse startDate %q: %v", Clip(start, MaxQuote), err))
	}
	if len(problems) > 0 {
		who := "#" + strconv.Itoa(n)
		switch {
		case e.Title != "":
			who = strconv.Quote(Clip(e.Title, MaxQuote))
		case id != "":
			who = strconv.Quote(Clip(id, MaxQuote))
		}
		return fmt.Sprintf("event %s: %s", who, strings.Join(problems, "; "))
	}
	e.End, _ = When(d.End)
	e.PreviousStart, _ = When(d.PreviousStart)
	e.Doors = Doors(d.Doors, e.Start)
	return ""
}

// NameFromURL returns the name a venue's page address gives when a page names the venue by
// nothing else: the last path segment when it is a slug of words ("/venues/the-jazz-cafe"
// gives "The Jazz Cafe"), else the host without "www." ("www.thegarage.london" gives
// "thegarage.london"); "" when u is not an http(s) URL.
func NameFromURL(u string) string {
	p, err := url.Parse(strings.TrimSpace(u))
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return ""
	}
	segs := strings.FieldsFunc(p.Path, func(r rune) bool { return r == '/' })
	if len(segs) > 0 {
		last := strings.TrimSuffix(strings.TrimSuffix(segs[len(segs)-1], ".html"), ".php")
		words := strings.FieldsFunc(last, func(r rune) bool { return r == '-' || r == '_' || r == '+' })
		slug := len(words) > 0
		for i, w := range words {
			if strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
				slug = false
				break
			}
			words[i] = strings.ToUpper(w[:1]) + w[1:]
		}
		if slug {
			return strings.Join(words, " ")
		}
	}
	return strings.TrimPrefix(p.Hostname(), "www.")
}
