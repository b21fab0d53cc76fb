package demo_test

import (
	"bytes"
	"html"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gigs/gigs/loader/places"
	"github.com/gigs/gigs/loader/source"
)

// event is one JSON-LD event of a working site, as the JSON-LD tests read it.
type event struct {
	source string // source name
	origin string // "http://host/"
	m      map[string]any
}

func (e event) str(key string) string { s, _ := e.m[key].(string); return s }

// broken returns the source names of the broken sites.
func broken(c *corpusFiles) map[string]string {
	byURL := map[string]string{}
	for _, f := range c.faults {
		byURL[f.URL] = f.Kind
	}
	out := map[string]string{}
	for _, v := range c.cfg.Venues {
		origin := v.URL[:strings.Index(v.URL[len("http://"):], "/")+len("http://")+1]
		if k := byURL[v.URL]; k != "" {
			out[v.Name] = k
		} else if k := byURL[origin+"robots.txt"]; k != "" {
			out[v.Name] = k
		}
	}
	return out
}

// jsonLDEvents returns the events of the working JSON-LD sites.
func jsonLDEvents(c *corpusFiles) []event {
	bad := broken(c)
	var out []event
	for _, v := range c.cfg.Venues {
		if v.Format != "jsonld" || bad[v.Name] != "" {
			continue
		}
		origin := v.URL[:strings.Index(v.URL[len("http://"):], "/")+len("http://")+1]
		for _, r := range c.records[v.Name] {
			out = append(out, event{v.Name, origin, r.m})
		}
	}
	return out
}

func TestCorpusEvents(t *testing.T) {
	events := jsonLDEvents(shared.files)
	today := defaultOpts.Today.UTC().Format("2006-01-02")
	threeDaysBefore := defaultOpts.Today.UTC().AddDate(0, 0, -4).Format("2006-01-02")
	var upcoming, past, dateOnly, doors, ends, noStatus, noID int
	statuses := map[string]int{}
	ids := map[string]bool{}
	for _, e := range events {
		id := e.str("@id")
		if id == "" {
			noID++
		} else if abs := resolve(e.origin, id); !strings.HasPrefix(abs, e.origin) || ids[abs] {
			t.Errorf("%s: bad or repeated @id %q", e.source, id)
		} else {
			ids[abs] = true
		}
		start, err := source.ParseISO(e.str("startDate"))
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if d := start.Wall.Format("2006-01-02"); d >= today {
			upcoming++
		} else if d >= threeDaysBefore {
			past++
		} else {
			t.Errorf("%s: starts %s, long before Today", id, d)
		}
		if start.DateOnly {
			dateOnly++
		}
		if e.m["doorTime"] != nil {
			doors++
		}
		if e.m["endDate"] != nil {
			ends++
		}
		st := strings.TrimPrefix(e.str("eventStatus"), "https://schema.org/")
		if st == "" {
			noStatus++
		}
		statuses[st]++
		if st == "EventPostponed" || st == "EventRescheduled" {
			prev, err := source.ParseISO(e.str("previousStartDate"))
			if err != nil {
				t.Errorf("%s: %s without a valid previousStartDate: %v", id, st, err)
			} else if st == "EventRescheduled" && !prev.Wall.Before(start.Wall) {
				t.Errorf("%s: rescheduled from %s to the earlier %s", id, prev.Wall, start.Wall)
			}
		}
	}
	n := len(events)
	if past < 5 || past > 80 {
		t.Errorf("%d shows just before Today, want a handful", past)
	}
	if share := float64(noID) / float64(n); share < 0.05 || share > 0.3 {
		t.Errorf("%.0f%% of JSON-LD events without @id, want most with one and some without", 100*share)
	}
	if dateOnly < n*2/100 || statuses["EventCancelled"] < n*2/100 || statuses["EventPostponed"] < n/100 || statuses["EventRescheduled"] == 0 {
		t.Errorf("of %d events: %d date-only, statuses %v", n, dateOnly, statuses)
	}
	if statuses["EventScheduled"] == 0 || noStatus == 0 {
		t.Errorf("want scheduled events both with and without eventStatus, got %d and %d", statuses["EventScheduled"], noStatus)
	}
	if share := float64(doors) / float64(n); share < 0.3 || share > 0.7 {
		t.Errorf("doorTime on %.0f%% of events, want about half", 100*share)
	}
	if ends == 0 || ends > n/2 {
		t.Errorf("endDate on %d of %d events, want some", ends, n)
	}
}

