package platform

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/source"
)

// Meta shape, after the SeatGeek platform API v2 /events.
const (
	metaTime    = "2006-01-02T15:04:05" // datetime_utc.gte and .lte: UTC without "Z"
	metaPerPage = 100                   // the largest per_page the platform serves
)

// metaPage is one page of the meta feed.
type metaPage struct {
	Events []json.RawMessage `json:"events"`
	Meta   *struct {
		Total   int `json:"total"`
		Page    int `json:"page"`
		PerPage int `json:"per_page"`
	} `json:"meta"`
}

// metaEvent is one record of events.
type metaEvent struct {
	ID            flexString `json:"id"`
	Title         string     `json:"title"`
	ShortTitle    string     `json:"short_title"`
	URL           string     `json:"url"`
	DatetimeLocal string     `json:"datetime_local"`
	DatetimeUTC   string     `json:"datetime_utc"`
	TimeTBD       bool       `json:"time_tbd"`
	DateTBD       bool       `json:"date_tbd"`
	DatetimeTBD   bool       `json:"datetime_tbd"`
	Status        string     `json:"status"`
	Venue         *struct {
		Name       string `json:"name"`
		Address    string `json:"address"`
		City       string `json:"city"`
		State      string `json:"state"`
		PostalCode string `json:"postal_code"`
		Country    string `json:"country"`
		Timezone   string `json:"timezone"`
		Location   struct {
			Lat flexFloat `json:"lat"`
			Lon flexFloat `json:"lon"`
		} `json:"location"`
	} `json:"venue"`
	Performers []struct {
		Name    string `json:"name"`
		Primary bool   `json:"primary"`
		Image   string `json:"image"`
		Genres  []name `json:"genres"`
	} `json:"performers"`
	Type       string `json:"type"`
	Taxonomies []name `json:"taxonomies"`
	Stats      *struct {
		ListingCount flexFloat `json:"listing_count"`
		LowestPrice  flexFloat `json:"lowest_price"`
		HighestPrice flexFloat `json:"highest_price"`
	} `json:"stats"`
	Currency string `json:"currency"`
}

// numberedInfo is what a numbered page (meta, Songkick) says about the paging.
type numberedInfo struct {
	Page, PerPage, Total int
	Count                int // records on the page, dropped ones included
}

// parseMetaPage reads one page of a meta feed fetched from ref. Unusable records become
// drops with Ref ref and Line their 1-based index; a body that is not a meta page is an error.
func parseMetaPage(body []byte, ref string) ([]source.Event, []source.Drop, numberedInfo, error) {
	var p metaPage
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, nil, numberedInfo{}, fmt.Errorf("cannot parse page: %w", err)
	}
	if p.Meta == nil {
		return nil, nil, numberedInfo{}, errors.New("cannot parse page: no meta object")
	}
	info := numberedInfo{Page: p.Meta.Page, PerPage: p.Meta.PerPage, Total: p.Meta.Total, Count: len(p.Events)}
	if info.Page < 1 || info.PerPage < 0 || info.Total < 0 {
		return nil, nil, numberedInfo{}, fmt.Errorf("cannot parse page: bad meta %+v", *p.Meta)
	}
	events, drops := decodeEvents[metaEvent](ref, p.Events)
	return events, drops, info, nil
}

