package platform

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/source"
)

// HAL shape, after the Ticketmaster Discovery API v2 event search.
const (
	halTime     = "2006-01-02T15:04:05Z" // startDateTime and endDateTime, UTC
	halPageSize = 200                    // the largest size the platform serves
	halCap      = 1000                   // the platform refuses pages with (page+1)*size over this
)

// halPage is one page of the HAL feed.
type halPage struct {
	Embedded struct {
		Events []json.RawMessage `json:"events"`
	} `json:"_embedded"`
	Links struct {
		Next *struct {
			Href      string `json:"href"`
			Templated bool   `json:"templated"`
		} `json:"next"`
	} `json:"_links"`
	Page *struct {
		Size          int `json:"size"`
		TotalElements int `json:"totalElements"`
		TotalPages    int `json:"totalPages"`
		Number        int `json:"number"`
	} `json:"page"`
}

// halEvent is one record of _embedded.events.
type halEvent struct {
	ID    flexString `json:"id"`
	Name  string     `json:"name"`
	URL   string     `json:"url"`
	Dates struct {
		Start struct {
			LocalDate      string `json:"localDate"`
			LocalTime      string `json:"localTime"`
			DateTime       string `json:"dateTime"`
			DateTBD        bool   `json:"dateTBD"`
			DateTBA        bool   `json:"dateTBA"`
			TimeTBA        bool   `json:"timeTBA"`
			NoSpecificTime bool   `json:"noSpecificTime"`
		} `json:"start"`
		Timezone string `json:"timezone"`
		Status   struct {
			Code string `json:"code"`
		} `json:"status"`
	} `json:"dates"`
	Classifications []halClassification `json:"classifications"`
	Images          []struct {
		URL   string    `json:"url"`
		Ratio string    `json:"ratio"`
		Width flexFloat `json:"width"`
	} `json:"images"`
	Sales struct {
		Public struct {
			StartDateTime string `json:"startDateTime"`
		} `json:"public"`
	} `json:"sales"`
	PriceRanges []struct {
		Type     string    `json:"type"`
		Currency string    `json:"currency"`
		Min      flexFloat `json:"min"`
		Max      flexFloat `json:"max"`
	} `json:"priceRanges"`
	Embedded struct {
		Venues      []halVenue `json:"venues"`
		Attractions []struct {
			Name            string              `json:"name"`
			Classifications []halClassification `json:"classifications"`
		} `json:"attractions"`
	} `json:"_embedded"`
}

type halClassification struct {
	Primary  bool `json:"primary"`
	Segment  name `json:"segment"`
	Genre    name `json:"genre"`
	SubGenre name `json:"subGenre"`
}

type halVenue struct {
	Name       string `json:"name"`
	PostalCode string `json:"postalCode"`
	Timezone   string `json:"timezone"`
	City       name   `json:"city"`
	State      struct {
		Name      string `json:"name"`
		StateCode string `json:"stateCode"`
	} `json:"state"`
	Country struct {
		Name        string `json:"name"`
		CountryCode string `json:"countryCode"`
	} `json:"country"`
	Address struct {
		Line1 string `json:"line1"`
	} `json:"address"`
	Location struct {
		Latitude  flexFloat `json:"latitude"`
		Longitude flexFloat `json:"longitude"`
	} `json:"location"`
}

// halInfo is what a HAL page says about the paging.
type halInfo struct {
	Number, Size, TotalElements, TotalPages int
	Count                                   int    // records on the page, dropped ones included
	Next                                    string // _links.next.href as given, "" when absent
}

// parseHALPage reads one page of a HAL feed fetched from ref. Unusable records become drops
// with Ref ref and Line their 1-based index; a body that is not a HAL page is an error.
func parseHALPage(body []byte, ref string) ([]source.Event, []source.Drop, halInfo, error) {
	var p halPage
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, nil, halInfo{}, fmt.Errorf("cannot parse page: %w", err)
	}
	if p.Page == nil {
		return nil, nil, halInfo{}, errors.New("cannot parse page: no page object")
	}
	info := halInfo{
		Number: p.Page.Number, Size: p.Page.Size, TotalElements: p.Page.TotalElements,
		TotalPages: p.Page.TotalPages, Count: len(p.Embedded.Events),
	}
	if info.Number < 0 || info.Size < 0 || info.TotalElements < 0 || info.TotalPages < 0 {
		return nil, nil, halInfo{}, fmt.Errorf("cannot parse page: negative numbers in page %+v", *p.Page)
	}
	if p.Links.Next != nil {
		info.Next = strings.TrimSpace(p.Links.Next.Href)
	}
	events, drops := decodeEvents[halEvent](ref, p.Embedded.Events)
	return events, drops, info, nil
}