// venueOf resolves an event's location with the places gazetteer.
func venueOf(t *testing.T, e event) *places.City {
	t.Helper()
	loc, _ := e.m["location"].(map[string]any)
	addr, _ := loc["address"].(map[string]any)
	country := addr["addressCountry"]
	if obj, ok := country.(map[string]any); ok {
		country = obj["name"]
	}
	name, _ := country.(string)
	code, ok := places.Country(html.UnescapeString(name))
	if !ok {
		t.Fatalf("%s: unknown country %q", e.source, name)
	}
	locality, _ := addr["addressLocality"].(string)
	c, err := places.LookupCity(html.UnescapeString(locality), code)
	if err != nil {
		t.Fatalf("%s: %v", e.source, err)
	}
	for _, k := range []string{"streetAddress", "postalCode"} {
		if s, _ := addr[k].(string); s == "" {
			t.Errorf("%s: address without %s", e.source, k)
		}
	}
	return c
}

// currencies are the ISO 4217 codes of the countries the corpus uses.
var currencies = map[string]string{
	"GB": "GBP", "IE": "EUR", "DE": "EUR", "NL": "EUR", "FR": "EUR", "ES": "EUR", "PT": "EUR",
	"AT": "EUR", "DK": "DKK", "SE": "SEK", "NO": "NOK", "PL": "PLN", "CZ": "CZK", "CH": "CHF",
	"IS": "ISK", "US": "USD", "CA": "CAD", "MX": "MXN", "BR": "BRL", "AR": "ARS", "JP": "JPY",
	"KR": "KRW", "IN": "INR", "NP": "NPR", "AU": "AUD", "BE": "EUR", "LU": "EUR", "IT": "EUR",
	"FI": "EUR", "EE": "EUR", "LV": "EUR", "LT": "EUR", "SK": "EUR", "HU": "HUF", "SI": "EUR",
	"HR": "EUR", "RS": "RSD", "RO": "RON", "GR": "EUR", "TR": "TRY", "CO": "COP", "PE": "PEN",
	"CL": "CLP", "UY": "UYU", "TW": "TWD", "TH": "THB", "SG": "SGD", "NZ": "NZD", "ZA": "ZAR",
}

// checkCurrency checks that an event's offers are in its country's currency, on its host.
func checkCurrency(t *testing.T, e event, country string) {
	t.Helper()
	var offers []any
	switch o := e.m["offers"].(type) {
	case map[string]any:
		offers = []any{o}
	case []any:
		offers = o
	}
	for _, o := range offers {
		o := o.(map[string]any)
		url, _ := o["url"].(string)
		if o["priceCurrency"] != currencies[country] || !strings.HasPrefix(url, e.origin) {
			t.Errorf("%s in %s: offer in %v at %q", e.str("@id"), country, o["priceCurrency"], url)
		}
	}
}