// event converts a record, or returns why it cannot. With time_tbd the local time is a
// placeholder, so only the date is kept.
func (r *metaEvent) event() (source.Event, string) {
	if r.DateTBD || r.DatetimeTBD {
		return source.Event{}, "start date to be announced"
	}
	title := r.Title
	if strings.TrimSpace(title) == "" {
		title = r.ShortTitle
	}
	start, err := makeWhen(r.DatetimeLocal, r.DatetimeUTC, r.TimeTBD)
	if reason := checkRecord(string(r.ID), title, err); reason != "" {
		return source.Event{}, reason
	}
	e := pageEvent(string(r.ID), title, r.URL)
	e.Start = start
	switch strings.ToLower(strings.TrimSpace(r.Status)) {
	case "cancelled", "canceled":
		e.Status = engine.StatusCancelled
	case "postponed":
		e.Status = engine.StatusPostponed
	case "rescheduled":
		e.Status = engine.StatusRescheduled
	default: // "normal"
		e.Status = engine.StatusScheduled
	}
	if v := r.Venue; v != nil {
		e.Venue = source.Place{
			Name: strings.TrimSpace(v.Name), Street: strings.TrimSpace(v.Address),
			Locality: strings.TrimSpace(v.City), Region: strings.TrimSpace(v.State),
			PostalCode: strings.TrimSpace(v.PostalCode), Country: strings.TrimSpace(v.Country),
			Zone: strings.TrimSpace(v.Timezone),
		}
		geo(&e.Venue, v.Location.Lat, v.Location.Lon)
	}
	// The primary performer heads the bill; the rest keep their order.
	for pass := range 2 {
		for _, p := range r.Performers {
			n := strings.TrimSpace(p.Name)
			if n == "" || p.Primary != (pass == 0) {
				continue
			}
			if e.Image == "" {
				e.Image = webURL(p.Image) // the headliner's
			}
			var genres []string
			for _, g := range p.Genres {
				genres = addTag(genres, g.Name)
			}
			e.Performers = append(e.Performers, source.Performer{Name: n, Genres: genres})
		}
	}
	e.Kinds = addKind(e.Kinds, r.Type)
	for _, t := range r.Taxonomies {
		e.Genres = addTag(e.Genres, t.Name)
		e.Kinds = addKind(e.Kinds, t.Name)
	}
	var lo, hi flexFloat
	var availability string
	if s := r.Stats; s != nil {
		lo, hi = s.LowestPrice, s.HighestPrice
		switch {
		case s.ListingCount.OK && s.ListingCount.V == 0:
			availability = "sold_out"
		case s.ListingCount.OK && s.ListingCount.V > 0:
			availability = "in_stock"
		}
	}
	e.Offers = makeOffers(r.URL, lo, hi, r.Currency, availability)
	cancelledOffers(&e)
	return e, ""
}

// pageMeta reads [from, to] page by page, checking each page against meta.total.
func (r *run) pageMeta(from, to time.Time) error {
	u := *r.a.base
	q := u.Query()
	q.Set("datetime_utc.gte", from.Format(metaTime))
	q.Set("datetime_utc.lte", to.Format(metaTime))
	q.Set("per_page", strconv.Itoa(metaPerPage))
	q.Set("sort", "datetime_utc.asc")
	return r.pageNumbered(u, q, parseMetaPage)
}

// pageNumbered reads u with q page by page from page 1, checking each page against the
// first's total and per-page count: every page but the last is full and the pages hold
// the total exactly.
func (r *run) pageNumbered(u url.URL, q url.Values, parse func(body []byte, ref string) ([]source.Event, []source.Drop, numberedInfo, error)) error {
	var events []source.Event
	var drops []source.Drop
	var first numberedInfo
	for n := 1; ; n++ {
		q.Set("page", strconv.Itoa(n))
		u.RawQuery = q.Encode()
		p, err := r.get(&u)
		if err != nil {
			return err
		}
		evs, drs, info, err := parse(p.body, p.ref)
		if err != nil {
			return p.fail("%w", err)
		}
		if n == 1 {
			first = info
			if info.Total > 0 && info.PerPage <= 0 {
				return p.fail("%d per page with %d events", info.PerPage, info.Total)
			}
		}
		if info.Page != n {
			return p.fail("got page %d, want %d", info.Page, n)
		}
		if info.Total != first.Total || info.PerPage != first.PerPage {
			return p.fail("paging changed from %d events %d per page to %d events %d per page",
				first.Total, first.PerPage, info.Total, info.PerPage)
		}
		want := max(0, min(info.PerPage, info.Total-(n-1)*info.PerPage))
		if info.Count != want {
			return p.fail("page %d has %d events, want %d of %d in all", n, info.Count, want, info.Total)
		}
		events, drops = append(events, evs...), append(drops, drs...)
		if err := r.within(len(events)); err != nil {
			return err
		}
		if n*info.PerPage >= info.Total {
			break
		}
	}
	r.keep(events, drops)
	return nil
}
