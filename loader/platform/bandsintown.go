package platform

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/gigs/gigs/engine"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/gigs/gigs/loader/source"
)

// Bandsintown shape, after the Bandsintown API v3 artist events: one unpaged JSON array of
// an artist's events per request, times venue-local without an offset.
const bitDate = "2006-01-02" // the date=from,to range

// bitEvent is one record of the array.
type bitEvent struct {
	ID             flexString `json:"id"`
	URL            string     `json:"url"`
	Title          string     `json:"title"`
	Datetime       string     `json:"datetime"`
	StartsAt       string     `json:"starts_at"`
	EndsAt         string     `json:"ends_at"`
	OnSaleDatetime string     `json:"on_sale_datetime"`
	Description    string     `json:"description"`
	Lineup         []string   `json:"lineup"`
	// FestivalStartDate is set on a festival's listing, whose datetime is often its first
	// day at midnight: a placeholder for a time not given.
	FestivalStartDate string `json:"festival_start_date"`
	Artist            *struct {
		Name     string `json:"name"`
		ImageURL string `json:"image_url"`
		MBID     string `json:"mbid"`
	} `json:"artist"`
	// Artists is the bill of the API's version 2, before lineup: objects with a name and
	// the artist's MusicBrainz id (null or "" when unknown).
	Artists []struct {
		Name string     `json:"name"`
		MBID flexString `json:"mbid"`
	} `json:"artists"`
	Venue struct {
		Name          string    `json:"name"`
		StreetAddress string    `json:"street_address"`
		PostalCode    string    `json:"postal_code"`
		City          string    `json:"city"`
		Region        string    `json:"region"`
		Country       string    `json:"country"`
		Latitude      flexFloat `json:"latitude"`
		Longitude     flexFloat `json:"longitude"`
	} `json:"venue"`
	Offers []struct {
		Type   string `json:"type"`
		URL    string `json:"url"`
		Status string `json:"status"`
	} `json:"offers"`
}

// parseBandsintown reads one response fetched from ref: an array of events. An object
// ({"errorMessage": ...}, {"message": ...}) is the platform refusing the request.
func parseBandsintown(body []byte, ref string) ([]source.Event, []source.Drop, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal(body, &raws); err != nil {
		var refusal struct {
			ErrorMessage string `json:"errorMessage"`
			Message      string `json:"message"`
		}
		if json.Unmarshal(body, &refusal) == nil && (refusal.ErrorMessage != "" || refusal.Message != "") {
			return nil, nil, fmt.Errorf("refused: %.200q", refusal.ErrorMessage+refusal.Message)
		}
		return nil, nil, fmt.Errorf("cannot parse response: %w", err)
	}
	events, drops := decodeEvents[bitEvent](ref, raws)
	return events, drops, nil
}

// event converts a record, or returns why it cannot. The title is the record's, else the
// lineup's first act: the platform lists one artist's dates.
func (r *bitEvent) event() (source.Event, string) {
	title := r.Title
	if strings.TrimSpace(title) == "" && len(r.Lineup) > 0 {
		title = r.Lineup[0]
	}
	if strings.TrimSpace(title) == "" && r.Artist != nil {
		title = r.Artist.Name
	}
	start, err := makeWhen(cmp.Or(strings.TrimSpace(r.StartsAt), r.Datetime), "", false)
	if h, m, s := start.Wall.Clock(); err == nil && !start.DateOnly && h+m+s == 0 && strings.TrimSpace(r.FestivalStartDate) != "" {
		start = source.When{Wall: start.Wall, DateOnly: true}
	}
	if reason := checkRecord(string(r.ID), title, err); reason != "" {
		return source.Event{}, reason
	}
	e := pageEvent(string(r.ID), title, r.URL)
	e.Start, e.Status = start, engine.StatusScheduled // the platform lists no other
	e.ActsOnly = true                                 // its lineup is of artists
	if end, err := makeWhen(r.EndsAt, "", false); err == nil {
		e.End = end
	}
	if on, err := makeWhen(r.OnSaleDatetime, "", false); err == nil {
		e.OnSale = on
	}
	v := r.Venue
	e.Venue = source.Place{
		Name: strings.TrimSpace(v.Name), Street: strings.TrimSpace(v.StreetAddress),
		Locality: strings.TrimSpace(v.City), Region: strings.TrimSpace(v.Region),
		PostalCode: strings.TrimSpace(v.PostalCode), Country: strings.TrimSpace(v.Country),
	}
	geo(&e.Venue, v.Latitude, v.Longitude)
	for _, n := range r.Lineup {
		if n = strings.TrimSpace(n); n != "" {
			e.Performers = append(e.Performers, source.Performer{Name: n})
		}
	}
	if len(r.Lineup) == 0 {
		for _, a := range r.Artists {
			n := strings.TrimSpace(a.Name)
			if n != "" && !slices.ContainsFunc(e.Performers, func(p source.Performer) bool { return strings.EqualFold(p.Name, n) }) {
				e.Performers = append(e.Performers, source.Performer{Name: n, MBID: source.MBID(string(a.MBID))})
			}
		}
	}
	if r.Artist != nil {
		e.Image = webURL(r.Artist.ImageURL)
		// The artist whose dates these are: its MBID is that of the act of its name.
		if m := source.MBID(r.Artist.MBID); m != "" {
			for i := range e.Performers {
				if engine.Fold(e.Performers[i].Name) == engine.Fold(r.Artist.Name) {
					e.Performers[i].MBID = m
				}
			}
		}
	}
	for _, o := range r.Offers {
		if !strings.EqualFold(strings.TrimSpace(o.Type), "tickets") {
			continue
		}
		availability := ""
		switch strings.ToLower(strings.TrimSpace(o.Status)) {
		case "available":
			availability = "in_stock"
		case "sold out", "sold_out", "soldout":
			availability = "sold_out"
		}
		e.Offers = append(e.Offers, makeOffers(o.URL, flexFloat{}, flexFloat{}, "", availability)...)
	}
	return e, ""
}

// pageBandsintown reads every configured artist's events in [from, to], one request each.
// The endpoint names the artist with "{artist}" in its path; without it, it is one list.
func (r *run) pageBandsintown(from, to time.Time) error {
	artists := r.a.cfg.Artists
	if !strings.Contains(r.a.cfg.URL, "{artist}") {
		artists = []string{""}
	}
	for _, artist := range artists {
		raw := strings.ReplaceAll(r.a.cfg.URL, "{artist}", url.PathEscape(artist))
		u, err := url.Parse(raw)
		if err != nil {
			return fmt.Errorf("bad url for artist %q: %w", artist, err)
		}
		q := u.Query()
		q.Set("date", from.Format(bitDate)+","+to.Format(bitDate))
		u.RawQuery = q.Encode()
		p, err := r.get(u)
		if err != nil {
			return err
		}
		evs, drs, err := parseBandsintown(p.body, p.ref)
		if err != nil {
			return p.fail("%w", err)
		}
		r.keep(evs, drs)
		if err := r.within(0); err != nil {
			return err
		}
	}
	return nil
}

var errNoArtists = errors.New(`an endpoint with "{artist}" needs artists`)