// event converts a record, or returns why it cannot.
func (r *halEvent) event() (source.Event, string) {
	s := r.Dates.Start
	if s.DateTBA || s.DateTBD {
		return source.Event{}, "start date to be announced"
	}
	local := s.LocalDate
	if s.LocalDate != "" && s.LocalTime != "" {
		local += "T" + s.LocalTime
	}
	start, err := makeWhen(local, s.DateTime, s.TimeTBA || s.NoSpecificTime)
	if reason := checkRecord(string(r.ID), r.Name, err); reason != "" {
		return source.Event{}, reason
	}
	e := pageEvent(string(r.ID), r.Name, r.URL)
	e.Start = start
	var availability string
	switch strings.ToLower(strings.TrimSpace(r.Dates.Status.Code)) {
	case "canceled", "cancelled":
		e.Status = engine.StatusCancelled
	case "postponed":
		e.Status = engine.StatusPostponed
	case "rescheduled":
		e.Status = engine.StatusRescheduled
	case "onsale":
		e.Status, availability = engine.StatusScheduled, "in_stock"
	default:
		e.Status = engine.StatusScheduled
	}
	if len(r.Embedded.Venues) > 0 {
		v := r.Embedded.Venues[0]
		e.Venue = source.Place{
			Name: strings.TrimSpace(v.Name), Street: strings.TrimSpace(v.Address.Line1),
			Locality: strings.TrimSpace(v.City.Name), Region: cmp.Or(strings.TrimSpace(v.State.StateCode), strings.TrimSpace(v.State.Name)),
			PostalCode: strings.TrimSpace(v.PostalCode), Country: strings.TrimSpace(v.Country.CountryCode),
			Zone: cmp.Or(strings.TrimSpace(v.Timezone), strings.TrimSpace(r.Dates.Timezone)),
		}
		if e.Venue.Country == "" {
			e.Venue.Country = strings.TrimSpace(v.Country.Name)
		}
		geo(&e.Venue, v.Location.Latitude, v.Location.Longitude)
	}
	for _, a := range r.Embedded.Attractions {
		if n := strings.TrimSpace(a.Name); n != "" {
			e.Performers = append(e.Performers, source.Performer{Name: n, Genres: halGenres(a.Classifications)})
		}
	}
	e.Genres = halGenres(r.Classifications)
	// The widest 16:9 image, else the widest.
	best, bestWide := -1.0, false
	for _, im := range r.Images {
		u, wide := webURL(im.URL), im.Ratio == "16_9"
		if u != "" && (wide && !bestWide || wide == bestWide && im.Width.V > best) {
			e.Image, best, bestWide = u, im.Width.V, wide
		}
	}
	if on, err := makeWhen("", r.Sales.Public.StartDateTime, false); err == nil {
		e.OnSale = on
	}
	for _, c := range r.Classifications {
		e.Kinds = addKind(e.Kinds, c.Segment.Name)
	}
	var lo, hi flexFloat
	var currency string
	if len(r.PriceRanges) > 0 {
		pr := r.PriceRanges[0]
		for _, p := range r.PriceRanges {
			if p.Type == "standard" {
				pr = p
				break
			}
		}
		lo, hi, currency = pr.Min, pr.Max, pr.Currency
	}
	e.Offers = makeOffers(r.URL, lo, hi, currency, availability)
	return e, ""
}

// halGenres takes genre and subGenre of each classification; the segment ("Music") is a
// vertical, not a genre, and "Undefined" means none.
func halGenres(cs []halClassification) []string {
	var tags []string
	for _, c := range cs {
		tags = addTag(tags, c.Genre.Name)
		tags = addTag(tags, c.SubGenre.Name)
	}
	return tags
}

// uriTemplate matches RFC 6570 expressions such as "{&sort}" in templated links.
var uriTemplate = regexp.MustCompile(`\{[^{}]*\}`)

