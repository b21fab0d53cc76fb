// Package emulator plays the ticketing platforms for tests, the demo corpus and the bench:
// it serves listings in the HAL, meta, continuation, Bandsintown and Songkick feed shapes,
// paged, filtered and
// with the platforms' refusals, as package loader/platform reads them. It is harness:
// gigsd never imports it.
//
// New(kind, listings, options) serves neutral Listings in a shape, with that
// shape's paging, window filters, sorting, credential check and quirks: HAL string
// coordinates, templated relative next links without the apikey, the size*page cap;
// meta numeric ids, the "03:30:00" placeholder for time_tbd, UTC times without "Z",
// per_page capped at 100, sold out as stats.listing_count 0 without prices; continuation
// name{text,html} with the html escaped, prices as major_value strings, opaque
// continuation tokens bound to the query's window. Instants come from each listing's
// local date and time in its IANA zone (time/tzdata is embedded). What the shapes cannot
// say is lost on the way: HAL keeps two genres and no sold-out for a show that is not on
// sale; meta puts the genres on the first performer; continuation keeps one genre, has no
// performers, postponed or rescheduled, and leaves TimeTBA listings out; Bandsintown has
// no zone, status, price or genre and leaves cancelled and TimeTBA listings out; Songkick
// has no zone, price or genre and calls a rescheduled show ok.
package emulator

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // listings name IANA zones; the emulator must not depend on the host's
)

// Options configure New. Zero fields take the defaults shown.
type Options struct {
	// Key is the credential every request must carry (HAL: apikey query parameter, meta:
	// client_id query parameter, continuation: "Authorization: Bearer <Key>"); "" accepts
	// any request.
	Key string
	// PageSize is the page size when the request names none: HAL 20, meta 10,
	// continuation 50 (continuation requests cannot name one).
	PageSize int
	// MaxPageSize caps the size (HAL) or per_page (meta) a request may ask for; larger
	// requests are served at the cap, which the page object reports: HAL 200, meta 100.
	MaxPageSize int
	// Cap is the HAL paging depth: a request with (page+1)*size over Cap is refused with
	// a 400. Default 1000.
	Cap int
}

// Kind names a feed shape, as loader/platform's Kind does.
type Kind string

// The feed shapes.
const (
	KindHAL          Kind = "hal"
	KindMeta         Kind = "meta"
	KindContinuation Kind = "continuation"
	KindBandsintown  Kind = "bandsintown"
	KindSongkick     Kind = "songkick"
)

// The platforms' limits, as the adapters expect them.
const (
	halPageSize = 200  // the largest size the HAL platform serves
	metaPerPage = 100  // the largest per_page the meta platform serves
	halCap      = 1000 // the HAL platform refuses pages with (page+1)*size over this
)

// The time layouts of the feeds' query parameters.
const (
	halTime  = "2006-01-02T15:04:05Z" // HAL's startDateTime and endDateTime, UTC
	metaTime = "2006-01-02T15:04:05"  // meta's datetime_utc.gte and .lte: UTC without "Z"
	contTime = "2006-01-02T15:04:05Z" // continuation's start_date.range_start and .range_end, UTC
)

// Shapes the records share with the adapters' input.
type (
	name struct {
		Name string `json:"name"`
	}
	contWhen struct {
		Timezone string `json:"timezone"`
		Local    string `json:"local"`
		UTC      string `json:"utc"`
	}
)

// Default emulator page sizes per kind.
var (
	defaultPageSize = map[Kind]int{KindHAL: 20, KindMeta: 10, KindContinuation: 50, KindSongkick: skPerPage}
	maxPageSize     = map[Kind]int{KindHAL: halPageSize, KindMeta: metaPerPage, KindContinuation: 200, KindSongkick: skPerPage}
)

// metaPlaceholder is the clock time the meta platform writes for time_tbd events.
const metaPlaceholder = "03:30:00"

// Check reports whether the listing can be served: it needs an id, a name, a known zone,
// a date, a time unless TimeTBA, a known status (empty means scheduled), and finite
// coordinates and prices.
func (l *Listing) Check() error {
	_, err := l.wall()
	return err
}

var zones sync.Map // zone name -> *time.Location

func loadZone(name string) (*time.Location, error) {
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location), nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, err
	}
	zones.Store(name, loc)
	return loc, nil
}

