package platform

import (
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"regexp"
	"strings"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/source"
)

// Continuation shape, after the Eventbrite API v3 event lists.
const contTime = "2006-01-02T15:04:05Z" // start_date.range_start and .range_end, UTC

// contPage is one page of the continuation feed.
type contPage struct {
	Events     []json.RawMessage `json:"events"`
	Pagination *struct {
		ObjectCount  *int   `json:"object_count"`
		PageNumber   int    `json:"page_number"`
		PageSize     int    `json:"page_size"`
		PageCount    int    `json:"page_count"`
		Continuation string `json:"continuation"`
		HasMoreItems bool   `json:"has_more_items"`
	} `json:"pagination"`
}

// contEvent is one record of events, with venue, category, subcategory and
// ticket_availability expanded.
type contEvent struct {
	ID   flexString `json:"id"`
	Name struct {
		Text string `json:"text"`
		HTML string `json:"html"`
	} `json:"name"`
	URL         string   `json:"url"`
	Status      string   `json:"status"`
	Currency    string   `json:"currency"`
	Start       contWhen `json:"start"`
	End         contWhen `json:"end"`
	OnlineEvent bool     `json:"online_event"`
	Venue       *struct {
		Name    string `json:"name"`
		Address struct {
			Address1   string    `json:"address_1"`
			City       string    `json:"city"`
			Region     string    `json:"region"`
			PostalCode string    `json:"postal_code"`
			Country    string    `json:"country"`
			Latitude   flexFloat `json:"latitude"`
			Longitude  flexFloat `json:"longitude"`
		} `json:"address"`
		Latitude  flexFloat `json:"latitude"`
		Longitude flexFloat `json:"longitude"`
	} `json:"venue"`
	Logo *struct {
		URL string `json:"url"`
	} `json:"logo"`
	Category           *name `json:"category"`
	Subcategory        *name `json:"subcategory"`
	TicketAvailability *struct {
		HasAvailableTickets bool       `json:"has_available_tickets"`
		MinimumTicketPrice  *contPrice `json:"minimum_ticket_price"`
		MaximumTicketPrice  *contPrice `json:"maximum_ticket_price"`
		IsSoldOut           bool       `json:"is_sold_out"`
	} `json:"ticket_availability"`
}

type contWhen struct {
	Timezone string `json:"timezone"`
	Local    string `json:"local"`
	UTC      string `json:"utc"`
}

type contPrice struct {
	Currency   string    `json:"currency"`
	MajorValue flexFloat `json:"major_value"` // "25.00": a string on the wire
}

// contInfo is what a continuation page says about the paging.
type contInfo struct {
	Continuation   string
	HasMore        bool
	PageSize       int
	ObjectCount    int
	HasObjectCount bool
	Count          int // records on the page, dropped ones included
}

// parseContinuationPage reads one page of a continuation feed fetched from ref. Unusable
// records become drops with Ref ref and Line their 1-based index; a body that is not a
// continuation page is an error.
func parseContinuationPage(body []byte, ref string) ([]source.Event, []source.Drop, contInfo, error) {
	var p contPage
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, nil, contInfo{}, fmt.Errorf("cannot parse page: %w", err)
	}
	if p.Pagination == nil {
		return nil, nil, contInfo{}, errors.New("cannot parse page: no pagination object")
	}
	pg := p.Pagination
	info := contInfo{
		Continuation: pg.Continuation, HasMore: pg.HasMoreItems, PageSize: pg.PageSize, Count: len(p.Events),
	}
	if pg.ObjectCount != nil {
		info.ObjectCount, info.HasObjectCount = *pg.ObjectCount, true
	}
	if info.PageSize < 0 || info.ObjectCount < 0 {
		return nil, nil, contInfo{}, fmt.Errorf("cannot parse page: negative page_size %d or object_count %d", info.PageSize, info.ObjectCount)
	}
	events, drops := decodeEvents[contEvent](ref, p.Events)
	return events, drops, info, nil
}

// tags matches HTML tags, for titles given only as name.html.
var tags = regexp.MustCompile(`<[^>]*>`)

