package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

var updateReal = flag.Bool("update-real", false, "rewrite testdata/real/expect.json from what the loader makes of the corpus (keeping each document's now)")

// realDir holds real upstream documents nobody here wrote, their provenance, the sources
// file that reads them and what each must yield (see its README.md).
const realDir = "../../testdata/real"

// realExpect is what one document must yield, as of Now.
type realExpect struct {
	Now     string         `json:"now"`               // RFC 3339: the -now the document is read as of
	Gigs    int            `json:"gigs"`              // gig bodies in the check's output
	Dropped map[string]int `json:"dropped,omitempty"` // drops by reason, quoted text as "…" and numbers as N
	Error   string         `json:"error,omitempty"`   // the source's error, "" when it reads
	Samples []realSample   `json:"samples,omitempty"` // gigs that must be there, as the API serves them
}

// realSample is the part of a gig body a sample pins down.
type realSample struct {
	Title    string `json:"title"`
	StartsAt string `json:"starts_at,omitempty"` // venue-local with its offset; "" when time_tba
	Date     string `json:"date"`
	Timezone string `json:"timezone"`
	Venue    string `json:"venue"` // the venue's name
	City     string `json:"city"`  // the city's slug
}

var (
	quoted = regexp.MustCompile(`"[^"]*"`)
	digits = regexp.MustCompile(`[0-9]+`)
)

// reasonClass is a drop reason with what varies between records taken out.
func reasonClass(reason string) string {
	return digits.ReplaceAllString(quoted.ReplaceAllString(reason, `"…"`), "N")
}

// TestRealCorpus reads every document of testdata/real with gigsctl sources check -now
// -json, served over HTTP by a real listener, and holds what comes out to expect.json:
// how many gigs, the drops by reason, and sampled gigs' local time, zone, venue and city.
func TestRealCorpus(t *testing.T) {
	var cfg struct {
		Venues []struct {
			Name   string          `json:"name"`
			Format string          `json:"format"`
			URL    string          `json:"url"`
			Venue  json.RawMessage `json:"venue,omitempty"`
		} `json:"venues"`
	}
	readJSON(t, filepath.Join(realDir, "sources.json"), &cfg)
	var want map[string]realExpect
	readJSON(t, filepath.Join(realDir, "expect.json"), &want)

	srv := httptest.NewServer(http.FileServer(http.Dir(realDir)))
	t.Cleanup(srv.Close)
	served := map[string]any{"allow_networks": []string{"127.0.0.1/32", "::1/128"}, "venues": cfg.Venues}
	for i := range cfg.Venues {
		cfg.Venues[i].URL = srv.URL + "/" + cfg.Venues[i].URL
	}
	sources := filepath.Join(t.TempDir(), "sources.json")
	b, _ := json.Marshal(served)
	if err := os.WriteFile(sources, b, 0o600); err != nil {
		t.Fatal(err)
	}

	got := map[string]realExpect{}
	for _, v := range cfg.Venues {
		exp, ok := want[v.Name]
		if !ok || exp.Now == "" {
			t.Errorf("%s: no entry with a now in expect.json", v.Name)
			continue
		}
		var out, errOut bytes.Buffer
		// A source that keeps nothing is an error of the command; the JSON says why.
		_ = sourcesCmd([]string{"check", "-sources", sources, "-now", exp.Now, "-json", "-max-dropped", "1", v.Name},
			func(string) string { return "" }, &out, &errOut)
		var res struct {
			Events  []json.RawMessage `json:"events"`
			Dropped []dropJSON        `json:"dropped"`
			Error   string            `json:"error"`
		}
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			t.Errorf("%s: %v in %q (stderr %q)", v.Name, err, out.String(), errOut.String())
			continue
		}
		g := realExpect{Now: exp.Now, Gigs: len(res.Events), Error: res.Error}
		for _, d := range res.Dropped {
			if g.Dropped == nil {
				g.Dropped = map[string]int{}
			}
			g.Dropped[reasonClass(d.Reason)]++
		}
		bodies := map[realSample]bool{}
		var all []realSample
		for _, e := range res.Events {
			var body struct {
				realSample
				Venue struct{ Name string } `json:"venue"`
				City  struct{ Slug string } `json:"city"`
			}
			if err := json.Unmarshal(e, &body); err != nil {
				t.Fatal(err)
			}
			s := body.realSample
			s.Venue, s.City = body.Venue.Name, body.City.Slug
			bodies[s] = true
			all = append(all, s)
		}
		if *updateReal {
			for _, i := range slices.Compact([]int{0, len(all) / 2, len(all) - 1}) {
				if i >= 0 && i < len(all) {
					g.Samples = append(g.Samples, all[i])
				}
			}
			got[v.Name] = g
			continue
		}
		if g.Gigs != exp.Gigs || g.Error != exp.Error || !maps.Equal(g.Dropped, exp.Dropped) {
			t.Errorf("%s: %d gigs, error %q, dropped %v; want %d, %q, %v", v.Name, g.Gigs, g.Error, g.Dropped, exp.Gigs, exp.Error, exp.Dropped)
		}
		for _, s := range exp.Samples {
			if !bodies[s] {
				t.Errorf("%s: no gig %+v", v.Name, s)
			}
		}
	}
	if *updateReal {
		b, err := json.MarshalIndent(got, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(realDir, "expect.json"), append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