// wall returns the listing's venue-local start (midnight when TimeTBA) in its zone.
func (l *Listing) wall() (time.Time, error) {
	if l.ID == "" || l.Name == "" {
		return time.Time{}, fmt.Errorf("listing %q: no id or name", l.ID)
	}
	if l.Zone == "" {
		return time.Time{}, fmt.Errorf("listing %q: no zone", l.ID)
	}
	loc, err := loadZone(l.Zone)
	if err != nil {
		return time.Time{}, fmt.Errorf("listing %q: unknown zone %q", l.ID, l.Zone)
	}
	d, err := time.Parse("2006-01-02", l.LocalDate)
	if err != nil {
		return time.Time{}, fmt.Errorf("listing %q: bad local_date %q", l.ID, l.LocalDate)
	}
	var c time.Time
	if !l.TimeTBA {
		if c, err = time.Parse("15:04:05", l.LocalTime); err != nil {
			return time.Time{}, fmt.Errorf("listing %q: bad local_time %q", l.ID, l.LocalTime)
		}
	}
	switch l.Status {
	case "", "scheduled", "cancelled", "postponed", "rescheduled":
	default:
		return time.Time{}, fmt.Errorf("listing %q: unknown status %q", l.ID, l.Status)
	}
	for _, f := range []float64{l.Lat, l.Lon, l.PriceMin, l.PriceMax} {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return time.Time{}, fmt.Errorf("listing %q: a coordinate or price is not a finite number", l.ID)
		}
	}
	return time.Date(d.Year(), d.Month(), d.Day(), c.Hour(), c.Minute(), c.Second(), 0, loc), nil
}

// emuEvent is one listing ready to serve.
type emuEvent struct {
	at   time.Time       // the instant the platform filters and sorts on
	day  string          // the venue-local date, which Bandsintown and Songkick filter on
	id   string          // tie-break for the order
	acts []string        // the listing's performers, which Bandsintown lists by
	json json.RawMessage // the record in the kind's shape
}

// emulator serves listings in one shape. Every field is immutable after New, so
// it is safe for concurrent use.
type emulator struct {
	kind   Kind
	o      Options
	events []emuEvent // sorted by at, then id
}

// New returns a handler that serves listings as the events endpoint of a platform
// of the given kind, at every path but /robots.txt (which allows everything). It pages,
// filters on the start instant (both bounds inclusive), sorts by start, checks the
// credential and refuses bad parameters as the real platforms do. Listings that fail Check
// are left out, as are TimeTBA listings for the continuation kind, which cannot state an
// event without a time. listings is not modified or kept. An unknown kind serves 404s.
func New(kind Kind, listings []Listing, o Options) http.Handler {
	if o.PageSize <= 0 {
		o.PageSize = defaultPageSize[kind]
	}
	if o.MaxPageSize <= 0 {
		o.MaxPageSize = maxPageSize[kind]
	}
	if o.Cap <= 0 {
		o.Cap = halCap
	}
	e := &emulator{kind: kind, o: o}
	for i := range listings {
		l := &listings[i]
		wall, err := l.wall()
		if err != nil {
			continue
		}
		ev := emuEvent{at: wall, day: l.LocalDate, id: l.ID, acts: slices.Clone(l.Performers)}
		switch kind {
		case KindHAL:
			ev.json = mustJSON(halRecord(l, wall))
		case KindMeta:
			if l.TimeTBA {
				c, _ := time.Parse("15:04:05", metaPlaceholder)
				ev.at = time.Date(wall.Year(), wall.Month(), wall.Day(), c.Hour(), c.Minute(), c.Second(), 0, wall.Location())
			}
			ev.json = mustJSON(metaRecord(l, ev.at))
		case KindContinuation:
			if l.TimeTBA {
				continue
			}
			ev.json = mustJSON(contRecord(l, wall))
		case KindBandsintown:
			if l.TimeTBA || l.Status == "cancelled" {
				continue
			}
			ev.json = mustJSON(bitRecord(l))
		case KindSongkick:
			ev.json = mustJSON(skRecord(l, wall))
		}
		e.events = append(e.events, ev)
	}
	slices.SortStableFunc(e.events, func(a, b emuEvent) int {
		return cmp.Or(a.at.Compare(b.at), cmp.Compare(a.id, b.id))
	})
	return e
}

// mustJSON marshals v without escaping <, > and &, as the platforms write JSON.
func mustJSON(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // only plain structs of strings and finite numbers are marshalled
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func (e *emulator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/robots.txt" {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("User-agent: *\nDisallow:\n"))
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		reply(w, http.StatusMethodNotAllowed, "application/json", map[string]string{"error": "method not allowed"})
		return
	}
	switch e.kind {
	case KindHAL:
		e.serveHAL(w, r)
	case KindMeta:
		e.serveMeta(w, r)
	case KindContinuation:
		e.serveContinuation(w, r)
	case KindBandsintown:
		e.serveBandsintown(w, r)
	case KindSongkick:
		e.serveSongkick(w, r)
	default:
		http.NotFound(w, r)
	}
}

// reply writes v as JSON with the status code.
func reply(w http.ResponseWriter, code int, contentType string, v any) {
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// keyOK compares the given credential with the required one in constant time.
func (e *emulator) keyOK(got string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(e.o.Key)) == 1
}

