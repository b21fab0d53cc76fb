package platform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/source"
)

// flexString reads a JSON string or number as text (ids are numbers on some platforms);
// null reads as "".
type flexString string

func (s *flexString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || string(b) == "null":
		*s = ""
	case b[0] == '"':
		var v string
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		*s = flexString(strings.TrimSpace(v))
	case b[0] == '-' || b[0] >= '0' && b[0] <= '9':
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return err
		}
		*s = flexString(n)
	default:
		return fmt.Errorf("want a string or a number, not %.20s", b)
	}
	return nil
}

// flexFloat reads a JSON number or a string holding one (coordinates and prices are
// strings on some platforms). OK is false for null, "", and values that are not finite.
type flexFloat struct {
	V  float64
	OK bool
}

func (f *flexFloat) UnmarshalJSON(b []byte) error {
	*f = flexFloat{}
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		return nil
	}
	s := string(b)
	if b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		s = strings.TrimSpace(s)
		if s == "" {
			return nil
		}
	} else if b[0] != '-' && (b[0] < '0' || b[0] > '9') {
		return fmt.Errorf("want a number, not %.20s", b)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return nil // unreadable values count as absent, the record stays
	}
	*f = flexFloat{V: v, OK: true}
	return nil
}

// name is the {"name": ...} object platforms use for classifications and places.
type name struct {
	Name string `json:"name"`
}

// decodeEvents decodes a page's records of shape R into events; a record that does not
// decode, or that its event method refuses, is dropped with its position and the reason.
func decodeEvents[R any, P interface {
	*R
	event() (source.Event, string)
}](ref string, raws []json.RawMessage) ([]source.Event, []source.Drop) {
	var events []source.Event
	var drops []source.Drop
	for i, raw := range raws {
		var r R
		if err := decodeRecord(raw, &r); err != nil {
			drops = append(drops, drop(ref, i, err.Error()))
			continue
		}
		e, reason := P(&r).event()
		if reason != "" {
			drops = append(drops, drop(ref, i, reason))
			continue
		}
		events = append(events, e)
	}
	return events, drops
}

// decodeRecord decodes one record of a page's event array into v.
func decodeRecord(raw json.RawMessage, v any) error {
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("cannot decode event: field %q is a json %s", te.Field, te.Value)
		}
		return fmt.Errorf("cannot decode event: %v", err)
	}
	return nil
}

// drop is a record dropped from page ref; i is its 0-based index in the page.
func drop(ref string, i int, reason string) source.Drop {
	return source.Drop{Ref: ref, Line: i + 1, Reason: reason}
}

// Real UTC offsets run from -12:00 to +14:00 in steps of 15 minutes.
const (
	minOffset  = -12 * time.Hour
	maxOffset  = 14 * time.Hour
	offsetStep = 15 * time.Minute
)

// makeWhen builds a When from a venue-local value and a UTC instant as platforms give them.
// With dateOnly (a TBA or placeholder time) only local's date is kept. The offset is
// local minus instant when that is a real offset; otherwise the local time stands alone.
// Without local the instant is used with offset zero. A non-nil error means no usable time.
func makeWhen(local, instant string, dateOnly bool) (source.When, error) {
	local, instant = strings.TrimSpace(local), strings.TrimSpace(instant)
	if local == "" {
		if dateOnly {
			return source.When{}, errors.New("no local date")
		}
		if instant == "" {
			return source.When{}, errors.New("no start time")
		}
		u, err := parseInstant(instant)
		if err != nil {
			return source.When{}, err
		}
		return source.When{Wall: u, HasOffset: true}, nil
	}
	w, err := source.ParseISO(local)
	if err != nil {
		return source.When{}, err
	}
	if dateOnly {
		y, m, d := w.Wall.Date()
		return source.When{Wall: time.Date(y, m, d, 0, 0, 0, 0, time.UTC), DateOnly: true}, nil
	}
	if w.DateOnly || w.HasOffset || instant == "" {
		return w, nil
	}
	u, err := parseInstant(instant)
	if err != nil {
		return w, nil // the local time is usable without its instant
	}
	if off := w.Wall.Sub(u); off >= minOffset && off <= maxOffset && off%offsetStep == 0 {
		w.HasOffset, w.Offset = true, int(off/time.Second)
	}
	return w, nil
}

