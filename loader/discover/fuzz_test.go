package discover

import (
	"net/url"
	"os"
	"path/filepath"
	"testing"
)

// FuzzScan checks that scanning a hostile page never panics and finds only http(s) feeds
// and pages of the page's own site. Seeded with the real pages; crashers found are kept in
// testdata/fuzz/FuzzScan.
func FuzzScan(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(realDir, "pages", "*.html"))
	for _, file := range files[:min(5, len(files))] {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`<a href="webcal://venue.example/a.ics">x</a><link rel="alternate" type="text/calendar" href="/c?ical=1"><a href="/events/">Events</a><div class="tribe-events">`))
	base, _ := url.Parse("https://venue.example/")
	f.Fuzz(func(t *testing.T, page []byte) {
		p := scan(base.String(), "text/html", page)
		var all []string
		for _, c := range p.feeds {
			all = append(all, c.URL)
		}
		for _, u := range append(all, p.eventPages...) {
			v, err := url.Parse(u)
			if err != nil || (v.Scheme != "http" && v.Scheme != "https") || !sameSite(base, v) {
				t.Errorf("found %q: not an http(s) link of the site", u)
			}
		}
	})
}
