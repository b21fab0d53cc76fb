package demo_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/loader/demo"
	"github.com/gigs/gigs/loader/places"
	"github.com/gigs/gigs/loader/source"
)

var defaultOpts = demo.Options{Today: time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC), Seed: 1}

// shared is the corpus for defaultOpts, generated and read once for all tests.
var shared struct {
	dir    string
	sum    demo.Summary
	pages  []page
	events []event
}

func TestMain(m *testing.M) {
	os.Exit(runWithCorpus(m))
}

func runWithCorpus(m *testing.M) int {
	dir, err := os.MkdirTemp("", "demo-corpus-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	shared.dir = dir
	if shared.sum, err = demo.Generate(dir, defaultOpts); err == nil {
		shared.pages, shared.events, err = readCorpus(dir)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}

func generate(t testing.TB, opt demo.Options) (string, demo.Summary) {
	t.Helper()
	dir := t.TempDir()
	sum, err := demo.Generate(dir, opt)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	return dir, sum
}

// readTree returns every file under dir by slash path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func sameTree(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !bytes.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

func TestGenerateIsDeterministic(t *testing.T) {
	a := readTree(t, shared.dir)
	// The same UTC day at another hour and zone is the same corpus.
	y, m, d := defaultOpts.Today.UTC().Date()
	sameDay := demo.Options{Today: time.Date(y, m, d, 23, 30, 0, 0, time.FixedZone("UTC+1", 3600)), Seed: defaultOpts.Seed}
	dir, sum := generate(t, sameDay)
	if sum != shared.sum || !sameTree(a, readTree(t, dir)) {
		t.Fatal("two runs for the same day and seed differ")
	}
	// Regenerating into a used directory overwrites its files with the same bytes.
	if _, err := demo.Generate(dir, defaultOpts); err != nil || !sameTree(a, readTree(t, dir)) {
		t.Errorf("regenerating into the same directory changed it (err %v)", err)
	}
	for _, opt := range []demo.Options{
		{Today: defaultOpts.Today, Seed: defaultOpts.Seed + 1},
		{Today: defaultOpts.Today.AddDate(0, 0, 1), Seed: defaultOpts.Seed},
	} {
		dir, _ := generate(t, opt)
		if sameTree(a, readTree(t, dir)) {
			t.Errorf("Options %+v gave the same corpus as %+v", opt, defaultOpts)
		}
	}
}

func TestGenerateRejectsZeroToday(t *testing.T) {
	if _, err := demo.Generate(t.TempDir(), demo.Options{Seed: 1}); err == nil {
		t.Fatal("Generate with a zero Today succeeded")
	}
}

func TestGeneratedFile(t *testing.T) {
	opt := demo.Options{Today: time.Date(2026, 11, 22, 23, 30, 0, 0, time.FixedZone("EST", -5*3600)), Seed: 7}
	dir, _ := generate(t, opt)
	b, err := os.ReadFile(filepath.Join(dir, "GENERATED"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), "2026-11-23\n"; got != want { // the UTC date of Today
		t.Errorf("GENERATED = %q, want %q", got, want)
	}
}

func TestSummaryCounts(t *testing.T) {
	sums := []demo.Summary{shared.sum}
	for _, opt := range []demo.Options{
		{Today: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC), Seed: 3},
		{Today: time.Date(2027, 3, 20, 0, 0, 0, 0, time.UTC), Seed: 99},
	} {
		_, s := generate(t, opt)
		sums = append(sums, s)
	}
	for _, s := range sums {
		t.Logf("%+v", s)
		checks := []struct {
			name     string
			got      int
			min, max int
		}{
			{"venues", s.Venues, 48, 1000},
			{"cities", s.Cities, 14, 1000},
			{"countries", s.Countries, 9, 1000},
			{"gigs", s.Gigs, 1800, 2300},
			{"upcoming", s.Upcoming, 1600, s.Gigs - 5},
			{"cancelled", s.Cancelled, s.Gigs * 25 / 1000, s.Gigs * 35 / 1000},
			{"postponed", s.Postponed, s.Gigs * 15 / 1000, s.Gigs * 25 / 1000},
			{"rescheduled", s.Rescheduled, s.Gigs * 5 / 1000, s.Gigs * 15 / 1000},
			{"time TBA", s.TimeTBA, s.Gigs * 25 / 1000, s.Gigs * 35 / 1000},
		}
		for _, c := range checks {
			if c.got < c.min || c.got > c.max {
				t.Errorf("%s = %d, want %d–%d", c.name, c.got, c.min, c.max)
			}
		}
	}
}

// event is one JSON-LD event as a test reads it back.
type event struct {
	source string // venue slug
	m      map[string]any
}

func (e event) str(key string) string { s, _ := e.m[key].(string); return s }

// page is one venue page as a test reads it back.
type page struct {
	slug   string
	html   string
	blocks []any
}

var ldScript = regexp.MustCompile(`(?is)<script\b[^>]*application/ld\+json[^>]*>(.*?)</script>`)

// readCorpus reads sources.json and every page it names, checking the configuration's
// shape on the way.
func readCorpus(dir string) ([]page, []event, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "sources.json"))
	if err != nil {
		return nil, nil, err
	}
	if !bytes.HasPrefix(raw, []byte("{\n  \"sources\": [\n    {\n      \"name\": ")) || !bytes.HasSuffix(raw, []byte("}\n")) {
		return nil, nil, fmt.Errorf("sources.json is not indented with two spaces and newline-terminated:\n%.200s", raw)
	}
	var cfg struct {
		Sources []struct{ Name, Kind, URL string }
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return nil, nil, fmt.Errorf("sources.json: %w", err)
	}
	if !slices.IsSortedFunc(cfg.Sources, func(a, b struct{ Name, Kind, URL string }) int { return strings.Compare(a.Name, b.Name) }) {
		return nil, nil, errors.New("sources.json is not sorted by name")
	}
	var pages []page
	var events []event
	for _, src := range cfg.Sources {
		slug := strings.TrimPrefix(src.Name, "venue-")
		if src.Kind != "jsonld" || src.URL != "sites/"+slug+"/index.html" {
			return nil, nil, fmt.Errorf("source %+v: want kind jsonld and url sites/%s/index.html", src, slug)
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(src.URL)))
		if err != nil {
			return nil, nil, fmt.Errorf("source %s: %w", src.Name, err)
		}
		p := page{slug: slug, html: string(b)}
		for _, m := range ldScript.FindAllStringSubmatch(p.html, -1) {
			var v any
			if err := json.Unmarshal([]byte(m[1]), &v); err != nil {
				return nil, nil, fmt.Errorf("%s: cannot parse JSON-LD block: %w\n%.300s", slug, err, m[1])
			}
			p.blocks = append(p.blocks, v)
			walk(v, func(m map[string]any) { events = append(events, event{slug, m}) })
		}
		pages = append(pages, p)
	}
	return pages, events, nil
}

