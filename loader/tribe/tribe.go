package tribe

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/gigs/gigs/loader/schemaorg"
	"github.com/gigs/gigs/loader/source"
)

// Options bound a parse.
type Options struct {
	// MaxEvents is the most events read from one page (schemaorg.MaxEvents when zero); the
	// rest are one drop.
	MaxEvents int
}

// ErrNotTribe is returned when a document is neither a page of events nor one event of
// The Events Calendar's REST API.
var ErrNotTribe = errors.New("not a response of The Events Calendar's REST API (no \"events\" list and no event)")

// event is the part of one REST event this adapter reads.
type event struct {
	ID           json.Number     `json:"id"`
	GlobalID     string          `json:"global_id"`
	URL          string          `json:"url"`
	RestURL      string          `json:"rest_url"`
	Title        string          `json:"title"`
	Status       string          `json:"status"`
	Hidden       bool            `json:"hide_from_listings"`
	AllDay       bool            `json:"all_day"`
	StartDate    string          `json:"start_date"`
	EndDate      string          `json:"end_date"`
	UTCStartDate string          `json:"utc_start_date"`
	UTCEndDate   string          `json:"utc_end_date"`
	Timezone     string          `json:"timezone"`
	Cost         string          `json:"cost"`
	CostDetails  json.RawMessage `json:"cost_details"`
	Website      string          `json:"website"`
	Image        json.RawMessage `json:"image"` // an object with "url", or false
	Categories   []term          `json:"categories"`
	Tags         []term          `json:"tags"`
	Venue        json.RawMessage `json:"venue"` // an object, or [] when none
	JSONLD       struct {
		EventStatus string `json:"eventStatus"`
	} `json:"json_ld"`
}

type term struct {
	Name string `json:"name"`
}

type venue struct {
	Venue         string      `json:"venue"`
	URL           string      `json:"url"`
	Address       string      `json:"address"`
	City          string      `json:"city"`
	Country       string      `json:"country"`
	StateProvince string      `json:"stateprovince"`
	State         string      `json:"state"`
	Province      string      `json:"province"`
	Zip           string      `json:"zip"`
	Lat           json.Number `json:"geo_lat"`
	Lng           json.Number `json:"geo_lng"`
}

type costDetails struct {
	CurrencyCode   string   `json:"currency_code"`
	CurrencySymbol string   `json:"currency_symbol"`
	Values         []string `json:"values"`
}

// Parse reads a page of events (or one event) of the REST API at ref. An error means the
// document is not of this API at all; events that cannot be listed are drops with their
// line.
func Parse(doc []byte, ref string, o Options) ([]source.Event, []source.Drop, error) {
	if o.MaxEvents <= 0 {
		o.MaxEvents = schemaorg.MaxEvents
	}
	lines := lineIndexOf(doc)
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, nil, ErrNotTribe
	}
	base := schemaorg.Base(ref)
	var events []source.Event
	var drops []source.Drop
	found := false
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %v", ErrNotTribe, err)
		}
		if key != "events" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, nil, fmt.Errorf("%w: %v", ErrNotTribe, err)
			}
			continue
		}
		if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
			return nil, nil, fmt.Errorf("%w: \"events\" is not a list", ErrNotTribe)
		}
		found = true
		for n := 1; dec.More(); n++ {
			line := lines.at(skipSep(doc, int(dec.InputOffset())))
			if n > o.MaxEvents {
				drops = append(drops, source.Drop{Ref: ref, Line: line, Reason: fmt.Sprintf("more than %d events on the page: the rest are ignored", o.MaxEvents)})
				return events, drops, nil
			}
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				drops = append(drops, source.Drop{Ref: ref, Line: line, Reason: "cannot read the rest of the page: " + err.Error()})
				return events, drops, nil
			}
			events, drops = read(raw, base, ref, line, n, events, drops)
		}
		if _, err := dec.Token(); err != nil {
			return events, drops, nil
		}
	}
	if !found {
		// One event, as /events/{id} serves it.
		var probe struct {
			StartDate *string `json:"start_date"`
		}
		if json.Unmarshal(doc, &probe) != nil || probe.StartDate == nil {
			return nil, nil, ErrNotTribe
		}
		events, drops = read(doc, base, ref, lines.at(skipSep(doc, 0)), 1, nil, nil)
	}
	return events, drops, nil
}

// Next returns the next page's URL a page of events names (next_rest_url), or "".
func Next(doc []byte) string {
	var page struct {
		Next string `json:"next_rest_url"`
	}
	if json.Unmarshal(doc, &page) != nil || len(page.Next) > schemaorg.MaxLink {
		return ""
	}
	return page.Next
}