// window returns the events whose instant is in [from, to]; zero bounds are open.
func (e *emulator) window(from, to time.Time) []emuEvent {
	lo, hi := 0, len(e.events)
	if !from.IsZero() {
		lo, _ = slices.BinarySearchFunc(e.events, from, func(ev emuEvent, t time.Time) int { return ev.at.Compare(t) })
	}
	if !to.IsZero() {
		hi, _ = slices.BinarySearchFunc(e.events, to.Add(time.Nanosecond), func(ev emuEvent, t time.Time) int { return ev.at.Compare(t) })
	}
	if lo > hi {
		return nil
	}
	return e.events[lo:hi]
}

// records returns the JSON records of evs.
func records(evs []emuEvent) []json.RawMessage {
	out := make([]json.RawMessage, len(evs))
	for i, ev := range evs {
		out[i] = ev.json
	}
	return out
}

// parseBound reads a window bound; layouts are tried in order. "" is an open bound.
func parseBound(s string, layouts ...string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	for _, l := range layouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("bad date-time %q", s)
}

// intParam reads a non-negative integer query parameter, def when absent.
func intParam(q url.Values, key string, def int) (int, error) {
	s := q.Get(key)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bad %s %q", key, s)
	}
	return n, nil
}

// ---- HAL ----

type (
	halOut struct {
		Embedded *halOutEmbedded `json:"_embedded,omitempty"`
		Links    map[string]any  `json:"_links"`
		Page     halOutPage      `json:"page"`
	}
	halOutEmbedded struct {
		Events []json.RawMessage `json:"events"`
	}
	halOutPage struct {
		Size          int `json:"size"`
		TotalElements int `json:"totalElements"`
		TotalPages    int `json:"totalPages"`
		Number        int `json:"number"`
	}
	halOutEvent struct {
		Name            string              `json:"name"`
		Type            string              `json:"type"`
		ID              string              `json:"id"`
		Test            bool                `json:"test"`
		URL             string              `json:"url"`
		Locale          string              `json:"locale"`
		Images          []halOutImage       `json:"images,omitempty"`
		Sales           *halOutSales        `json:"sales,omitempty"`
		Dates           halOutDates         `json:"dates"`
		Classifications []halOutClass       `json:"classifications,omitempty"`
		PriceRanges     []halOutPrice       `json:"priceRanges,omitempty"`
		Links           map[string]any      `json:"_links"`
		Embedded        halOutEventEmbedded `json:"_embedded"`
	}
	halOutImage struct {
		Ratio  string `json:"ratio"`
		URL    string `json:"url"`
		Width  int    `json:"width"`
		Height int    `json:"height"`
	}
	halOutSales struct {
		Public struct {
			StartDateTime string `json:"startDateTime"`
		} `json:"public"`
	}
	halOutDates struct {
		Start struct {
			LocalDate      string `json:"localDate"`
			LocalTime      string `json:"localTime,omitempty"`
			DateTime       string `json:"dateTime,omitempty"`
			DateTBD        bool   `json:"dateTBD"`
			DateTBA        bool   `json:"dateTBA"`
			TimeTBA        bool   `json:"timeTBA"`
			NoSpecificTime bool   `json:"noSpecificTime"`
		} `json:"start"`
		Timezone         string       `json:"timezone"`
		Status           halOutStatus `json:"status"`
		SpanMultipleDays bool         `json:"spanMultipleDays"`
	}
	halOutStatus struct {
		Code string `json:"code"`
	}
	halOutClass struct {
		Primary  bool `json:"primary"`
		Segment  name `json:"segment"`
		Genre    name `json:"genre"`
		SubGenre name `json:"subGenre"`
		Type     name `json:"type"`
		SubType  name `json:"subType"`
		Family   bool `json:"family"`
	}
	halOutPrice struct {
		Type     string  `json:"type"`
		Currency string  `json:"currency,omitempty"`
		Min      float64 `json:"min"`
		Max      float64 `json:"max"`
	}
	halOutEventEmbedded struct {
		Venues      []halOutVenue      `json:"venues"`
		Attractions []halOutAttraction `json:"attractions,omitempty"`
	}
	halOutVenue struct {
		Name       string `json:"name"`
		Type       string `json:"type"`
		ID         string `json:"id"`
		PostalCode string `json:"postalCode,omitempty"`
		Timezone   string `json:"timezone"`
		City       name   `json:"city"`
		Country    struct {
			CountryCode string `json:"countryCode"`
		} `json:"country"`
		Address *struct {
			Line1 string `json:"line1"`
		} `json:"address,omitempty"`
		Location *struct {
			Longitude string `json:"longitude"`
			Latitude  string `json:"latitude"`
		} `json:"location,omitempty"`
	}
	halOutAttraction struct {
		Name            string        `json:"name"`
		Type            string        `json:"type"`
		Classifications []halOutClass `json:"classifications,omitempty"`
	}
)