func TestCorpusPlacesAndZones(t *testing.T) {
	events := jsonLDEvents(shared.files)
	citySet, countrySet := map[string]bool{}, map[string]bool{}
	offsets := map[int]int{} // seconds east → events stated with it
	byVenue := map[string][]source.When{}
	cityOf := map[string]*places.City{}
	for _, e := range events {
		c := venueOf(t, e)
		citySet[c.Slug], countrySet[c.Country] = true, true
		cityOf[e.source] = c
		checkCurrency(t, e, c.Country)
		start, _ := source.ParseISO(e.str("startDate"))
		byVenue[e.source] = append(byVenue[e.source], start)
		if !start.HasOffset {
			continue
		}
		offsets[start.Offset]++
		w := start.Wall
		if _, off := time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), 0, 0, c.Location).Zone(); off != start.Offset {
			t.Errorf("%s: startDate %s states offset %d, zone %s has %d", e.str("@id"), e.str("startDate"), start.Offset, c.Timezone, off)
		}
	}
	if len(citySet) < 60 || len(countrySet) < 30 {
		t.Errorf("JSON-LD venues in %d cities in %d countries, want at least 60 in 30", len(citySet), len(countrySet))
	}
	for _, want := range []string{"kathmandu", "st-johns", "london-gb", "london-ca", "sao-paulo", "sydney", "tokyo", "mumbai", "bengaluru"} {
		if !citySet[want] {
			t.Errorf("no JSON-LD venue in %s", want)
		}
	}
	for _, off := range []int{5*3600 + 1800, 5*3600 + 2700, -(3*3600 + 1800)} {
		if offsets[off] == 0 {
			t.Errorf("no startDate with offset %+d s", off)
		}
	}

	// Every venue in a zone with a change inside the horizon has an evening show that day;
	// some club set starts within the hour after a spring-forward change, without offset.
	afterSpring := 0
	y, m, today := defaultOpts.Today.UTC().Date()
	for slug, starts := range byVenue {
		loc := cityOf[slug].Location
		for d := range 180 {
			day := time.Date(y, m, today+d, 0, 0, 0, 0, loc)
			_, before := day.Zone()
			_, after := day.Add(24*time.Hour - time.Minute).Zone()
			if before == after {
				continue
			}
			changed, _ := time.Date(y, m, today+d, 12, 0, 0, 0, loc).ZoneBounds()
			evening := false
			for _, s := range starts {
				w := s.Wall
				if w.Format("2006-01-02") != day.Format("2006-01-02") || s.DateOnly {
					continue
				}
				evening = evening || w.Hour() >= 17
				at := time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), 0, 0, loc)
				if after > before && !s.HasOffset && !at.Before(changed) && at.Before(changed.Add(time.Hour)) {
					afterSpring++
				}
			}
			if !evening {
				t.Errorf("%s: no evening show on %s, when %s changes offset", slug, day.Format("2006-01-02"), loc)
			}
		}
	}
	if afterSpring == 0 {
		t.Error("no show starts, without offset, in the hour after a spring-forward change")
	}
}