// read adds the event raw, the n-th of the page at line, to events, or its drop to drops.
func read(raw []byte, b *url.URL, ref string, line, n int, events []source.Event, drops []source.Drop) ([]source.Event, []source.Drop) {
	var e event
	if err := json.Unmarshal(raw, &e); err != nil {
		return events, append(drops, source.Drop{Ref: ref, Line: line, Reason: fmt.Sprintf("event #%d: %s", n, clipErr(err))})
	}
	ev := source.Event{Ref: firstOf(schemaorg.Link(b, e.URL), e.GlobalID, schemaorg.Link(b, e.RestURL)), Line: line,
		URL: schemaorg.Link(b, e.URL), Title: text(e.Title), Status: schemaorg.Status(e.JSONLD.EventStatus)}
	if ev.Ref == "" && e.ID != "" {
		ev.Ref = ref + "#id=" + schemaorg.Clip(string(e.ID), 32)
	}
	if ev.Ref == "" {
		ev.Ref = ref + "#" + strconv.Itoa(n-1)
	}
	zone := ianaZone(e.Timezone)
	start, err := when(e.StartDate, e.UTCStartDate, e.AllDay, zone != "")
	var problems []string
	if ev.Title == "" {
		problems = append(problems, "missing title")
	}
	switch {
	case strings.TrimSpace(e.StartDate) == "":
		problems = append(problems, "missing start_date")
	case err != nil:
		problems = append(problems, fmt.Sprintf("cannot read start_date %q: %v", schemaorg.Clip(e.StartDate, schemaorg.MaxQuote), err))
	}
	if st := strings.TrimSpace(e.Status); st != "" && st != "publish" {
		// WordPress lists only published posts; an event the site keeps as a draft, a
		// private post or one its aggregator ignored ("tribe-ignored") is none of its gigs.
		problems = append(problems, fmt.Sprintf("not published (status %q)", schemaorg.Clip(st, schemaorg.MaxQuote)))
	}
	if e.Hidden {
		problems = append(problems, "hidden from the site's listings")
	}
	if len(problems) > 0 {
		who := "#" + strconv.Itoa(n)
		if ev.Title != "" {
			who = strconv.Quote(schemaorg.Clip(ev.Title, schemaorg.MaxQuote))
		}
		return events, append(drops, source.Drop{Ref: ref, Line: line, Reason: fmt.Sprintf("event %s: %s", who, strings.Join(problems, "; "))})
	}
	ev.Start = start
	if !e.AllDay {
		ev.End, _ = when(e.EndDate, e.UTCEndDate, false, zone != "")
	}
	var v venue
	if len(e.Venue) > 0 && e.Venue[0] == '{' && json.Unmarshal(e.Venue, &v) == nil {
		ev.Venue = source.Place{Name: text(v.Venue), Street: text(v.Address), Locality: text(v.City),
			Region: text(firstOf(v.StateProvince, v.State, v.Province)), PostalCode: text(v.Zip),
			Country: text(v.Country), URL: schemaorg.Link(b, v.URL)}
		lat, okLat := schemaorg.Coord(string(v.Lat), 90)
		lon, okLon := schemaorg.Coord(string(v.Lng), 180)
		if okLat && okLon && (lat != 0 || lon != 0) {
			ev.Venue.Lat, ev.Venue.Lon, ev.Venue.HasGeo = lat, lon, true
		}
	}
	ev.Venue.Zone = zone
	for _, c := range e.Categories {
		if t := text(c.Name); t != "" && len(ev.Kinds) < schemaorg.MaxKinds {
			ev.Kinds = append(ev.Kinds, t)
		}
	}
	for _, c := range e.Tags {
		if t := text(c.Name); t != "" && len(ev.Genres) < schemaorg.MaxGenres {
			ev.Genres = append(ev.Genres, t)
		}
	}
	if o, ok := offer(e, b); ok {
		ev.Offers = []source.Offer{o}
	}
	var img struct {
		URL string `json:"url"`
	}
	if len(e.Image) > 0 && e.Image[0] == '{' && json.Unmarshal(e.Image, &img) == nil {
		ev.Image = schemaorg.Link(b, img.URL)
	}
	return append(events, ev), drops
}