// event converts a record, or returns why it cannot.
func (r *contEvent) event() (source.Event, string) {
	status := strings.ToLower(strings.TrimSpace(r.Status))
	if status == "draft" {
		return source.Event{}, "draft event"
	}
	title := r.Name.Text
	if strings.TrimSpace(title) == "" {
		title = html.UnescapeString(tags.ReplaceAllString(r.Name.HTML, ""))
	}
	start, err := makeWhen(r.Start.Local, r.Start.UTC, false)
	if reason := checkRecord(string(r.ID), title, err); reason != "" {
		return source.Event{}, reason
	}
	e := pageEvent(string(r.ID), title, r.URL)
	e.Start = start
	if end, err := makeWhen(r.End.Local, r.End.UTC, false); err == nil {
		e.End = end
	}
	switch status {
	case "canceled", "cancelled":
		e.Status = engine.StatusCancelled
	case "postponed":
		e.Status = engine.StatusPostponed
	case "rescheduled":
		e.Status = engine.StatusRescheduled
	default: // "live", "started", "ended", "completed"
		e.Status = engine.StatusScheduled
	}
	if v := r.Venue; v != nil {
		a := v.Address
		e.Venue = source.Place{
			Name: strings.TrimSpace(v.Name), Street: strings.TrimSpace(a.Address1),
			Locality: strings.TrimSpace(a.City), Region: strings.TrimSpace(a.Region),
			PostalCode: strings.TrimSpace(a.PostalCode), Country: strings.TrimSpace(a.Country),
			Zone: strings.TrimSpace(r.Start.Timezone),
		}
		lat, lon := a.Latitude, a.Longitude
		if !lat.OK || !lon.OK {
			lat, lon = v.Latitude, v.Longitude
		}
		geo(&e.Venue, lat, lon)
	}
	if r.Logo != nil {
		e.Image = webURL(r.Logo.URL)
	}
	if r.Category != nil {
		e.Genres = addTag(e.Genres, r.Category.Name)
		e.Kinds = addKind(e.Kinds, r.Category.Name)
	}
	if r.Subcategory != nil {
		e.Genres = addTag(e.Genres, r.Subcategory.Name)
	}
	var lo, hi flexFloat
	var availability string
	currency := r.Currency
	if ta := r.TicketAvailability; ta != nil {
		if ta.MinimumTicketPrice != nil {
			lo = ta.MinimumTicketPrice.MajorValue
			if c := ta.MinimumTicketPrice.Currency; c != "" {
				currency = c
			}
		}
		if ta.MaximumTicketPrice != nil {
			hi = ta.MaximumTicketPrice.MajorValue
		}
		switch {
		case ta.IsSoldOut:
			availability = "sold_out"
		case ta.HasAvailableTickets:
			availability = "in_stock"
		}
	}
	e.Offers = makeOffers(r.URL, lo, hi, currency, availability)
	cancelledOffers(&e)
	return e, ""
}

// maxContinuation caps a continuation token's length: every token is kept to refuse a
// loop and sent back in the next URL, so a feed of long tokens would hold the request
// cap's worth of them (real ones are tens of bytes).
const maxContinuation = 2048

// pageContinuation reads [from, to] by following continuation tokens, refusing a token
// seen before and a short page that claims more items.
func (r *run) pageContinuation(from, to time.Time) error {
	u := *r.a.base
	q := u.Query()
	q.Set("start_date.range_start", from.Format(contTime))
	q.Set("start_date.range_end", to.Format(contTime))
	q.Set("expand", "venue,category,subcategory,ticket_availability")
	var events []source.Event
	var drops []source.Drop
	var first contInfo
	seen := map[string]bool{}
	delivered := 0
	for n := 1; ; n++ {
		u.RawQuery = q.Encode()
		p, err := r.get(&u)
		if err != nil {
			return err
		}
		evs, drs, info, err := parseContinuationPage(p.body, p.ref)
		if err != nil {
			return p.fail("%w", err)
		}
		if n == 1 {
			first = info
		}
		if info.HasObjectCount != first.HasObjectCount || info.ObjectCount != first.ObjectCount {
			return p.fail("object_count changed from %d to %d", first.ObjectCount, info.ObjectCount)
		}
		delivered += info.Count
		if first.HasObjectCount && delivered > first.ObjectCount {
			return p.fail("%d events delivered, more than object_count %d", delivered, first.ObjectCount)
		}
		events, drops = append(events, evs...), append(drops, drs...)
		if err := r.within(len(events)); err != nil {
			return err
		}
		if !info.HasMore {
			if first.HasObjectCount && delivered != first.ObjectCount {
				return p.fail("feed ended after %d events, object_count promised %d", delivered, first.ObjectCount)
			}
			break
		}
		switch {
		case info.Continuation == "":
			return p.fail("has_more_items without a continuation token")
		case len(info.Continuation) > maxContinuation:
			return p.fail("continuation token of %d bytes, over %d", len(info.Continuation), maxContinuation)
		case seen[info.Continuation]:
			return p.fail("continuation token %q repeated: the feed loops", info.Continuation)
		case info.Count == 0:
			return p.fail("empty page with has_more_items")
		case info.PageSize > 0 && info.Count < info.PageSize:
			return p.fail("page has %d events, fewer than page_size %d, yet claims more", info.Count, info.PageSize)
		}
		seen[info.Continuation] = true
		q.Set("continuation", info.Continuation)
	}
	r.keep(events, drops)
	return nil
}