func TestCorpusVariety(t *testing.T) {
	seen := map[string]bool{}
	note := func(cond bool, what string) {
		if cond {
			seen[what] = true
		}
	}
	bad := broken(shared.files)
	perVenue := map[string]int{}
	for _, v := range shared.files.cfg.Venues {
		if v.Format != "jsonld" || bad[v.Name] != "" {
			continue
		}
		page := string(shared.files.raw[v.Name])
		blocks, evs := 0, 0
		for _, m := range ldScript.FindAllStringSubmatch(page, -1) {
			if strings.Contains(m[1], `"startDate"`) {
				blocks++
			}
			evs += strings.Count(m[1], `"startDate"`)
			note(strings.HasPrefix(strings.TrimSpace(m[1]), "[") && strings.Contains(m[1], "startDate"), "array block")
			note(strings.Contains(m[1], `"@graph"`), "@graph")
			note(strings.Contains(m[1], `"WebPage"`) && strings.Contains(m[1], `"mainEntity"`), "WebPage.mainEntity")
		}
		note(blocks > 1, "one script per event")
		if !strings.Contains(page, "<title>") || !strings.Contains(page, `<ul class="listing">`) {
			t.Errorf("%s: page has no title or no show list", v.Name)
		}
		note(strings.Contains(page, "<SCRIPT"), "uppercase SCRIPT")
		note(strings.Contains(page, `<script data-rh="true" type=`), "reordered attributes")
	}
	for _, e := range jsonLDEvents(shared.files) {
		perVenue[e.source]++
		note(strings.Contains(e.str("name"), "&amp;"), "&amp; in JSON-LD")
		_, typeArray := e.m["@type"].([]any)
		note(typeArray, "@type array")
		id := e.str("@id")
		note(strings.HasPrefix(id, "http://"), "absolute @id")
		note(strings.HasPrefix(id, "/"), "relative @id")
		note(strings.HasPrefix(id, "#"), "fragment @id")
		note(id == "", "no @id")
		switch p := e.m["performer"].(type) {
		case string:
			note(true, "performer text")
		case map[string]any:
			note(true, "performer object")
		case []any:
			_, obj := p[0].(map[string]any)
			note(obj && len(p) > 1, "performer array")
			if obj {
				_, tags := p[0].(map[string]any)["genre"].([]any)
				note(tags, "performer genres")
			}
		}
		note(e.m["genre"] != nil, "event genre")
		note(e.m["offers"] == nil, "no offers")
		switch o := e.m["offers"].(type) {
		case map[string]any:
			note(o["@type"] == "AggregateOffer" && o["lowPrice"] != nil && o["highPrice"] != nil, "AggregateOffer")
			_, text := o["price"].(string)
			_, num := o["price"].(float64)
			note(text, "price string")
			note(num, "price number")
			note(o["availability"] == "https://schema.org/SoldOut", "sold out")
			note(o["availability"] == "https://schema.org/LimitedAvailability", "limited")
		case []any:
			note(len(o) > 1, "offer array")
		}
		loc := e.m["location"].(map[string]any)
		geo := loc["geo"].(map[string]any)
		_, latText := geo["latitude"].(string)
		note(latText, "geo strings")
		note(!latText, "geo numbers")
		_, countryObj := loc["address"].(map[string]any)["addressCountry"].(map[string]any)
		note(countryObj, "country object")
		start, _ := source.ParseISO(e.str("startDate"))
		note(start.Wall.Hour() == 23, "23:00 club night")
		note(start.Wall.Hour() == 0 && start.Wall.Minute() == 30, "00:30 start")
		note(strings.Contains(e.str("name"), "(Early Show)"), "early show")
		note(strings.Contains(e.str("name"), "a tribute to") || strings.Contains(e.str("name"), "Tribute to"), "tribute act")
	}
	for _, want := range []string{
		"array block", "@graph", "WebPage.mainEntity", "one script per event", "uppercase SCRIPT",
		"reordered attributes", "&amp; in JSON-LD", "@type array", "absolute @id", "relative @id",
		"fragment @id", "no @id", "performer text", "performer object", "performer array",
		"performer genres", "event genre", "no offers", "AggregateOffer", "price string",
		"price number", "sold out", "limited", "offer array", "geo strings", "geo numbers",
		"country object", "23:00 club night", "00:30 start", "early show",
	} {
		if !seen[want] {
			t.Errorf("JSON-LD pages have no %s", want)
		}
	}
	sizes := slices.Sorted(func(yield func(int) bool) {
		for _, n := range perVenue {
			if !yield(n) {
				return
			}
		}
	})
	if sizes[0] > 10 || sizes[len(sizes)-1] < 80 {
		t.Errorf("venue sizes %d–%d, want small venues with a few shows and busy ones with 80+", sizes[0], sizes[len(sizes)-1])
	}
}

