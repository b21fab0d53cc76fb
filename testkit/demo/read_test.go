package demo_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gigs/gigs/testkit/emulator"
)

// The files of a corpus as the tests read them back, independently of the generator.

type sourcesConfig struct {
	Platforms []struct {
		Name          string   `json:"name"`
		Kind          string   `json:"kind"`
		URL           string   `json:"url"`
		CredentialEnv string   `json:"credential_env"`
		Primary       bool     `json:"primary"`
		Artists       []string `json:"artists"`
	} `json:"platforms"`
	Venues []venueSource `json:"venues"`
}

type venueSource struct {
	Name   string `json:"name"`
	Format string `json:"format"`
	URL    string `json:"url"`
	Venue  *struct {
		Name    string `json:"name"`
		City    string `json:"city"`
		Country string `json:"country"`
		Zone    string `json:"zone"`
	} `json:"venue"`
}

type mergeRecord struct {
	Source string `json:"source"`
	Ref    string `json:"ref"`
}

type concert struct {
	ID      string        `json:"id"`
	Start   string        `json:"start"`
	Zone    string        `json:"zone"`
	Status  string        `json:"status"`
	Records []mergeRecord `json:"records"`
}

type faultEntry struct {
	URL         string `json:"url"`
	Kind        string `json:"kind"`
	Status      int    `json:"status"`
	RetryAfter  int    `json:"retry_after"`
	FailFirst   int    `json:"fail_first"`
	Stall       bool   `json:"stall"`
	ContentType string `json:"content_type"`
}

// record is one event of a venue source, read from its file.
type record struct {
	source, ref string
	title       string
	start       string // as stated: ISO 8601 for pages, the DTSTART line's value for iCal
	status      string // schema.org status name without the URL, or the iCal STATUS
	performers  []string
	m           map[string]any // JSON-LD events: the node
}

// corpusFiles is a corpus read back.
type corpusFiles struct {
	dir      string
	cfg      sourcesConfig
	concerts []concert
	faults   []faultEntry
	listings map[string][]emulator.Listing // by platform name
	records  map[string][]record           // by venue source name, in document order
	raw      map[string][]byte             // venue source files by source name
}

// decodeStrict decodes b into x, refusing unknown fields and trailing data.
func decodeStrict(b []byte, x any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(x); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data")
	}
	return nil
}

func readJSON(dir, name string, x any) error {
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		return err
	}
	if err := decodeStrict(b, x); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// siteFile returns the corpus path of a venue source URL.
func siteFile(dir, rawURL string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", err
	}
	p := u.Host + u.Path
	if strings.HasSuffix(p, "/") {
		p += "index.html"
	}
	return filepath.Join(dir, "sites", filepath.FromSlash(p)), nil
}

// readCorpusFiles reads every file a corpus names and every record of every venue source.
func readCorpusFiles(dir string) (*corpusFiles, error) {
	c := &corpusFiles{dir: dir, listings: map[string][]emulator.Listing{}, records: map[string][]record{}, raw: map[string][]byte{}}
	if err := readJSON(dir, "sources.json", &c.cfg); err != nil {
		return nil, err
	}
	var m struct {
		Concerts []concert `json:"concerts"`
	}
	if err := readJSON(dir, "expected-merges.json", &m); err != nil {
		return nil, err
	}
	c.concerts = m.Concerts
	var f struct {
		Faults []faultEntry `json:"faults"`
	}
	if err := readJSON(dir, "faults.json", &f); err != nil {
		return nil, err
	}
	c.faults = f.Faults
	for _, p := range c.cfg.Platforms {
		var l struct {
			Listings []emulator.Listing `json:"listings"`
		}
		if err := readJSON(dir, "platforms/"+p.Name+".json", &l); err != nil {
			return nil, err
		}
		c.listings[p.Name] = l.Listings
	}
	charset := map[string]bool{} // pages with Latin-1 bytes
	for _, f := range c.faults {
		if f.Kind == "wrong-charset" {
			charset[f.URL] = true
		}
	}
	for _, v := range c.cfg.Venues {
		path, err := siteFile(dir, v.URL)
		if err != nil {
			return nil, err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("source %s: %w", v.Name, err)
		}
		c.raw[v.Name] = b
		if charset[v.URL] {
			b = fromLatin1(b)
		}
		var recs []record
		switch v.Format {
		case "jsonld":
			recs, err = jsonLDRecords(v, b)
		case "microdata":
			recs, err = microdataRecords(v, b)
		case "ical":
			recs, err = icalRecords(v, b)
		default:
			err = fmt.Errorf("unknown format %q", v.Format)
		}
		if err != nil {
			return nil, fmt.Errorf("source %s: %w", v.Name, err)
		}
		c.records[v.Name] = recs
	}
	return c, nil
}