// parseInstant reads a UTC date-time, with "Z", an offset, or (as some platforms write
// it) nothing; it returns the instant in time.UTC.
func parseInstant(s string) (time.Time, error) {
	w, err := source.ParseISO(s)
	if err != nil {
		return time.Time{}, err
	}
	if w.DateOnly {
		return time.Time{}, fmt.Errorf("cannot parse time %q: no clock time", s)
	}
	return w.Wall.Add(-time.Duration(w.Offset) * time.Second), nil
}

// genericTags are classifications too broad to be a genre; they are left out of Genres.
var genericTags = map[string]bool{
	"": true, "undefined": true, "music": true, "concert": true, "concerts": true, "other": true,
	"others": true, "miscellaneous": true, "misc": true, "various": true, "n/a": true,
}

// addTag appends tag to tags unless it is generic or already there (case-insensitive).
func addTag(tags []string, tag string) []string {
	if genericTags[strings.ToLower(strings.TrimSpace(tag))] {
		return tags
	}
	return addKind(tags, tag)
}

// addKind appends a classification to kinds unless it is empty or already there
// (case-insensitive).
func addKind(tags []string, tag string) []string {
	tag = strings.TrimSpace(tag)
	if tag == "" {
		return tags
	}
	for _, t := range tags {
		if strings.EqualFold(t, tag) {
			return tags
		}
	}
	return append(tags, tag)
}

// webURL returns s when it is an absolute http(s) URL, else "".
func webURL(s string) string {
	s = strings.TrimSpace(s)
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return s
}

// geo sets p's coordinates when both are present and in range; 0,0 counts as absent.
func geo(p *source.Place, lat, lon flexFloat) {
	if !lat.OK || !lon.OK || math.Abs(lat.V) > 90 || math.Abs(lon.V) > 180 || lat.V == 0 && lon.V == 0 {
		return
	}
	p.Lat, p.Lon, p.HasGeo = lat.V, lon.V, true
}

// makeOffers returns the event's one offer on the platform: its page, the stated price range
// and availability. A price needs a finite non-negative minimum or maximum; a missing bound
// takes the other's value and swapped bounds are put right. No offer when nothing is known.
func makeOffers(pageURL string, lo, hi flexFloat, currency, availability string) []source.Offer {
	o := source.Offer{URL: webURL(pageURL), Availability: availability}
	if lo.OK && lo.V < 0 {
		lo.OK = false
	}
	if hi.OK && hi.V < 0 {
		hi.OK = false
	}
	switch {
	case lo.OK && hi.OK:
		o.PriceMin, o.PriceMax = min(lo.V, hi.V), max(lo.V, hi.V)
	case lo.OK:
		o.PriceMin, o.PriceMax = lo.V, lo.V
	case hi.OK:
		o.PriceMin, o.PriceMax = hi.V, hi.V
	}
	if lo.OK || hi.OK {
		o.HasPrice = true
		o.Currency = strings.ToUpper(strings.TrimSpace(currency))
	}
	if o.URL == "" && !o.HasPrice && o.Availability == "" {
		return nil
	}
	return []source.Offer{o}
}

// cancelledOffers clears the availability of a cancelled event's offers: its tickets are
// neither in stock nor sold out.
func cancelledOffers(e *source.Event) {
	if e.Status != engine.StatusCancelled {
		return
	}
	for i := range e.Offers {
		e.Offers[i].Availability = ""
	}
	if len(e.Offers) == 1 && e.Offers[0] == (source.Offer{}) {
		e.Offers = nil
	}
}

// pageEvent starts an event with the fields every shape fills the same way.
func pageEvent(ref, title, pageURL string) source.Event {
	return source.Event{Ref: ref, URL: webURL(pageURL), Title: strings.TrimSpace(title)}
}

// checkRecord returns the reason a record with this id, title and start error is unusable,
// or "".
func checkRecord(id, title string, startErr error) string {
	switch {
	case id == "":
		return "no event id"
	case strings.TrimSpace(title) == "":
		return "no title"
	case startErr != nil:
		return "no usable start: " + lowerFirst(startErr.Error())
	}
	return ""
}

func lowerFirst(s string) string {
	if s != "" && s[0] >= 'A' && s[0] <= 'Z' {
		return string(s[0]+'a'-'A') + s[1:]
	}
	return s
}