func halStatus(l *Listing) string {
	switch l.Status {
	case "cancelled":
		return "canceled"
	case "postponed", "rescheduled":
		return l.Status
	}
	if l.SoldOut {
		return "offsale"
	}
	return "onsale"
}

func halRecord(l *Listing, wall time.Time) halOutEvent {
	ev := halOutEvent{Name: l.Name, Type: "event", ID: l.ID, URL: l.URL, Locale: "en-us"}
	ev.Links = map[string]any{"self": map[string]string{"href": "/discovery/v2/events/" + url.PathEscape(l.ID) + "?locale=en-us"}}
	s := &ev.Dates.Start
	s.LocalDate = l.LocalDate
	if l.TimeTBA {
		s.TimeTBA, s.NoSpecificTime = true, true
	} else {
		s.LocalTime = l.LocalTime
		s.DateTime = wall.UTC().Format(halTime)
	}
	ev.Dates.Timezone = l.Zone
	ev.Dates.Status.Code = halStatus(l)
	if l.Image != "" { // the platform crops one picture to its sizes
		for _, w := range []int{305, 640, 1024} {
			ev.Images = append(ev.Images, halOutImage{Ratio: "16_9", URL: fmt.Sprintf("%s?w=%d", l.Image, w), Width: w, Height: w * 9 / 16})
		}
	}
	if on, err := time.Parse(time.RFC3339, l.OnSale); err == nil {
		ev.Sales = &halOutSales{}
		ev.Sales.Public.StartDateTime = on.UTC().Format(halTime)
	}
	var cls []halOutClass
	if len(l.Genres) > 0 {
		c := halOutClass{Primary: true, Segment: name{"Music"}, Genre: name{l.Genres[0]}, SubGenre: name{"Undefined"},
			Type: name{"Undefined"}, SubType: name{"Undefined"}}
		if len(l.Genres) > 1 {
			c.SubGenre.Name = l.Genres[1]
		}
		cls = []halOutClass{c}
	}
	ev.Classifications = cls
	if l.HasPrice {
		ev.PriceRanges = []halOutPrice{{Type: "standard", Currency: l.Currency, Min: l.PriceMin, Max: l.PriceMax}}
	}
	v := halOutVenue{Name: l.VenueName, Type: "venue", ID: l.VenueID, PostalCode: l.PostalCode, Timezone: l.Zone, City: name{l.City}}
	v.Country.CountryCode = l.Country
	if l.Street != "" {
		v.Address = &struct {
			Line1 string `json:"line1"`
		}{l.Street}
	}
	if l.Lat != 0 || l.Lon != 0 {
		v.Location = &struct {
			Longitude string `json:"longitude"`
			Latitude  string `json:"latitude"`
		}{strconv.FormatFloat(l.Lon, 'f', -1, 64), strconv.FormatFloat(l.Lat, 'f', -1, 64)}
	}
	ev.Embedded.Venues = []halOutVenue{v}
	for _, p := range l.Performers {
		ev.Embedded.Attractions = append(ev.Embedded.Attractions, halOutAttraction{Name: p, Type: "attraction", Classifications: cls})
	}
	return ev
}

// halFault is the gateway's answer to a missing or wrong apikey.
func halFault(w http.ResponseWriter, msg, code string) {
	reply(w, http.StatusUnauthorized, "application/json", map[string]any{
		"fault": map[string]any{"faultstring": msg, "detail": map[string]string{"errorcode": code}},
	})
}

// halError is the API's answer to a bad request.
func halError(w http.ResponseWriter, code, detail string) {
	reply(w, http.StatusBadRequest, "application/json", map[string]any{"errors": []map[string]any{{
		"code": code, "detail": detail, "status": "400",
		"_links": map[string]any{"about": map[string]string{"href": "/discovery/v2/errors.html#" + code}},
	}}})
}