func TestCorpusArtists(t *testing.T) {
	type night struct{ name, date string }
	where := map[night]string{}
	headlines := map[string]int{}
	cities := map[string]map[string]bool{}
	names := map[string]bool{}
	bad := broken(shared.files)
	for src, recs := range shared.files.records {
		if bad[src] == "wrong-charset" {
			continue
		}
		for _, r := range recs {
			w, err := source.ParseISO(r.start)
			if err != nil { // iCal: 20261201T200000, 20261201T190000Z or 20261201
				s := r.start
				if len(s) >= 8 {
					s = s[:4] + "-" + s[4:6] + "-" + s[6:8]
				}
				if w, err = source.ParseISO(s); err != nil {
					t.Fatalf("%s %s: start %q", src, r.ref, r.start)
				}
				w.DateOnly = len(r.start) == 8
				if len(r.start) >= 15 {
					w.Wall = w.Wall.Add(time.Duration(atoi(r.start[9:11]))*time.Hour + time.Duration(atoi(r.start[11:13]))*time.Minute)
				}
			}
			date := w.Wall.Format("2006-01-02")
			if w.Wall.Hour() < 6 && !w.DateOnly { // a set after midnight belongs to the night before
				date = w.Wall.AddDate(0, 0, -1).Format("2006-01-02")
			}
			if strings.HasSuffix(r.start, "Z") {
				continue // a UTC time: the date may be the venue's next or previous
			}
			for i, a := range r.performers {
				names[a] = true
				if v, ok := where[night{a, date}]; ok && v != src {
					t.Errorf("%s plays %s and %s on %s", a, v, src, date)
				}
				where[night{a, date}] = src
				if i == 0 {
					headlines[a]++
					if cities[a] == nil {
						cities[a] = map[string]bool{}
					}
					cities[a][src] = true
				}
			}
		}
	}
	if len(names) < 800 {
		t.Errorf("%d distinct acts on pages with performers, want most of a pool of 1,000", len(names))
	}
	joined := strings.Join(slices.Sorted(func(yield func(string) bool) {
		for n := range names {
			if !yield(n) {
				return
			}
		}
	}), "\n")
	for _, want := range []string{"ö", "ø", "æ", "ß", "\nThe ", " & "} {
		if !strings.Contains(joined, want) {
			t.Errorf("no act name contains %q", want)
		}
	}
	most, top := 0, ""
	for a, n := range headlines {
		if n > most || n == most && a < top {
			most, top = n, a
		}
	}
	if len(cities[top]) < 10 {
		t.Errorf("the busiest headliner %s plays %d venues, want a tour of 10+", top, len(cities[top]))
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = 10*n + int(c-'0')
	}
	return n
}

func TestMicrodataPages(t *testing.T) {
	seen := map[string]bool{}
	note := func(cond bool, what string) {
		if cond {
			seen[what] = true
		}
	}
	bad := broken(shared.files)
	events := 0
	for _, v := range shared.files.cfg.Venues {
		if v.Format != "microdata" || bad[v.Name] != "" {
			continue
		}
		page := string(shared.files.raw[v.Name])
		recs := shared.files.records[v.Name]
		if n := strings.Count(page, `class="event" itemscope`); n != len(recs) || n == 0 {
			t.Errorf("%s: %d event items, read %d", v.Name, n, len(recs))
		}
		events += len(recs)
		note(strings.Contains(page, `itemid="http://`), "absolute itemid")
		note(strings.Contains(page, `itemid="/`), "relative itemid")
		note(!strings.Contains(page, "itemid="), "no itemid")
		note(strings.Contains(page, `<time itemprop="startDate" datetime=`), "startDate in <time>")
		note(strings.Contains(page, `<meta itemprop="startDate" content=`), "startDate in <meta>")
		note(strings.Contains(page, `itemtype="https://schema.org/MusicGroup"`), "MusicGroup performer")
		note(strings.Contains(page, `<span itemprop="performer">`), "text performer")
		note(strings.Contains(page, `/schema.org/Offer"`), "Offer")
		note(strings.Contains(page, `/schema.org/AggregateOffer"`), "AggregateOffer")
		note(strings.Contains(page, `/schema.org/PostalAddress"`) && strings.Contains(page, `/schema.org/GeoCoordinates"`), "nested address and geo")
		note(strings.Contains(page, `/schema.org/Country"`), "Country item")
		note(strings.Contains(page, `itemprop="eventStatus"`), "eventStatus")
		note(strings.Contains(page, `itemprop="previousStartDate"`), "previousStartDate")
		note(strings.Contains(page, `itemtype="http://schema.org/`), "http scheme")
		note(strings.Contains(page, `<header itemscope`), "a non-event item")
		for _, r := range recs {
			if _, err := source.ParseISO(r.start); err != nil || r.title == "" || len(r.performers) == 0 {
				t.Errorf("%s %s: start %q, title %q, performers %v", v.Name, r.ref, r.start, r.title, r.performers)
			}
		}
	}
	for _, want := range []string{"absolute itemid", "relative itemid", "no itemid", "startDate in <time>",
		"startDate in <meta>", "MusicGroup performer", "text performer", "Offer", "AggregateOffer",
		"nested address and geo", "Country item", "eventStatus", "previousStartDate", "http scheme", "a non-event item"} {
		if !seen[want] {
			t.Errorf("microdata pages have no %s", want)
		}
	}
	if events < 500 {
		t.Errorf("%d microdata events", events)
	}
}