func fromLatin1(b []byte) []byte {
	out := make([]byte, 0, len(b)*2)
	for _, c := range b {
		out = utf8.AppendRune(out, rune(c))
	}
	return out
}

// resolve resolves ref against base, as the adapters do.
func resolve(base, ref string) string {
	b, err1 := url.Parse(base)
	r, err2 := url.Parse(ref)
	if err1 != nil || err2 != nil {
		return "!" + ref
	}
	return b.ResolveReference(r).String()
}

var ldScript = regexp.MustCompile(`(?is)<script\b[^>]*application/ld\+json[^>]*>(.*?)</script>`)

// jsonLDRecords returns a page's JSON-LD events: ref "@id" resolved against the page URL,
// else the page URL, "#" and the 1-based position among the page's events.
func jsonLDRecords(v venueSource, b []byte) ([]record, error) {
	var out []record
	for _, m := range ldScript.FindAllSubmatch(b, -1) {
		var x any
		if err := json.Unmarshal(m[1], &x); err != nil {
			return nil, fmt.Errorf("cannot parse JSON-LD block: %w\n%.300s", err, m[1])
		}
		walk(x, func(e map[string]any) {
			r := record{source: v.Name, m: e}
			r.title, _ = e["name"].(string)
			r.title = html.UnescapeString(r.title)
			r.start, _ = e["startDate"].(string)
			st, _ := e["eventStatus"].(string)
			r.status = st[strings.LastIndexByte(st, '/')+1:]
			if id, _ := e["@id"].(string); id != "" {
				r.ref = resolve(v.URL, id)
			} else {
				r.ref = v.URL + "#" + strconv.Itoa(len(out)+1)
			}
			r.performers = performerNames(e["performer"])
			out = append(out, r)
		})
	}
	return out, nil
}

func performerNames(p any) []string {
	var out []string
	switch p := p.(type) {
	case string:
		out = append(out, html.UnescapeString(p))
	case map[string]any:
		s, _ := p["name"].(string)
		out = append(out, html.UnescapeString(s))
	case []any:
		for _, x := range p {
			out = append(out, performerNames(x)...)
		}
	}
	return out
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

var (
	mdEventStart = regexp.MustCompile(`^<(article|li|div) class="event" itemscope itemtype="https?://schema\.org/(?:Music)?Event"(?: itemid="([^"]*)")?>$`)
	mdName       = regexp.MustCompile(`<h3 itemprop="name">(.*)</h3>`)
	mdStart      = regexp.MustCompile(`itemprop="startDate" (?:datetime|content)="([^"]*)"`)
	mdStatus     = regexp.MustCompile(`itemprop="eventStatus" href="https?://schema\.org/(\w+)"`)
	mdPerformer  = regexp.MustCompile(`<span itemprop="performer"(?: itemscope itemtype="[^"]*"><span itemprop="name")?>([^<]*)</span>`)
)

// microdataRecords returns a page's top-level Event items in document order, reading the
// generator's markup line by line: ref the itemid resolved against the page URL, else the
// page URL, "#" and the 1-based position.
func microdataRecords(v venueSource, b []byte) ([]record, error) {
	var out []record
	var cur *record
	var end string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if cur == nil {
			if m := mdEventStart.FindStringSubmatch(line); m != nil {
				cur = &record{source: v.Name, ref: v.URL + "#" + strconv.Itoa(len(out)+1)}
				if m[2] != "" {
					cur.ref = resolve(v.URL, html.UnescapeString(m[2]))
				}
				end = "</" + m[1] + ">"
			}
			continue
		}
		if line == end {
			out = append(out, *cur)
			cur = nil
			continue
		}
		if m := mdName.FindStringSubmatch(line); m != nil {
			cur.title = html.UnescapeString(m[1])
		}
		if m := mdStart.FindStringSubmatch(line); m != nil {
			cur.start = m[1]
		}
		if m := mdStatus.FindStringSubmatch(line); m != nil {
			cur.status = m[1]
		}
		for _, m := range mdPerformer.FindAllStringSubmatch(line, -1) {
			cur.performers = append(cur.performers, html.UnescapeString(m[1]))
		}
	}
	if cur != nil {
		return nil, errors.New("microdata event not closed")
	}
	return out, sc.Err()
}

// icsProp is one unfolded iCalendar content line.
type icsProp struct {
	name   string
	params map[string]string
	value  string
}