func (e *emulator) serveHAL(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if e.o.Key != "" {
		switch k := q.Get("apikey"); {
		case k == "":
			halFault(w, "Failed to resolve API Key variable request.queryparam.apikey", "steps.oauth.v2.FailedToResolveAPIKey")
			return
		case !e.keyOK(k):
			halFault(w, "Invalid ApiKey", "oauth.v2.InvalidApiKey")
			return
		}
	}
	size, err := intParam(q, "size", e.o.PageSize)
	if err == nil && size == 0 {
		err = errors.New("bad size 0")
	}
	if err != nil {
		halError(w, "DIS1015", "Invalid value for parameter: "+err.Error())
		return
	}
	size = min(size, e.o.MaxPageSize)
	number, err := intParam(q, "page", 0)
	if err != nil {
		halError(w, "DIS1015", "Invalid value for parameter: "+err.Error())
		return
	}
	if number >= e.o.Cap || (number+1)*size > e.o.Cap {
		halError(w, "DIS1035", fmt.Sprintf("API Limits Exceeded: Max paging depth exceeded. (page * size) must be less than %d", e.o.Cap))
		return
	}
	from, err1 := parseBound(q.Get("startDateTime"), halTime)
	to, err2 := parseBound(q.Get("endDateTime"), halTime)
	if err := cmp.Or(err1, err2); err != nil {
		halError(w, "DIS1015", "Query param with date must be of valid format YYYY-MM-DDTHH:mm:ssZ {example: 2020-08-01T14:00:00Z }")
		return
	}
	sel := e.window(from, to)
	total := len(sel)
	pages := (total + size - 1) / size
	out := halOut{Page: halOutPage{Size: size, TotalElements: total, TotalPages: pages, Number: number}}
	if lo := number * size; lo < total {
		out.Embedded = &halOutEmbedded{Events: records(sel[lo:min(lo+size, total)])}
	}
	link := func(n int) map[string]any {
		lq := url.Values{}
		for k, v := range q {
			if k != "apikey" && k != "sort" {
				lq[k] = v
			}
		}
		lq.Set("page", strconv.Itoa(n))
		lq.Set("size", strconv.Itoa(size))
		return map[string]any{"href": r.URL.Path + "?" + lq.Encode() + "{&sort}", "templated": true}
	}
	out.Links = map[string]any{"self": link(number), "first": link(0)}
	if number+1 < pages {
		out.Links["next"] = link(number + 1)
	}
	if pages > 0 {
		out.Links["last"] = link(pages - 1)
	}
	reply(w, http.StatusOK, "application/hal+json;charset=utf-8", out)
}

// ---- meta ----

type (
	metaOut struct {
		Events []json.RawMessage `json:"events"`
		Meta   struct {
			Total       int  `json:"total"`
			Took        int  `json:"took"`
			Page        int  `json:"page"`
			PerPage     int  `json:"per_page"`
			Geolocation *int `json:"geolocation"`
		} `json:"meta"`
	}
	metaOutEvent struct {
		Type          string             `json:"type"`
		ID            json.RawMessage    `json:"id"` // a number when the id is one
		DatetimeUTC   string             `json:"datetime_utc"`
		Venue         metaOutVenue       `json:"venue"`
		DatetimeTBD   bool               `json:"datetime_tbd"`
		Performers    []metaOutPerformer `json:"performers"`
		IsOpen        bool               `json:"is_open"`
		DatetimeLocal string             `json:"datetime_local"`
		TimeTBD       bool               `json:"time_tbd"`
		ShortTitle    string             `json:"short_title"`
		Stats         metaOutStats       `json:"stats"`
		Taxonomies    []metaOutTaxonomy  `json:"taxonomies"`
		URL           string             `json:"url"`
		DateTBD       bool               `json:"date_tbd"`
		Title         string             `json:"title"`
		Status        string             `json:"status"`
		Currency      string             `json:"currency,omitempty"`
	}
	metaOutVenue struct {
		Name            string `json:"name"`
		Address         string `json:"address,omitempty"`
		ExtendedAddress string `json:"extended_address"`
		City            string `json:"city"`
		PostalCode      string `json:"postal_code,omitempty"`
		Country         string `json:"country"`
		Timezone        string `json:"timezone"`
		Location        *struct {
			Lat float64 `json:"lat"`
			Lon float64 `json:"lon"`
		} `json:"location"`
		ID json.RawMessage `json:"id"`
	}
	metaOutPerformer struct {
		Type    string         `json:"type"`
		Name    string         `json:"name"`
		Primary bool           `json:"primary,omitempty"`
		Genres  []metaOutGenre `json:"genres,omitempty"`
	}
	metaOutGenre struct {
		Name    string `json:"name"`
		Slug    string `json:"slug"`
		Primary bool   `json:"primary"`
	}
	metaOutStats struct {
		ListingCount *int     `json:"listing_count"`
		AveragePrice *float64 `json:"average_price"`
		LowestPrice  *float64 `json:"lowest_price"`
		HighestPrice *float64 `json:"highest_price"`
	}
	metaOutTaxonomy struct {
		ID       int    `json:"id"`
		Name     string `json:"name"`
		ParentID *int   `json:"parent_id"`
	}
)

// numberOrString is s as a JSON number when it is a plain integer, else a JSON string.
func numberOrString(s string) json.RawMessage {
	if s != "" && len(s) < 16 && strings.Trim(s, "0123456789") == "" && (s == "0" || s[0] != '0') {
		return json.RawMessage(s)
	}
	return mustJSON(s)
}