// pageHAL reads [from, to]. A window with more events than the platform pages through is
// split in two, recursively; so is one whose deeper pages the server refuses with a 400.
func (r *run) pageHAL(from, to time.Time) error {
	u := *r.a.base
	q := u.Query()
	q.Set("startDateTime", from.Format(halTime))
	q.Set("endDateTime", to.Format(halTime))
	q.Set("size", strconv.Itoa(halPageSize))
	q.Set("page", "0")
	q.Set("sort", "date,asc")
	u.RawQuery = q.Encode()

	var events []source.Event
	var drops []source.Drop
	var first halInfo
	for n := 0; ; n++ {
		p, err := r.get(&u)
		if err != nil {
			if n > 0 && isStatus(err, 400) {
				return r.splitHAL(from, to, first.TotalElements)
			}
			return err
		}
		evs, drs, info, err := parseHALPage(p.body, p.ref)
		if err != nil {
			return p.fail("%w", err)
		}
		if n == 0 {
			first = info
			if info.TotalElements > halCap {
				return r.splitHAL(from, to, info.TotalElements)
			}
			if info.TotalElements > 0 && (info.Size <= 0 || info.TotalPages != (info.TotalElements+info.Size-1)/info.Size) {
				return p.fail("page %+v: totalPages does not fit totalElements and size", info)
			}
		}
		if info.Number != n {
			return p.fail("got page number %d, want %d", info.Number, n)
		}
		if info.TotalElements != first.TotalElements || info.Size != first.Size || info.TotalPages != first.TotalPages {
			return p.fail("paging changed from %d events in %d pages of %d to %d in %d of %d",
				first.TotalElements, first.TotalPages, first.Size, info.TotalElements, info.TotalPages, info.Size)
		}
		want := 0
		if n < info.TotalPages {
			want = min(info.Size, info.TotalElements-n*info.Size)
		}
		if info.Count != want {
			return p.fail("page %d of %d has %d events, want %d of %d in all", n+1, max(info.TotalPages, 1), info.Count, want, info.TotalElements)
		}
		events, drops = append(events, evs...), append(drops, drs...)
		if err := r.within(len(events)); err != nil {
			return err
		}
		if n+1 >= info.TotalPages {
			break
		}
		if info.Next == "" {
			return p.fail("no next link on page %d of %d", n+1, info.TotalPages)
		}
		next, err := u.Parse(uriTemplate.ReplaceAllString(info.Next, ""))
		if err != nil {
			return p.fail("cannot parse next link %q: %w", info.Next, err)
		}
		if next.Scheme != r.a.base.Scheme || next.Host != r.a.base.Host {
			return p.fail("next link %q leaves %s://%s", info.Next, r.a.base.Scheme, r.a.base.Host)
		}
		// The link leaves out what its template stands for ({&sort}) and the apikey; keep
		// the first request's parameters that it does not set.
		nq := next.Query()
		for k, v := range q {
			if !nq.Has(k) {
				nq[k] = v
			}
		}
		next.RawQuery, next.Fragment = nq.Encode(), ""
		u = *next
	}
	r.keep(events, drops)
	return nil
}

// splitHAL reads [from, to] as two halves, to the second.
func (r *run) splitHAL(from, to time.Time, total int) error {
	if to.Sub(from) < time.Second {
		return fmt.Errorf("cannot read %d events starting from %s to %s: the platform pages through at most %d and the window cannot be narrowed",
			total, from.Format(halTime), to.Format(halTime), halCap)
	}
	mid := from.Add(to.Sub(from) / 2).Truncate(time.Second)
	if err := r.pageHAL(from, mid); err != nil {
		return err
	}
	return r.pageHAL(mid.Add(time.Second), to)
}

// oneListingPerShow joins the records a HAL feed lists for one show. Ticketmaster's feed
// carries a show's inventory on each of its ticketing systems (Ticketmaster, TicketWeb)
// as events of their own, and packages sold with it ("… - Restaurant Tables") too, all
// with the show's venue, start and attractions; each would be a gig of its own, since the
// merge never joins two records of one source (early and late shows stay apart). Records
// at one venue (name, locality and country), with one start time as stated and one first
// attraction are one show: the first keeps its ref, start and fields, takes the shortest
// title (the show's, not a package's), a status other than cancelled when one says so (one
// ticketing system may withdraw its tickets; a cancelled show is cancelled on all), the
// first picture, on-sale time and age limit stated, and every offer: whole from the
// records of that title, the page alone from the others (a package's price is not the
// show's). Records without an attraction or a time (a matinee and an evening show of one
// day) are left alone.
func oneListingPerShow(events []source.Event) []source.Event {
	type show struct {
		venue, locality, country, performer string
		start                               source.When
	}
	first := map[show]int{} // index in out
	var out []source.Event
	var groups [][]int // per out index: the indices in events of its records
	for i := range events {
		e := &events[i]
		if len(e.Performers) == 0 || e.Venue.Name == "" || e.Start.DateOnly {
			out, groups = append(out, *e), append(groups, []int{i})
			continue
		}
		k := show{engine.Fold(e.Venue.Name), engine.Fold(e.Venue.Locality), strings.ToUpper(e.Venue.Country),
			engine.Fold(e.Performers[0].Name), e.Start}
		if j, ok := first[k]; ok {
			groups[j] = append(groups[j], i)
			continue
		}
		first[k] = len(out)
		out, groups = append(out, *e), append(groups, []int{i})
	}
	for j, g := range groups {
		if len(g) == 1 {
			continue
		}
		e := &out[j]
		for _, i := range g[1:] {
			if t := events[i].Title; len(t) < len(e.Title) {
				e.Title = t
			}
		}
		var offers []source.Offer
		for _, i := range g {
			r := &events[i]
			for _, o := range r.Offers {
				if engine.Fold(r.Title) != engine.Fold(e.Title) {
					o = source.Offer{URL: o.URL, Availability: o.Availability}
				}
				if !slices.ContainsFunc(offers, func(x source.Offer) bool { return x == o }) {
					offers = append(offers, o)
				}
			}
			if e.Status == engine.StatusCancelled && r.Status != engine.StatusCancelled {
				e.Status = r.Status
			}
			e.Image = cmp.Or(e.Image, r.Image)
			if e.OnSale.IsZero() {
				e.OnSale = r.OnSale
			}
			if !e.HasMinAge && r.HasMinAge {
				e.MinAge, e.HasMinAge = r.MinAge, true
			}
		}
		e.Offers = offers
	}
	return out
}
