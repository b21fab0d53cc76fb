package emulator

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gigs/gigs/engine"
)

// Bandsintown and Songkick: the platforms fans follow artists and cities on. Both filter on
// venue-local dates and give times without a zone the adapters can trust.

const (
	skPerPage = 50 // the largest per_page Songkick serves
	dayLayout = "2006-01-02"
)

// countryName is the English name Bandsintown and Songkick write for a country code.
func countryName(code string) string {
	if c, ok := engine.LookupCountry(code); ok {
		return c.Name
	}
	return code
}

// days filters evs on their local date within the "from,to" or min/max bounds ("" is open).
func days(evs []emuEvent, from, to string) []emuEvent {
	var out []emuEvent
	for _, ev := range evs {
		if (from == "" || ev.day >= from) && (to == "" || ev.day <= to) {
			out = append(out, ev)
		}
	}
	return out
}

// checkDay reports whether s is a YYYY-MM-DD date or empty.
func checkDay(s string) bool {
	_, err := time.Parse(dayLayout, s)
	return s == "" || err == nil
}

// ---- Bandsintown ----

type (
	bitOut struct {
		ID             string     `json:"id"`
		ArtistID       string     `json:"artist_id"`
		URL            string     `json:"url"`
		OnSaleDatetime string     `json:"on_sale_datetime"`
		Datetime       string     `json:"datetime"`
		Title          string     `json:"title"`
		Description    string     `json:"description"`
		Venue          bitOutVen  `json:"venue"`
		Lineup         []string   `json:"lineup"`
		Offers         []bitOffer `json:"offers"`
		Artist         *bitArtist `json:"artist,omitempty"`
	}
	// bitArtist is the artist whose events these are, as the API's artist object states
	// it: its name and MusicBrainz id.
	bitArtist struct {
		Name string `json:"name"`
		MBID string `json:"mbid"`
	}
	bitOutVen struct {
		Country   string `json:"country"`
		City      string `json:"city"`
		Latitude  string `json:"latitude"`
		Name      string `json:"name"`
		Region    string `json:"region"`
		Longitude string `json:"longitude"`
	}
	bitOffer struct {
		Type   string `json:"type"`
		URL    string `json:"url"`
		Status string `json:"status"`
	}
)

// bitRecord is a listing as Bandsintown writes it: a local time without a zone, string
// coordinates, the country's English name, no prices, genres or status.
func bitRecord(l *Listing) bitOut {
	onSale := ""
	if on, err := time.Parse(time.RFC3339, l.OnSale); err == nil {
		if loc, err := loadZone(l.Zone); err == nil {
			onSale = on.In(loc).Format("2006-01-02T15:04:05")
		}
	}
	ev := bitOut{ID: l.ID, ArtistID: "1", URL: l.URL, Datetime: l.LocalDate + "T" + l.LocalTime, Title: l.Name, OnSaleDatetime: onSale,
		Lineup: l.Performers, Venue: bitOutVen{Name: l.VenueName, City: l.City, Country: countryName(l.Country)}}
	if ev.Lineup == nil {
		ev.Lineup = []string{}
	}
	if len(l.MBIDs) > 0 && l.MBIDs[0] != "" && len(l.Performers) > 0 {
		ev.Artist = &bitArtist{Name: l.Performers[0], MBID: l.MBIDs[0]}
	}
	if l.Lat != 0 || l.Lon != 0 {
		ev.Venue.Latitude, ev.Venue.Longitude = strconv.FormatFloat(l.Lat, 'f', -1, 64), strconv.FormatFloat(l.Lon, 'f', -1, 64)
	}
	status := "available"
	if l.SoldOut {
		status = "sold out"
	}
	ev.Offers = []bitOffer{{Type: "Tickets", URL: l.URL, Status: status}}
	return ev
}

// serveBandsintown serves /artists/{name}/events (that artist's events) or, at any other
// path, every event; date is "upcoming", "all" or "from,to".
func (e *emulator) serveBandsintown(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if e.o.Key != "" && !e.keyOK(q.Get("app_id")) {
		reply(w, http.StatusForbidden, "application/json", map[string]string{"errorMessage": "[Forbidden] The app_id is not authorized"})
		return
	}
	sel := e.events
	if d := q.Get("date"); d != "" && d != "upcoming" && d != "all" {
		from, to, ok := strings.Cut(d, ",")
		if !ok || !checkDay(from) || !checkDay(to) {
			reply(w, http.StatusBadRequest, "application/json", map[string]string{"errorMessage": fmt.Sprintf("[BadRequest] bad date %q", d)})
			return
		}
		sel = days(sel, from, to)
	}
	if rest, ok := strings.CutPrefix(r.URL.EscapedPath(), "/artists/"); ok {
		name, _, _ := strings.Cut(rest, "/")
		artist, err := url.PathUnescape(name)
		if err != nil {
			reply(w, http.StatusBadRequest, "application/json", map[string]string{"errorMessage": "[BadRequest] bad artist"})
			return
		}
		var mine []emuEvent
		for _, ev := range sel {
			for _, a := range ev.acts {
				if strings.EqualFold(a, artist) {
					mine = append(mine, ev)
					break
				}
			}
		}
		sel = mine
	}
	reply(w, http.StatusOK, "application/json; charset=utf-8", records(sel))
}

// ---- Songkick ----