func metaRecord(l *Listing, at time.Time) metaOutEvent {
	clock := l.LocalTime
	if l.TimeTBA {
		clock = metaPlaceholder
	}
	ev := metaOutEvent{
		Type: "concert", ID: numberOrString(l.ID), Title: l.Name, ShortTitle: l.Name, URL: l.URL,
		DatetimeLocal: l.LocalDate + "T" + clock, DatetimeUTC: at.UTC().Format(metaTime), TimeTBD: l.TimeTBA,
		Status: "normal", Taxonomies: []metaOutTaxonomy{{ID: 2000000, Name: "concert"}},
	}
	if l.Status != "" && l.Status != "scheduled" {
		ev.Status = l.Status
	}
	ev.Venue = metaOutVenue{
		Name: l.VenueName, Address: l.Street, ExtendedAddress: strings.TrimSpace(l.City + ", " + l.Country),
		City: l.City, PostalCode: l.PostalCode, Country: l.Country, Timezone: l.Zone, ID: numberOrString(l.VenueID),
	}
	if l.Lat != 0 || l.Lon != 0 {
		ev.Venue.Location = &struct {
			Lat float64 `json:"lat"`
			Lon float64 `json:"lon"`
		}{l.Lat, l.Lon}
	}
	ev.Performers = []metaOutPerformer{}
	for i, p := range l.Performers {
		mp := metaOutPerformer{Type: "band", Name: p, Primary: i == 0}
		if i == 0 {
			for j, g := range l.Genres {
				mp.Genres = append(mp.Genres, metaOutGenre{Name: g, Slug: strings.ToLower(strings.ReplaceAll(g, " ", "-")), Primary: j == 0})
			}
		}
		ev.Performers = append(ev.Performers, mp)
	}
	switch {
	case l.SoldOut:
		zero := 0
		ev.Stats.ListingCount = &zero
	case l.HasPrice:
		n := 12
		lo, hi, avg := l.PriceMin, l.PriceMax, math.Round((l.PriceMin+l.PriceMax)*50)/100
		ev.Stats = metaOutStats{ListingCount: &n, AveragePrice: &avg, LowestPrice: &lo, HighestPrice: &hi}
		ev.Currency = l.Currency
	}
	return ev
}

// metaError is the platform's error object.
func metaError(w http.ResponseWriter, code int, msg string) {
	reply(w, code, "application/json", map[string]any{"status": "error", "code": code, "message": msg})
}

func (e *emulator) serveMeta(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if e.o.Key != "" {
		switch k := q.Get("client_id"); {
		case k == "":
			metaError(w, http.StatusUnauthorized, "client_id is required")
			return
		case !e.keyOK(k):
			metaError(w, http.StatusForbidden, "Invalid client_id")
			return
		}
	}
	perPage, err := intParam(q, "per_page", e.o.PageSize)
	if err == nil && perPage == 0 {
		err = errors.New("bad per_page 0")
	}
	if err != nil {
		metaError(w, http.StatusBadRequest, err.Error())
		return
	}
	perPage = min(perPage, e.o.MaxPageSize)
	number, err := intParam(q, "page", 1)
	if err == nil && number == 0 {
		err = errors.New("bad page 0: pages start at 1")
	}
	if err != nil {
		metaError(w, http.StatusBadRequest, err.Error())
		return
	}
	layouts := []string{metaTime, halTime, "2006-01-02"}
	from, err1 := parseBound(q.Get("datetime_utc.gte"), layouts...)
	to, err2 := parseBound(q.Get("datetime_utc.lte"), layouts...)
	if err := cmp.Or(err1, err2); err != nil {
		metaError(w, http.StatusBadRequest, "datetime_utc: "+err.Error())
		return
	}
	sel := e.window(from, to)
	var out metaOut
	out.Events = []json.RawMessage{}
	if number <= len(sel)/perPage+1 {
		if lo := (number - 1) * perPage; lo < len(sel) {
			out.Events = records(sel[lo:min(lo+perPage, len(sel))])
		}
	}
	out.Meta.Total, out.Meta.Took, out.Meta.Page, out.Meta.PerPage = len(sel), 2, number, perPage
	reply(w, http.StatusOK, "application/json; charset=utf-8", out)
}

// ---- continuation ----

