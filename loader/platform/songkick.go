package platform

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/source"
)

// Songkick shape, after the Songkick API 3.0 calendars (metro area, venue, artist):
// resultsPage{status, results{event}, page, perPage, totalEntries}, 1-based pages.
const (
	skDate    = "2006-01-02" // min_date and max_date
	skPerPage = 50           // the largest per_page the platform serves
)

// skPage is one page of a calendar.
type skPage struct {
	ResultsPage *struct {
		Status  string `json:"status"`
		Results struct {
			Event []json.RawMessage `json:"event"`
		} `json:"results"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
		Page         int `json:"page"`
		PerPage      int `json:"perPage"`
		TotalEntries int `json:"totalEntries"`
	} `json:"resultsPage"`
}

// skWhen is a start or an end: the venue-local date, the local time or null, and a
// date-time whose offset the platform gets wrong across daylight saving, so it is unused.
type skWhen struct {
	Date string `json:"date"`
	Time string `json:"time"`
}

// skEvent is one record of results.event.
type skEvent struct {
	ID             flexString `json:"id"`
	DisplayName    string     `json:"displayName"`
	Type           string     `json:"type"`
	URI            string     `json:"uri"`
	Status         string     `json:"status"`
	AgeRestriction string     `json:"ageRestriction"`
	Start          skWhen     `json:"start"`
	End            *skWhen    `json:"end"`
	Performance    []struct {
		DisplayName  string `json:"displayName"`
		Billing      string `json:"billing"`
		BillingIndex int    `json:"billingIndex"`
		Artist       struct {
			DisplayName string `json:"displayName"`
			// Identifier holds the artist's MusicBrainz ids: several when the platform
			// is not sure which is right (its documentation says so), and then none
			// counts.
			Identifier []struct {
				MBID string `json:"mbid"`
			} `json:"identifier"`
		} `json:"artist"`
	} `json:"performance"`
	Venue struct {
		ID          flexString `json:"id"`
		DisplayName string     `json:"displayName"`
		Street      string     `json:"street"`
		Zip         string     `json:"zip"`
		Lat         flexFloat  `json:"lat"`
		Lng         flexFloat  `json:"lng"`
		MetroArea   struct {
			DisplayName string `json:"displayName"`
			State       name2  `json:"state"`
			Country     name2  `json:"country"`
		} `json:"metroArea"`
	} `json:"venue"`
	Location struct {
		City string    `json:"city"`
		Lat  flexFloat `json:"lat"`
		Lng  flexFloat `json:"lng"`
	} `json:"location"`
}

// name2 is the {"displayName": ...} object of Songkick's places.
type name2 struct {
	DisplayName string `json:"displayName"`
}

// parseSongkickPage reads one calendar page fetched from ref.
func parseSongkickPage(body []byte, ref string) ([]source.Event, []source.Drop, numberedInfo, error) {
	var p skPage
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, nil, numberedInfo{}, fmt.Errorf("cannot parse page: %w", err)
	}
	rp := p.ResultsPage
	switch {
	case rp == nil:
		return nil, nil, numberedInfo{}, errors.New("cannot parse page: no resultsPage object")
	// Songkick's documented example response (net-songkick's t/06-requests.t) has no
	// status: its results are read.
	case rp.Status != "ok" && (rp.Status != "" || rp.Error != nil):
		msg := ""
		if rp.Error != nil {
			msg = rp.Error.Message
		}
		return nil, nil, numberedInfo{}, fmt.Errorf("status %.40q: %.200q", rp.Status, msg)
	case rp.Page < 0 || rp.PerPage < 0 || rp.TotalEntries < 0:
		return nil, nil, numberedInfo{}, fmt.Errorf("cannot parse page: negative paging %d/%d/%d", rp.Page, rp.PerPage, rp.TotalEntries)
	}
	info := numberedInfo{Page: rp.Page, PerPage: rp.PerPage, Total: rp.TotalEntries, Count: len(rp.Results.Event)}
	events, drops := decodeEvents[skEvent](ref, rp.Results.Event)
	return events, drops, info, nil
}

// skDateSuffix matches the date Songkick appends to titles: "X at Y (August 7, 2013)".
var skDateSuffix = regexp.MustCompile(`\s*\([A-Za-z]+ \d{1,2}, \d{4}\)\s*$`)

// event converts a record, or returns why it cannot. The platform's titles are "X at
// Venue (date)" or a festival's name; the venue and the date are left out.
func (r *skEvent) event() (source.Event, string) {
	title := skDateSuffix.ReplaceAllString(r.DisplayName, "")
	local := strings.TrimSpace(r.Start.Date)
	tba := strings.TrimSpace(r.Start.Time) == ""
	if !tba && local != "" {
		local += "T" + strings.TrimSpace(r.Start.Time)
	}
	start, err := makeWhen(local, "", tba)
	if reason := checkRecord(string(r.ID), title, err); reason != "" {
		return source.Event{}, reason
	}
	if v := strings.TrimSpace(r.Venue.DisplayName); v != "" && len(title) > len(v)+4 && strings.EqualFold(title[len(title)-len(v)-4:], " at "+v) {
		title = title[:len(title)-len(v)-4]
	}
	e := pageEvent(string(r.ID), title, r.URI)
	e.Start = start
	if r.End != nil && strings.TrimSpace(r.End.Date) != "" {
		end := strings.TrimSpace(r.End.Date)
		if t := strings.TrimSpace(r.End.Time); t != "" {
			end += "T" + t
		}
		if w, err := makeWhen(end, "", false); err == nil {
			e.End = w
		}
	}
	switch strings.ToLower(strings.TrimSpace(r.Status)) {
	case "cancelled", "canceled":
		e.Status = engine.StatusCancelled
	case "postponed":
		e.Status = engine.StatusPostponed
	default: // "ok"
		e.Status = engine.StatusScheduled
	}
	e.Kinds = addKind(nil, r.Type) // "Concert" or "Festival"
	e.MinAge, e.HasMinAge = source.ParseAge(r.AgeRestriction)
	v := r.Venue
	e.Venue = source.Place{
		Name: strings.TrimSpace(v.DisplayName), Street: strings.TrimSpace(v.Street), PostalCode: strings.TrimSpace(v.Zip),
		Locality: strings.TrimSpace(r.Location.City), Region: strings.TrimSpace(v.MetroArea.State.DisplayName),
		Country: strings.TrimSpace(v.MetroArea.Country.DisplayName),
	}
	if v.ID == "" && strings.EqualFold(e.Venue.Name, "unknown venue") {
		e.Venue.Name = "" // the platform's placeholder: no venue is known
	}
	geo(&e.Venue, v.Lat, v.Lng)
	if !e.Venue.HasGeo {
		geo(&e.Venue, r.Location.Lat, r.Location.Lng)
	}
	// Headliners first, in billing order; the rest keep theirs.
	for pass := range 2 {
		for _, p := range r.Performance {
			n := strings.TrimSpace(p.Artist.DisplayName)
			if n == "" {
				n = strings.TrimSpace(p.DisplayName)
			}
			if n == "" || (p.Billing == "headline") != (pass == 0) {
				continue
			}
			mbid := ""
			for _, id := range p.Artist.Identifier {
				if m := source.MBID(id.MBID); m != "" && mbid == "" {
					mbid = m
				} else if m != "" && m != mbid {
					mbid = "" // the platform is not sure which
					break
				}
			}
			e.Performers = append(e.Performers, source.Performer{Name: n, MBID: mbid})
		}
	}
	if e.URL != "" {
		e.Offers = []source.Offer{{URL: e.URL}}
	}
	return e, ""
}

// pageSongkick reads [from, to] page by page, checking each page against totalEntries.
func (r *run) pageSongkick(from, to time.Time) error {
	u := *r.a.base
	q := u.Query()
	q.Set("min_date", from.Format(skDate))
	q.Set("max_date", to.Format(skDate))
	q.Set("per_page", strconv.Itoa(skPerPage))
	return r.pageNumbered(u, q, parseSongkickPage)
}