type (
	skOut struct {
		ResultsPage struct {
			Status  string `json:"status"`
			Results struct {
				Event []json.RawMessage `json:"event,omitempty"`
			} `json:"results"`
			PerPage      int `json:"perPage"`
			Page         int `json:"page"`
			TotalEntries int `json:"totalEntries"`
		} `json:"resultsPage"`
	}
	skOutEvent struct {
		ID          json.RawMessage `json:"id"`
		DisplayName string          `json:"displayName"`
		Type        string          `json:"type"`
		URI         string          `json:"uri"`
		Status      string          `json:"status"`
		Age         *string         `json:"ageRestriction"`
		Popularity  float64         `json:"popularity"`
		Start       skOutWhen       `json:"start"`
		Performance []skOutPerf     `json:"performance"`
		Venue       skOutVenue      `json:"venue"`
		Location    skOutLocation   `json:"location"`
	}
	skOutWhen struct {
		Date     string  `json:"date"`
		Time     *string `json:"time"`
		Datetime *string `json:"datetime"`
	}
	skOutPerf struct {
		ID           int         `json:"id"`
		DisplayName  string      `json:"displayName"`
		Billing      string      `json:"billing"`
		BillingIndex int         `json:"billingIndex"`
		Artist       skOutArtist `json:"artist"`
	}
	skOutArtist struct {
		DisplayName string    `json:"displayName"`
		Identifier  []skOutID `json:"identifier"`
	}
	skOutID struct {
		MBID string `json:"mbid"`
		Href string `json:"href"`
	}
	skOutActor struct {
		DisplayName string `json:"displayName"`
	}
	skOutVenue struct {
		ID          *string    `json:"id"`
		DisplayName string     `json:"displayName"`
		Lat         *float64   `json:"lat"`
		Lng         *float64   `json:"lng"`
		MetroArea   skOutMetro `json:"metroArea"`
	}
	skOutMetro struct {
		DisplayName string     `json:"displayName"`
		Country     skOutActor `json:"country"`
	}
	skOutLocation struct {
		City string   `json:"city"`
		Lat  *float64 `json:"lat"`
		Lng  *float64 `json:"lng"`
	}
)

// skRecord is a listing as Songkick writes it: "Act at Venue (Month D, YYYY)", a null time
// for TimeTBA, a status of ok, cancelled or postponed, the city on one line with its
// country, no prices, genres or zone.
func skRecord(l *Listing, wall time.Time) skOutEvent {
	ev := skOutEvent{ID: numberOrString(l.ID), Type: "Concert", URI: l.URL, Status: "ok",
		DisplayName: fmt.Sprintf("%s at %s (%s)", l.Name, l.VenueName, wall.Format("January 2, 2006")),
		Start:       skOutWhen{Date: l.LocalDate}}
	switch l.Status {
	case "cancelled", "postponed":
		ev.Status = l.Status
	}
	if l.MinAge != "" {
		ev.Age = &l.MinAge
	}
	if !l.TimeTBA {
		clock, dt := l.LocalTime, wall.Format("2006-01-02T15:04:05-0700")
		ev.Start.Time, ev.Start.Datetime = &clock, &dt
	}
	for i, p := range l.Performers {
		billing := "support"
		if i == 0 {
			billing = "headline"
		}
		act := skOutArtist{DisplayName: p, Identifier: []skOutID{}}
		if i < len(l.MBIDs) && l.MBIDs[i] != "" {
			act.Identifier = append(act.Identifier, skOutID{l.MBIDs[i], "http://api.songkick.com/api/3.0/artists/mbid:" + l.MBIDs[i] + ".json"})
		}
		ev.Performance = append(ev.Performance, skOutPerf{ID: i + 1, DisplayName: p, Billing: billing, BillingIndex: i + 1, Artist: act})
	}
	if ev.Performance == nil {
		ev.Performance = []skOutPerf{}
	}
	var id *string
	if l.VenueID != "" {
		id = &l.VenueID
	}
	ev.Venue = skOutVenue{ID: id, DisplayName: l.VenueName, MetroArea: skOutMetro{DisplayName: l.City, Country: skOutActor{countryName(l.Country)}}}
	ev.Location = skOutLocation{City: l.City + ", " + countryName(l.Country)}
	if l.Lat != 0 || l.Lon != 0 {
		lat, lon := l.Lat, l.Lon
		ev.Venue.Lat, ev.Venue.Lng, ev.Location.Lat, ev.Location.Lng = &lat, &lon, &lat, &lon
	}
	return ev
}

// serveSongkick serves a calendar: min_date and max_date filter on local dates, page is
// 1-based, per_page at most 50.
func (e *emulator) serveSongkick(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	fail := func(code int, msg string) {
		reply(w, code, "application/json", map[string]any{"resultsPage": map[string]any{"status": "error", "error": map[string]string{"message": msg}}})
	}
	if e.o.Key != "" && !e.keyOK(q.Get("apikey")) {
		fail(http.StatusUnauthorized, "Invalid or missing apikey")
		return
	}
	perPage, err := intParam(q, "per_page", e.o.PageSize)
	if err == nil && perPage == 0 {
		err = fmt.Errorf("bad per_page 0")
	}
	number, err2 := intParam(q, "page", 1)
	if err2 == nil && number == 0 {
		err2 = fmt.Errorf("bad page 0")
	}
	from, to := q.Get("min_date"), q.Get("max_date")
	if err := cmp.Or(err, err2); err != nil || !checkDay(from) || !checkDay(to) {
		fail(http.StatusBadRequest, fmt.Sprintf("bad paging or dates: %v", err))
		return
	}
	perPage = min(perPage, e.o.MaxPageSize)
	sel := days(e.events, from, to)
	var out skOut
	out.ResultsPage.Status = "ok"
	if lo := (number - 1) * perPage; lo < len(sel) {
		out.ResultsPage.Results.Event = records(sel[lo:min(lo+perPage, len(sel))])
	}
	out.ResultsPage.PerPage, out.ResultsPage.Page, out.ResultsPage.TotalEntries = perPage, number, len(sel)
	reply(w, http.StatusOK, "application/json; charset=utf-8", out)
}