type (
	contOut struct {
		Pagination struct {
			ObjectCount  int    `json:"object_count"`
			PageNumber   int    `json:"page_number"`
			PageSize     int    `json:"page_size"`
			PageCount    int    `json:"page_count"`
			Continuation string `json:"continuation,omitempty"`
			HasMoreItems bool   `json:"has_more_items"`
		} `json:"pagination"`
		Events []json.RawMessage `json:"events"`
	}
	contOutEvent struct {
		Name               contOutText      `json:"name"`
		Description        contOutText      `json:"description"`
		ID                 string           `json:"id"`
		URL                string           `json:"url"`
		Start              contWhen         `json:"start"`
		End                *contWhen        `json:"end"`
		Status             string           `json:"status"`
		Currency           string           `json:"currency,omitempty"`
		OnlineEvent        bool             `json:"online_event"`
		IsSeries           bool             `json:"is_series"`
		VenueID            string           `json:"venue_id"`
		Venue              contOutVenue     `json:"venue"`
		CategoryID         string           `json:"category_id"`
		Category           contOutCategory  `json:"category"`
		Subcategory        *contOutCategory `json:"subcategory"`
		TicketAvailability contOutTickets   `json:"ticket_availability"`
	}
	contOutText struct {
		Text *string `json:"text"`
		HTML *string `json:"html"`
	}
	contOutVenue struct {
		Address struct {
			Address1                string  `json:"address_1"`
			Address2                *string `json:"address_2"`
			City                    string  `json:"city"`
			Region                  *string `json:"region"`
			PostalCode              string  `json:"postal_code"`
			Country                 string  `json:"country"`
			Latitude                string  `json:"latitude,omitempty"`
			Longitude               string  `json:"longitude,omitempty"`
			LocalizedAddressDisplay string  `json:"localized_address_display"`
		} `json:"address"`
		ID        string `json:"id"`
		Name      string `json:"name"`
		Latitude  string `json:"latitude,omitempty"`
		Longitude string `json:"longitude,omitempty"`
	}
	contOutCategory struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		ShortName string `json:"short_name,omitempty"`
	}
	contOutTickets struct {
		HasAvailableTickets bool          `json:"has_available_tickets"`
		MinimumTicketPrice  *contOutPrice `json:"minimum_ticket_price"`
		MaximumTicketPrice  *contOutPrice `json:"maximum_ticket_price"`
		IsSoldOut           bool          `json:"is_sold_out"`
		WaitlistAvailable   bool          `json:"waitlist_available"`
	}
	contOutPrice struct {
		Currency   string `json:"currency"`
		Value      int64  `json:"value"`
		MajorValue string `json:"major_value"`
		Display    string `json:"display"`
	}
)

func contPriceOut(v float64, currency string) *contOutPrice {
	major := strconv.FormatFloat(v, 'f', 2, 64)
	return &contOutPrice{Currency: currency, Value: int64(math.Round(v * 100)), MajorValue: major, Display: strings.TrimSpace(major + " " + currency)}
}

func contRecord(l *Listing, wall time.Time) contOutEvent {
	text, markup := l.Name, html.EscapeString(l.Name)
	ev := contOutEvent{
		Name: contOutText{Text: &text, HTML: &markup}, ID: l.ID, URL: l.URL, Status: "live", Currency: l.Currency,
		Start:    contWhen{Timezone: l.Zone, Local: l.LocalDate + "T" + l.LocalTime, UTC: wall.UTC().Format(contTime)},
		VenueID:  l.VenueID,
		Category: contOutCategory{ID: "103", Name: "Music", ShortName: "Music"}, CategoryID: "103",
	}
	if l.Status == "cancelled" {
		ev.Status = "canceled"
	}
	v := &ev.Venue
	v.ID, v.Name = l.VenueID, l.VenueName
	v.Address.Address1, v.Address.City, v.Address.PostalCode, v.Address.Country = l.Street, l.City, l.PostalCode, l.Country
	v.Address.LocalizedAddressDisplay = strings.Join(slices.DeleteFunc([]string{l.Street, l.City, l.PostalCode}, func(s string) bool { return s == "" }), ", ")
	if l.Lat != 0 || l.Lon != 0 {
		lat, lon := strconv.FormatFloat(l.Lat, 'f', -1, 64), strconv.FormatFloat(l.Lon, 'f', -1, 64)
		v.Latitude, v.Longitude, v.Address.Latitude, v.Address.Longitude = lat, lon, lat, lon
	}
	if len(l.Genres) > 0 {
		ev.Subcategory = &contOutCategory{ID: "3001", Name: l.Genres[0]}
	}
	t := &ev.TicketAvailability
	t.IsSoldOut = l.SoldOut
	t.HasAvailableTickets = !l.SoldOut && ev.Status == "live"
	if l.HasPrice {
		t.MinimumTicketPrice = contPriceOut(l.PriceMin, l.Currency)
		t.MaximumTicketPrice = contPriceOut(l.PriceMax, l.Currency)
	}
	return ev
}

// contError is the platform's error object.
func contError(w http.ResponseWriter, code int, errCode, desc string) {
	reply(w, code, "application/json", map[string]any{"status_code": code, "error": errCode, "error_description": desc})
}