func TestICalFeeds(t *testing.T) {
	seen := map[string]bool{}
	note := func(cond bool, what string) {
		if cond {
			seen[what] = true
		}
	}
	bad := broken(shared.files)
	for _, v := range shared.files.cfg.Venues {
		if v.Format != "ical" {
			continue
		}
		raw := shared.files.raw[v.Name]
		if bad[v.Name] == "wrong-charset" {
			note(!utf8.Valid(raw), "Latin-1 feed")
			continue
		}
		note(bytes.HasPrefix(raw, []byte("\xef\xbb\xbf")), "BOM")
		lf := !bytes.Contains(raw, []byte("\r\n"))
		note(lf, "LF-only")
		note(!lf, "CRLF")
		for _, l := range bytes.Split(raw, []byte("\n")) {
			l = bytes.TrimSuffix(bytes.TrimPrefix(l, []byte("\xef\xbb\xbf")), []byte("\r"))
			if len(l) > 75 {
				t.Errorf("%s: line of %d octets: %q", v.Name, len(l), l)
			}
			if len(l) == 75 && !utf8.Valid(l) {
				note(true, "fold inside a UTF-8 character")
			}
		}
		props, err := unfoldICS(raw)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		vtz := false
		for _, p := range props {
			switch p.name {
			case "BEGIN":
				vtz = vtz || p.value == "VTIMEZONE"
			case "DTSTART":
				tz := p.params["TZID"]
				switch {
				case p.params["VALUE"] == "DATE":
					note(len(p.value) == 8, "VALUE=DATE")
				case strings.Contains(tz, "/"):
					note(vtz, "IANA TZID with VTIMEZONE")
					note(!vtz, "IANA TZID without VTIMEZONE")
					_, err := time.LoadLocation(tz)
					note(err == nil, "IANA TZID")
				case strings.Contains(tz, "Standard Time"):
					note(vtz, "Windows TZID with VTIMEZONE")
					note(!vtz, "Windows TZID without VTIMEZONE")
				case tz != "":
					t.Errorf("%s: TZID %q", v.Name, tz)
				case strings.HasSuffix(p.value, "Z"):
					note(true, "UTC")
				default:
					note(len(p.value) == 15, "floating")
				}
			case "STATUS":
				note(p.value == "CANCELLED", "STATUS:CANCELLED")
			case "RRULE":
				note(true, "RRULE")
			case "EXDATE":
				note(true, "EXDATE")
			case "SUMMARY":
				note(strings.Contains(p.value, " + "), "SUMMARY headliner + support")
			case "LOCATION":
				note(strings.HasPrefix(icsUnescape(p.value), v.Venue.Name), "LOCATION with the venue name")
				if !strings.HasPrefix(icsUnescape(p.value), v.Venue.Name) {
					t.Errorf("%s: LOCATION %q", v.Name, p.value)
				}
			case "CATEGORIES":
				note(true, "CATEGORIES")
			}
		}
	}
	for _, want := range []string{"BOM", "LF-only", "CRLF", "fold inside a UTF-8 character", "VALUE=DATE",
		"IANA TZID", "IANA TZID with VTIMEZONE", "IANA TZID without VTIMEZONE", "Windows TZID with VTIMEZONE",
		"Windows TZID without VTIMEZONE", "UTC", "floating", "STATUS:CANCELLED", "RRULE", "EXDATE",
		"SUMMARY headliner + support", "LOCATION with the venue name", "CATEGORIES"} {
		if !seen[want] {
			t.Errorf("iCal feeds have no %s", want)
		}
	}
}