// walk calls found for every Event or MusicEvent in a JSON-LD value: top level, in
// arrays, in @graph and in WebPage.mainEntity item lists.
func walk(v any, found func(map[string]any)) {
	switch v := v.(type) {
	case []any:
		for _, x := range v {
			walk(x, found)
		}
	case map[string]any:
		if isEvent(v["@type"]) {
			found(v)
			return
		}
		for _, k := range []string{"@graph", "mainEntity", "itemListElement", "item"} {
			walk(v[k], found)
		}
	}
}

func isEvent(typ any) bool {
	switch typ := typ.(type) {
	case string:
		return typ == "Event" || typ == "MusicEvent"
	case []any:
		for _, x := range typ {
			if isEvent(x) {
				return true
			}
		}
	}
	return false
}

func TestCorpusEvents(t *testing.T) {
	sum, pages, events := shared.sum, shared.pages, shared.events
	if len(pages) != sum.Venues || len(events) != sum.Gigs {
		t.Fatalf("read %d pages and %d events, Summary says %d and %d", len(pages), len(events), sum.Venues, sum.Gigs)
	}
	today := defaultOpts.Today.UTC().Format("2006-01-02")
	threeDaysBefore := defaultOpts.Today.UTC().AddDate(0, 0, -3).Format("2006-01-02")
	var upcoming, past, dateOnly, doors, ends, noStatus int
	statuses := map[string]int{}
	ids := map[string]bool{}
	for _, e := range events {
		id := e.str("@id")
		if !strings.HasPrefix(id, "https://"+e.source+".example/events/") || ids[id] {
			t.Errorf("%s: bad or repeated @id %q", e.source, id)
		}
		ids[id] = true
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
	if upcoming != sum.Upcoming || dateOnly != sum.TimeTBA {
		t.Errorf("upcoming %d, date-only %d; Summary says %d, %d", upcoming, dateOnly, sum.Upcoming, sum.TimeTBA)
	}
	if past < 5 || past > 40 {
		t.Errorf("%d shows just before Today, want a handful", past)
	}
	if statuses["EventCancelled"] != sum.Cancelled || statuses["EventPostponed"] != sum.Postponed || statuses["EventRescheduled"] != sum.Rescheduled {
		t.Errorf("statuses %v disagree with Summary %+v", statuses, sum)
	}
	if statuses["EventScheduled"] == 0 || noStatus == 0 {
		t.Errorf("want scheduled events both with and without eventStatus, got %d and %d", statuses["EventScheduled"], noStatus)
	}
	if share := float64(doors) / float64(len(events)); share < 0.3 || share > 0.7 {
		t.Errorf("doorTime on %.0f%% of events, want about half", 100*share)
	}
	if ends == 0 || ends > len(events)/2 {
		t.Errorf("endDate on %d of %d events, want some", ends, len(events))
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
	"KR": "KRW", "IN": "INR", "NP": "NPR", "AU": "AUD",
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
		if o["priceCurrency"] != currencies[country] || !strings.HasPrefix(url, "https://"+e.source+".example/") {
			t.Errorf("%s in %s: offer in %v at %q", e.str("@id"), country, o["priceCurrency"], url)
		}
	}
}

func TestCorpusPlacesAndZones(t *testing.T) {
	events := shared.events
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
	if len(citySet) < 14 || len(countrySet) < 9 {
		t.Errorf("%d cities in %d countries, want at least 14 in 9", len(citySet), len(countrySet))
	}
	for _, want := range []string{"kathmandu", "st-johns", "london-gb", "london-ca", "sao-paulo", "sydney", "tokyo"} {
		if !citySet[want] {
			t.Errorf("no venue in %s", want)
		}
	}
	if !citySet["mumbai"] && !citySet["bengaluru"] {
		t.Error("no venue in Mumbai or Bengaluru")
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
	pages, events := shared.pages, shared.events
	seen := map[string]bool{}
	note := func(cond bool, what string) {
		if cond {
			seen[what] = true
		}
	}
	perVenue := map[string]int{}
	for _, p := range pages {
		evs := 0
		for _, b := range p.blocks {
			n := 0
			walk(b, func(map[string]any) { n++ })
			evs += min(n, 1)
			m, _ := b.(map[string]any)
			_, isArray := b.([]any)
			note(isArray && n > 0, "array block")
			note(m["@graph"] != nil && n > 0, "@graph")
			note(m["@type"] == "WebPage" && n > 0, "WebPage.mainEntity")
		}
		note(evs > 1, "one script per event")
		if !strings.Contains(p.html, "<title>") || !strings.Contains(p.html, `<li class="show">`) {
			t.Errorf("%s: page has no title or no show list", p.slug)
		}
		note(strings.Contains(p.html, "<SCRIPT"), "uppercase SCRIPT")
		note(strings.Contains(p.html, `<script data-rh="true" type=`), "reordered attributes")
	}
	for _, e := range events {
		perVenue[e.source]++
		note(strings.Contains(e.str("name"), "&amp;"), "&amp; in JSON-LD")
		_, typeArray := e.m["@type"].([]any)
		note(typeArray, "@type array")
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
	}
	for _, want := range []string{
		"array block", "@graph", "WebPage.mainEntity", "one script per event", "uppercase SCRIPT",
		"reordered attributes", "&amp; in JSON-LD", "@type array", "performer text", "performer object",
		"performer array", "performer genres", "event genre", "no offers", "AggregateOffer",
		"price string", "price number", "sold out", "limited", "offer array", "geo strings",
		"geo numbers", "country object", "23:00 club night", "00:30 start", "early show",
	} {
		if !seen[want] {
			t.Errorf("corpus has no %s", want)
		}
	}
	sizes := slices.Sorted(func(yield func(int) bool) {
		for _, n := range perVenue {
			if !yield(n) {
				return
			}
		}
	})
	if sizes[0] > 20 || sizes[len(sizes)-1] < 80 {
		t.Errorf("venue sizes %d–%d, want small venues with 10–20 and busy ones with 80+", sizes[0], sizes[len(sizes)-1])
	}
}

func TestCorpusArtists(t *testing.T) {
	events := shared.events
	type night struct{ name, date string }
	where := map[night]string{}
	headlines := map[string]int{}
	cities := map[string]map[string]bool{}
	names := map[string]bool{}
	tags := map[string]bool{}
	for _, e := range events {
		start, _ := source.ParseISO(e.str("startDate"))
		date := start.Wall.Format("2006-01-02")
		if start.Wall.Hour() < 6 && !start.DateOnly { // a set after midnight belongs to the night before
			date = start.Wall.AddDate(0, 0, -1).Format("2006-01-02")
		}
		var acts []string
		switch p := e.m["performer"].(type) {
		case string:
			acts = []string{p}
		case map[string]any:
			acts = []string{p["name"].(string)}
		case []any:
			for _, x := range p {
				if m, ok := x.(map[string]any); ok {
					acts = append(acts, m["name"].(string))
					gs, _ := m["genre"].([]any)
					for _, g := range gs {
						tags[html.UnescapeString(g.(string))] = true
					}
				} else {
					acts = append(acts, x.(string))
				}
			}
		}
		for i, a := range acts {
			a = html.UnescapeString(a)
			names[a] = true
			if v, ok := where[night{a, date}]; ok && v != e.source {
				t.Errorf("%s plays %s and %s on %s", a, v, e.source, date)
			}
			where[night{a, date}] = e.source
			if i == 0 {
				headlines[a]++
				if cities[a] == nil {
					cities[a] = map[string]bool{}
				}
				cities[a][e.source] = true
			}
		}
	}
	if len(names) < 400 || len(names) > 500 {
		t.Errorf("%d distinct acts, want a pool of about 500", len(names))
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
	if len(tags) < 15 {
		t.Errorf("%d distinct genre tags, want varied spellings of about 12 genres", len(tags))
	}
}

func BenchmarkGenerate(b *testing.B) {
	dir := b.TempDir()
	for b.Loop() {
		if _, err := demo.Generate(dir, defaultOpts); err != nil {
			b.Fatal(err)
		}
	}
}
