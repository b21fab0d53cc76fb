package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/gigs/gigs/loader"
)

// serveSite lays files out as a venue site in a directory (contents "@path" are copied
// from testdata/real) and serves it over a real listener.
func serveSite(t *testing.T, files map[string]string) *httptest.Server {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if src, ok := strings.CutPrefix(body, "@"); ok {
			b, err := os.ReadFile(filepath.Join(realDir, src))
			if err != nil {
				t.Fatal(err)
			}
			body = string(b)
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	return srv
}

// TestSourcesAdd runs gigsctl sources add on real pages and feeds behind venue-site
// layouts, then list and remove, against a sources file laid out by hand.
func TestSourcesAdd(t *testing.T) {
	icsSite := serveSite(t, map[string]string{
		"index.html":          `<html><body><a href="/about/">About</a> <a href="/whats-on/">What's on</a></body></html>`,
		"whats-on/index.html": `<html><body><h1>Concerts</h1><a href="/cal/concerts.ics">Add our concerts to your calendar</a></body></html>`,
		"cal/concerts.ics":    "@ical/lastfm-concerts-netherlands.ics",
	})
	noCitySite := serveSite(t, map[string]string{
		"index.html":        `<html><body><a href="/events/">Events</a></body></html>`,
		"events/index.html": "@pages/ml-grossmans.html",
	})
	emptySite := serveSite(t, map[string]string{"index.html": `<html><body><p>Under construction</p></body></html>`})

	dir := t.TempDir()
	path := filepath.Join(dir, "sources.json")
	orig := "{\n  \"allow_networks\": [\"127.0.0.1/32\"],\n  \"venues\": [\n    {\"name\": \"venue-old\", \"format\": \"jsonld\", \"url\": \"old.html\",\n     \"venue\": {\"name\": \"The Old Hall\", \"city\": \"Leeds\", \"country\": \"GB\"}}\n  ]\n}\n"
	if err := os.WriteFile(path, []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}
	gigsctl := func(args ...string) (string, error) {
		var out, errb bytes.Buffer
		err := run(append([]string{"sources"}, args...), func(string) string { return "" }, &out, &errb)
		return out.String() + errb.String(), err
	}

	// An events page linking its .ics: found, previewed and written.
	start := time.Now()
	out, err := gigsctl("add", "-sources", path, "-now", "2010-02-08T00:00:00Z", "-write", icsSite.URL+"/")
	t.Logf("ics site in %s:\n%s", time.Since(start).Round(time.Millisecond), out)
	if err != nil || !strings.Contains(out, "chose ical "+icsSite.URL+"/cal/concerts.ics") || !strings.Contains(out, "32 gig(s)") ||
		!strings.Contains(out, `added as "venue-127-0-0-1-`) {
		t.Fatalf("add: %v\n%s", err, out)
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), strings.TrimSuffix(orig, "\n  ]\n}\n")+",\n    {\n      \"name\": \"venue-127-0-0-1-") {
		t.Errorf("the file's other content changed:\n%s", data)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the file's own 0600", st.Mode().Perm())
	}
	// The same feed again: refused.
	if out, err := gigsctl("add", "-sources", path, "-now", "2010-02-08T00:00:00Z", "-write", icsSite.URL+"/whats-on/"); err == nil || !strings.Contains(out, "already reads") {
		t.Errorf("a feed the file has: %v\n%s", err, out)
	}

	// A page whose events name no city: asked for -venue, then added with it.
	out, err = gigsctl("add", "-sources", path, "-now", "2024-09-05T00:00:00Z", "-write", noCitySite.URL)
	if err == nil || !strings.Contains(out, `give -venue "NAME, CITY, CC"`) {
		t.Errorf("no city: %v\n%s", err, out)
	}
	out, err = gigsctl("add", "-sources", path, "-now", "2024-09-05T00:00:00Z", "-json", "-venue", "Grossman's Tavern, Toronto, CA", noCitySite.URL)
	var got struct {
		URL       string `json:"url"`
		ChosenURL string `json:"chosen_url"`
		Format    string `json:"format"`
		Error     string `json:"error"`
		Events    []json.RawMessage
		Dropped   []dropJSON
		Entry     loader.VenueConfig
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("-json: %v\n%s", err, out)
	}
	if err != nil || got.Format != "jsonld" || got.ChosenURL != noCitySite.URL+"/events/" || len(got.Events) != 12 || got.Error != "" ||
		got.Entry.Venue == nil || got.Entry.Venue.City != "Toronto" || got.Entry.URL != got.ChosenURL {
		t.Errorf("-json with -venue: %v, %s %s %d gigs, %q\n%.2000s", err, got.Format, got.ChosenURL, len(got.Events), got.Error, out)
	}

	// Many at once: a table, one added, one refused, one with nothing.
	list := filepath.Join(dir, "urls.txt")
	os.WriteFile(list, []byte("# venues to add\n"+noCitySite.URL+"/\n\n"+emptySite.URL+"/\n"+icsSite.URL+"/\n"), 0o644)
	out, err = gigsctl("add", "-sources", path, "-now", "2024-09-05T00:00:00Z", "-venue", "Grossman's Tavern, Toronto, CA", "-write", "-from", list)
	if err == nil || !strings.Contains(out, "URL ") || !strings.Contains(out, "added as") || !strings.Contains(out, "no feed found") || !strings.Contains(out, "yields no gig") {
		t.Errorf("-from: %v\n%s", err, out)
	}
	t.Logf("-from:\n%s", out)
	if _, err := loader.ReadConfig(path); err != nil {
		t.Fatalf("the file no longer reads: %v", err)
	}

	// list, with the health a gigsd's admin listener reports.
	reg := prometheus.NewRegistry()
	m := loader.NewMetrics(reg)
	m.Sources([]string{"venue-old"})
	m.Observe(loader.Report{Sources: []loader.SourceReport{{Name: "venue-old", Events: 7, LastSuccess: time.Unix(1700000000, 0)}}, Published: true}, nil)
	admin := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	defer admin.Close()
	out, err = gigsctl("list", "-sources", path, "-admin", strings.TrimPrefix(admin.URL, "http://"))
	if err != nil || !strings.Contains(out, "venue-old") || !strings.Contains(out, "2023-11-14T22:13:20Z") || !strings.Contains(out, "not read yet") {
		t.Errorf("list: %v\n%s", err, out)
	}

	// remove takes them out again, leaving the file as it was.
	cfg, _ := loader.ReadConfig(path)
	var names []string
	for _, v := range cfg.Venues[1:] {
		names = append(names, v.Name)
	}
	if out, err := gigsctl(append([]string{"remove", "-sources", path}, names...)...); err != nil {
		t.Fatalf("remove: %v\n%s", err, out)
	}
	if data, _ := os.ReadFile(path); string(data) != orig {
		t.Errorf("after remove:\n%s\nwant\n%s", data, orig)
	}
	if _, err := gigsctl("remove", "-sources", path, "nope"); err == nil {
		t.Error("removing an unknown source: no error")
	}
}