// unfoldICS returns a feed's content lines, unfolded: the byte order mark dropped, CRLF or
// LF line ends, continuation lines joined byte-wise (so a fold inside a UTF-8 character
// heals).
func unfoldICS(b []byte) ([]icsProp, error) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	var lines [][]byte
	for _, l := range bytes.Split(b, []byte("\n")) {
		l = bytes.TrimSuffix(l, []byte("\r"))
		if len(l) > 0 && l[0] == ' ' && len(lines) > 0 {
			lines[len(lines)-1] = append(lines[len(lines)-1], l[1:]...)
			continue
		}
		lines = append(lines, slices.Clone(l))
	}
	var out []icsProp
	for _, l := range lines {
		if len(l) == 0 {
			continue
		}
		if !utf8.Valid(l) {
			return nil, fmt.Errorf("unfolded line is not UTF-8: %q", l)
		}
		s := string(l)
		head, value, ok := cutUnquoted(s, ':')
		if !ok {
			return nil, fmt.Errorf("content line without a value: %q", s)
		}
		parts := splitUnquoted(head, ';')
		p := icsProp{name: parts[0], params: map[string]string{}, value: value}
		for _, kv := range parts[1:] {
			k, v, _ := strings.Cut(kv, "=")
			p.params[k] = strings.Trim(v, `"`)
		}
		out = append(out, p)
	}
	return out, nil
}

// cutUnquoted cuts s at the first sep outside double quotes.
func cutUnquoted(s string, sep byte) (string, string, bool) {
	q := false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '"':
			q = !q
		case s[i] == sep && !q:
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func splitUnquoted(s string, sep byte) []string {
	var out []string
	for {
		a, b, ok := cutUnquoted(s, sep)
		out = append(out, a)
		if !ok {
			return out
		}
		s = b
	}
}

// icalRecords returns a feed's events: ref the UID, and for each occurrence of a weekly
// RRULE the UID, "/" and the occurrence's date (EXDATEs left out).
func icalRecords(v venueSource, b []byte) ([]record, error) {
	props, err := unfoldICS(b)
	if err != nil {
		return nil, err
	}
	var out []record
	var ev map[string]icsProp
	for _, p := range props {
		switch {
		case p.name == "BEGIN" && p.value == "VEVENT":
			ev = map[string]icsProp{}
		case p.name == "END" && p.value == "VEVENT":
			recs, err := icalEvent(v, ev)
			if err != nil {
				return nil, err
			}
			out = append(out, recs...)
			ev = nil
		case ev != nil:
			ev[p.name] = p
		}
	}
	return out, nil
}

func icalEvent(v venueSource, ev map[string]icsProp) ([]record, error) {
	uid := ev["UID"].value
	if uid == "" {
		return nil, errors.New("VEVENT without UID")
	}
	base := record{source: v.Name, ref: uid, title: icsUnescape(ev["SUMMARY"].value), start: ev["DTSTART"].value, status: ev["STATUS"].value}
	rule, ok := ev["RRULE"]
	if !ok {
		return []record{base}, nil
	}
	start, err := time.Parse("20060102T150405", ev["DTSTART"].value)
	if err != nil {
		return nil, fmt.Errorf("%s: recurring DTSTART %q: %w", uid, ev["DTSTART"].value, err)
	}
	count, until := 0, time.Time{}
	for _, kv := range strings.Split(rule.value, ";") {
		k, val, _ := strings.Cut(kv, "=")
		switch k {
		case "FREQ":
			if val != "WEEKLY" {
				return nil, fmt.Errorf("%s: RRULE %s", uid, rule.value)
			}
		case "COUNT":
			count, _ = strconv.Atoi(val)
		case "UNTIL":
			until, err = untilTime(val, v)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", uid, err)
			}
		}
	}
	ex := map[string]bool{}
	for _, d := range strings.Split(ev["EXDATE"].value, ",") {
		ex[d] = true
	}
	var out []record
	for k := 0; ; k++ {
		t := start.AddDate(0, 0, 7*k)
		if count > 0 && k >= count || count == 0 && t.After(until) {
			break
		}
		if k > 60 {
			return nil, fmt.Errorf("%s: RRULE without an end", uid)
		}
		if ex[t.Format("20060102T150405")] {
			continue
		}
		r := base
		r.ref = uid + "/" + t.Format("2006-01-02")
		r.start = t.Format("20060102T150405")
		out = append(out, r)
	}
	return out, nil
}

// untilTime reads UNTIL as a wall time in the venue's zone (UTC values are converted).
func untilTime(val string, v venueSource) (time.Time, error) {
	if t, err := time.Parse("20060102T150405Z", val); err == nil {
		loc, err := time.LoadLocation(v.Venue.Zone)
		if err != nil {
			return time.Time{}, err
		}
		w := t.In(loc)
		return time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), 0, time.UTC), nil
	}
	return time.Parse("20060102T150405", val)
}

func icsUnescape(s string) string {
	return strings.NewReplacer(`\\`, `\`, `\;`, ";", `\,`, ",", `\n`, "\n", `\N`, "\n").Replace(s)
}