func TestBrokenSites(t *testing.T) {
	c := shared.files
	kinds := map[string]int{}
	urls := map[string]bool{}
	for _, v := range c.cfg.Venues {
		urls[v.URL] = true
	}
	for _, f := range c.faults {
		kinds[f.Kind]++
		switch f.Kind {
		case "robots":
			b, err := os.ReadFile(filepath.Join(c.dir, "sites", strings.TrimPrefix(f.URL, "http://")))
			if err != nil || !strings.HasPrefix(string(b), "User-agent: gigs\nDisallow: /\n") {
				t.Errorf("%s: robots.txt %q, %v", f.URL, b, err)
			}
			continue
		case "not-found":
			if f.Status != 404 {
				t.Errorf("%+v", f)
			}
		case "server-error":
			if f.Status != 500 {
				t.Errorf("%+v", f)
			}
		case "unavailable":
			if f.Status != 503 || f.RetryAfter <= 0 {
				t.Errorf("%+v", f)
			}
		case "stall":
			if !f.Stall {
				t.Errorf("%+v", f)
			}
		case "flaky":
			if f.Status != 500 || f.FailFirst != 1 {
				t.Errorf("%+v", f)
			}
		case "wrong-charset":
			p, _ := siteFile(c.dir, f.URL)
			b, _ := os.ReadFile(p)
			if utf8.Valid(b) || !strings.HasSuffix(f.ContentType, "charset=utf-8") {
				t.Errorf("%s: valid UTF-8 %v, content type %q", f.URL, utf8.Valid(b), f.ContentType)
			}
		case "oversized":
			p, _ := siteFile(c.dir, f.URL)
			if fi, err := os.Stat(p); err != nil || fi.Size() <= 8<<20 {
				t.Errorf("%s: oversized page: %v", f.URL, err)
			}
		default:
			t.Errorf("unknown fault kind %q", f.Kind)
		}
		if !urls[f.URL] {
			t.Errorf("fault for %s, which is no source", f.URL)
		}
	}
	want := map[string]int{"not-found": 5, "server-error": 4, "unavailable": 4, "stall": 4, "wrong-charset": 4, "oversized": 1, "robots": 5, "flaky": 5}
	for k, n := range want {
		if kinds[k] != n {
			t.Errorf("%d %s faults, want %d", kinds[k], k, n)
		}
	}
	// Robots: most sites allow all, some shut out unrelated paths or other crawlers, some have none.
	forms := map[string]int{}
	for _, v := range c.cfg.Venues {
		host, _, _ := strings.Cut(strings.TrimPrefix(v.URL, "http://"), "/")
		b, err := os.ReadFile(filepath.Join(c.dir, "sites", host, "robots.txt"))
		switch {
		case err != nil:
			forms["none"]++
		case bytes.Contains(b, []byte("User-agent: gigs")):
			forms["refuse"]++
		case bytes.Contains(b, []byte("/wp-admin/")):
			forms["unrelated"]++
		case bytes.Contains(b, []byte("GPTBot")):
			forms["other bots"]++
		default:
			forms["allow"]++
		}
	}
	if forms["allow"] < 100 || forms["none"] < 20 || forms["unrelated"] < 30 || forms["other bots"] < 10 || forms["refuse"] != 5 {
		t.Errorf("robots.txt forms %v", forms)
	}
}