// contTokenMAC binds a continuation token to its offset and the query's window.
func contTokenMAC(offset int, q url.Values) string {
	h := sha256.Sum256([]byte(fmt.Sprintf("gigs-emulator\x00%d\x00%s\x00%s", offset, q.Get("start_date.range_start"), q.Get("start_date.range_end"))))
	return hex.EncodeToString(h[:9])
}

func contToken(offset int, q url.Values) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.Itoa(offset) + "." + contTokenMAC(offset, q)))
}

func contOffset(token string, q url.Values) (int, bool) {
	b, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		return 0, false
	}
	off, mac, ok := strings.Cut(string(b), ".")
	n, err := strconv.Atoi(off)
	if !ok || err != nil || n < 0 || subtle.ConstantTimeCompare([]byte(mac), []byte(contTokenMAC(n, q))) != 1 {
		return 0, false
	}
	return n, true
}

func (e *emulator) serveContinuation(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if e.o.Key != "" {
		auth := r.Header.Get("Authorization")
		token, ok := strings.CutPrefix(auth, "Bearer ")
		switch {
		case auth == "":
			contError(w, http.StatusUnauthorized, "NO_AUTH", "An OAuth token is required for all requests")
			return
		case !ok || !e.keyOK(token):
			contError(w, http.StatusUnauthorized, "INVALID_AUTH", "The OAuth token you provided was invalid.")
			return
		}
	}
	layouts := []string{contTime, metaTime}
	from, err1 := parseBound(q.Get("start_date.range_start"), layouts...)
	to, err2 := parseBound(q.Get("start_date.range_end"), layouts...)
	if err := cmp.Or(err1, err2); err != nil {
		contError(w, http.StatusBadRequest, "ARGUMENT_ERROR", "start_date: "+err.Error())
		return
	}
	offset := 0
	if t := q.Get("continuation"); t != "" {
		var ok bool
		if offset, ok = contOffset(t, q); !ok {
			contError(w, http.StatusBadRequest, "INVALID_CONTINUATION_TOKEN", "The continuation token you provided is invalid or does not match this query.")
			return
		}
	}
	sel := e.window(from, to)
	size := e.o.PageSize
	var out contOut
	out.Events = []json.RawMessage{}
	if offset < len(sel) {
		out.Events = records(sel[offset:min(offset+size, len(sel))])
	}
	p := &out.Pagination
	p.ObjectCount, p.PageNumber, p.PageSize, p.PageCount = len(sel), offset/size+1, size, (len(sel)+size-1)/size
	if offset+size < len(sel) {
		p.HasMoreItems, p.Continuation = true, contToken(offset+size, q)
	}
	reply(w, http.StatusOK, "application/json", out)
}

// Listing is one event as a platform holds it, independent of any wire shape. The demo
// generator writes listings; New serves them in a platform's shape.
type Listing struct {
	ID         string   `json:"id"`
	Name       string   `json:"name"` // event title as the platform shows it
	URL        string   `json:"url"`  // the event's page on the platform
	Performers []string `json:"performers,omitempty"`
	// MBIDs are the performers' MusicBrainz ids, by index in Performers ("" or missing
	// where the platform knows none): Bandsintown states the headliner's, Songkick each's.
	MBIDs  []string `json:"mbids,omitempty"`
	Genres []string `json:"genres,omitempty"` // the platform's classification or tags

	VenueID    string  `json:"venue_id"`
	VenueName  string  `json:"venue_name"`
	Street     string  `json:"street,omitempty"`
	City       string  `json:"city"`
	PostalCode string  `json:"postal_code,omitempty"`
	Country    string  `json:"country"` // ISO 3166-1 alpha-2
	Lat        float64 `json:"lat,omitempty"`
	Lon        float64 `json:"lon,omitempty"`
	Zone       string  `json:"zone"` // IANA zone of the venue

	LocalDate string `json:"local_date"`           // YYYY-MM-DD, venue-local
	LocalTime string `json:"local_time,omitempty"` // HH:MM:SS venue-local; empty when TimeTBA
	TimeTBA   bool   `json:"time_tba,omitempty"`

	Status string `json:"status"` // "scheduled", "cancelled", "postponed" or "rescheduled"

	PriceMin float64 `json:"price_min,omitempty"`
	PriceMax float64 `json:"price_max,omitempty"`
	HasPrice bool    `json:"has_price,omitempty"`
	Currency string  `json:"currency,omitempty"`
	SoldOut  bool    `json:"sold_out,omitempty"`

	Image  string `json:"image,omitempty"`   // a picture of the show (HAL states it)
	OnSale string `json:"on_sale,omitempty"` // RFC 3339: public sales open (HAL and Bandsintown state it)
	MinAge string `json:"min_age,omitempty"` // an age restriction as Songkick writes it, "18+"
}