// offer is the event's ticket offer: its website and its prices, when it states either.
// The prices are cost_details' values, else the cost text when it is one price ("5 €",
// "$6.00", "Free"; a range of two is left out); the currency is cost_details' code, else
// its symbol ("€", "$"), which the normalizer reads in the venue's country.
func offer(e event, b *url.URL) (source.Offer, bool) {
	o := source.Offer{URL: schemaorg.Link(b, e.Website)}
	var cd costDetails
	if len(e.CostDetails) > 0 && e.CostDetails[0] == '{' {
		_ = json.Unmarshal(e.CostDetails, &cd) // cost details of other shapes state no price
	}
	values := cd.Values
	if len(values) == 0 && e.Cost != "" && costIsPrice(text(e.Cost)) {
		values = []string{text(e.Cost)}
	}
	for _, s := range values {
		p, ok := schemaorg.Price(s)
		if !ok {
			continue
		}
		if !o.HasPrice || p < o.PriceMin {
			o.PriceMin = p
		}
		if !o.HasPrice || p > o.PriceMax {
			o.PriceMax = p
		}
		o.HasPrice = true
	}
	switch {
	case !o.HasPrice:
	case len(cd.CurrencyCode) == 3:
		o.Currency = strings.ToUpper(cd.CurrencyCode)
	case cd.CurrencySymbol != "" && len(cd.CurrencySymbol) <= 8:
		o.Currency = cd.CurrencySymbol
	}
	return o, o.HasPrice || o.URL != ""
}

// when reads a REST date "YYYY-MM-DD HH:MM:SS": venue-local, with the offset its UTC
// twin gives when the site's zone is trusted (an IANA zone); the date alone for an
// all-day event.
func when(local, utc string, allDay, trusted bool) (source.When, error) {
	const layout = "2006-01-02 15:04:05"
	t, err := time.Parse(layout, strings.TrimSpace(local))
	if err != nil {
		d, derr := time.Parse(time.DateOnly, strings.TrimSpace(local))
		if derr != nil {
			return source.When{}, errors.New("not a date and time as YYYY-MM-DD HH:MM:SS")
		}
		return source.When{Wall: d, DateOnly: true}, nil
	}
	if allDay {
		return source.When{Wall: time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC), DateOnly: true}, nil
	}
	w := source.When{Wall: t}
	if u, err := time.Parse(layout, strings.TrimSpace(utc)); err == nil && trusted {
		if off := t.Sub(u); off%time.Minute == 0 && off.Abs() <= 18*time.Hour {
			w.HasOffset, w.Offset = true, int(off/time.Second)
		}
	}
	return w, nil
}

var fixedOffset = regexp.MustCompile(`^(?i:utc|gmt)?\s*[+-]`)

// ianaZone returns tz when it is an IANA zone name ("Europe/Berlin"), "" for WordPress's
// fixed offsets ("UTC+0", "UTC-5") and anything unknown.
func ianaZone(tz string) string {
	tz = strings.TrimSpace(tz)
	if tz == "" || len(tz) > 64 || fixedOffset.MatchString(tz) || !strings.Contains(tz, "/") {
		return ""
	}
	if _, err := time.LoadLocation(tz); err != nil {
		return ""
	}
	return tz
}

// text is the readable text of an HTML-escaped REST string: tags removed, entities
// unescaped, cleaned as schemaorg.Text does.
func text(s string) string {
	return schemaorg.Text(html.UnescapeString(strings.ToValidUTF8(tags.ReplaceAllString(s, " "), "\uFFFD")))
}

var tags = regexp.MustCompile(`<[^>]*>`)

func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

func clipErr(err error) string {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "truncated"
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("%s is not a %s", te.Field, te.Type)
	}
	return "unreadable"
}

// skipSep returns the offset of the first byte at or after off that is not white space or
// a comma: where the next value starts.
func skipSep(doc []byte, off int) int {
	for off < len(doc) && strings.IndexByte(" \t\r\n,", doc[off]) >= 0 {
		off++
	}
	return off
}

// lineIndex holds the offsets where lines start.
type lineIndex []int

func (l lineIndex) at(off int) int {
	i, j := 0, len(l)
	for i < j {
		h := (i + j) / 2
		if l[h] <= off {
			i = h + 1
		} else {
			j = h
		}
	}
	return i
}

func lineIndexOf(doc []byte) lineIndex {
	l := lineIndex{0}
	for i, c := range doc {
		if c == '\n' {
			l = append(l, i+1)
		}
	}
	return l
}

// costIsPrice reports whether a cost text is only a price: digits, separators and a
// currency's sign ("5 €", "$6.00"), or "free"; "21+", "Doors 8pm" and "1.500 Ft" are not.
func costIsPrice(s string) bool {
	if strings.EqualFold(strings.TrimSpace(s), "free") {
		return true
	}
	digits := false
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits = true
		case r == '.' || r == ',' || r == ' ' || r == '-' && strings.HasSuffix(strings.TrimSpace(s), ",-") || unicode.Is(unicode.Sc, r):
		default:
			return false
		}
	}
	return digits
}
