package main

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/testkit/demo"
	"github.com/gigs/gigs/testkit/fixture"
)

// demoCorpus writes a demo corpus and returns its directory, a getenv with its credentials,
// and the faults it plays by kind (one URL each).
func demoCorpus(t *testing.T) (string, func(string) string, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	if _, err := demo.Generate(dir, demo.Options{Today: time.Now().UTC(), Seed: 1}); err != nil {
		t.Fatal(err)
	}
	env, err := fixture.ReadEnv(filepath.Join(dir, "demo.env"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Faults []struct{ URL, Kind string } }
	data, _ := os.ReadFile(filepath.Join(dir, "faults.json"))
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	faults := map[string]string{}
	for _, x := range f.Faults {
		faults[x.Kind] = x.URL
	}
	return dir, func(k string) string { return env[k] }, faults
}

// sourceAt returns the name of the venue source of the corpus at url, or of the first
// source of format without a fault when url is empty.
func sourceAt(t *testing.T, dir, url, format string, faulty map[string]string) string {
	t.Helper()
	var cfg struct {
		Venues []struct{ Name, Format, URL string }
	}
	data, _ := os.ReadFile(filepath.Join(dir, "sources.json"))
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	bad := map[string]bool{}
	for _, u := range faulty {
		bad[u] = true
	}
	for _, v := range cfg.Venues {
		if url != "" && v.URL == url || url == "" && v.Format == format && !bad[v.URL] {
			return v.Name
		}
	}
	t.Fatalf("no source for %q %q", url, format)
	return ""
}

func TestSourcesCheck(t *testing.T) {
	dir, getenv, faults := demoCorpus(t)
	fx, _, err := fixture.OpenDemo(dir, fixture.Options{Stall: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	upstream := httptest.NewServer(fx)
	defer upstream.Close()

	// A local page with one good event and one without a start, read as a file.
	local := t.TempDir()
	page := `<script type="application/ld+json">[
{"@type": "MusicEvent", "@id": "#good", "name": "Wet Leg", "startDate": "2027-06-05T20:00:00+01:00",
 "location": {"@type": "Place", "name": "The Garage", "address": {"addressLocality": "London", "addressCountry": "GB"}}},
{"@type": "MusicEvent", "@id": "#undated", "name": "Idles",
 "location": {"@type": "Place", "name": "The Garage", "address": {"addressLocality": "London", "addressCountry": "GB"}}}
]</script>`
	os.WriteFile(filepath.Join(local, "garage.html"), []byte(page), 0o644)
	// A band's calendar in Pacific time: "London, CA" is London, California there, and
	// "Zzyzx Springs, CA", a town no gazetteer has, is made in California rather than in
	// Canada, the country of the feed's zone deciding.
	cal := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nX-WR-TIMEZONE:America/Los_Angeles\r\n" +
		"BEGIN:VEVENT\r\nUID:a\r\nDTSTART:20270605T200000\r\nSUMMARY:The Band\r\nLOCATION:Hall\\, London\\, CA\r\nEND:VEVENT\r\n" +
		"BEGIN:VEVENT\r\nUID:b\r\nDTSTART:20270606T200000\r\nSUMMARY:The Band\r\nLOCATION:Barn\\, Zzyzx Springs\\, CA\r\nEND:VEVENT\r\n" +
		"END:VCALENDAR\r\n"
	os.WriteFile(filepath.Join(local, "band.ics"), []byte(cal), 0o644)
	os.WriteFile(filepath.Join(local, "sources.json"), []byte(`{"venues": [{"name": "venue-garage", "format": "jsonld", "url": "garage.html"}]}`), 0o644)
	os.WriteFile(filepath.Join(local, "band.json"), []byte(`{"venues": [{"name": "band-calendar", "format": "ical", "url": "band.ics"}]}`), 0o644)

	sources := filepath.Join(dir, "sources.json")
	tests := []struct {
		name string
		args []string
		out  []string // regular expressions, each matching some line
		err  string
	}{
		{"a venue site", []string{sourceAt(t, dir, "", "microdata", faults)}, []string{`^venue-\S+: \d+ events, 0 dropped, in \S+$`, `^  \d{4}-\d\d-\d\d \d\d:\d\d  .+ @ .+, .+$`}, ""},
		{"an iCal feed", []string{sourceAt(t, dir, "", "ical", faults)}, []string{`^venue-\S+: \d+ events, 0 dropped`}, ""},
		{"a platform", []string{"tixhub"}, []string{`^tixhub: \d{3,} events, 0 dropped`}, ""},
		{"a charset fixed up", []string{sourceAt(t, dir, faults["wrong-charset"], "", nil)}, []string{`^  note: declared "utf-8" but not valid utf-8; read as windows-1252$`}, ""},
		{"a missing page", []string{sourceAt(t, dir, faults["not-found"], "", nil)}, []string{`^venue-\S+: FAILED after \S+: cannot fetch ".+": status 404 Not Found$`}, "1 source(s) failed"},
		{"an unknown source", []string{"nobody"}, nil, `no such source: ["nobody"]`},
		{"a record dropped", []string{"-sources", filepath.Join(local, "sources.json"), "-max-dropped", "0.5"}, []string{`^venue-garage: 1 events, 1 dropped`, `^  dropped file://.*/garage.html line 4: event "Idles": missing startDate$`}, ""},
		{"too many dropped", []string{"-sources", filepath.Join(local, "sources.json")}, []string{`^venue-garage: 1 events, 1 dropped`}, "1 source(s) failed or lost records"},
		{"as of a later day", []string{"-sources", filepath.Join(local, "sources.json"), "-max-dropped", "0.5", "-now", "2027-06-07T00:00:00Z", "-json"},
			[]string{`^\{"source":"venue-garage","events":\[\],"dropped":\[\{"ref":"file://.*/garage.html","line":4,"reason":"event \\"Idles\\": missing startDate"\}\],"places":\[\{"place":"London \|  \| GB","city":"london-gb","country":"GB","timezone":"Europe/London","events":1\}\]\}$`}, ""},
		{"each place's reading", []string{"-sources", filepath.Join(local, "band.json"), "-now", "2027-06-01T00:00:00Z", "-json", "band-calendar"},
			[]string{`"places":\[\{"place":"London, CA \|  \| ","city":"london-ca-us","country":"US","timezone":"America/Los_Angeles","decided_by":"the feed's time zone \(America/Los_Angeles\)","events":1\},` +
				`\{"place":"Zzyzx Springs, CA \|  \| ","city":"zzyzx-springs-us","country":"US","timezone":"America/Los_Angeles","made":true,"decided_by":"the feed's time zone \(America/Los_Angeles\)","events":1\}\]`}, ""},
		{"a reading the context decided, as text", []string{"-sources", filepath.Join(local, "band.json"), "-now", "2027-06-01T00:00:00Z", "band-calendar"},
			[]string{`^  placed "London, CA \|  \| " in london-ca-us \(US, America/Los_Angeles\), decided by the feed's time zone \(America/Los_Angeles\): 1 events$`}, ""},
		{"as JSON", []string{"-sources", filepath.Join(local, "sources.json"), "-max-dropped", "0.5", "-now", "2027-06-01T00:00:00Z", "-json"},
			[]string{`^\{"source":"venue-garage","events":\[\{"id":"[a-z0-9]+","title":"Wet Leg","status":"scheduled","starts_at":"2027-06-05T20:00:00\+01:00",.*"city":\{"slug":"london-gb","name":"London"\}`}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"sources", "check", "-sources", sources, "-fetch-proxy", upstream.URL, "-show", "2"}, tt.args...)
			var stdout, stderr bytes.Buffer
			err := run(args, getenv, &stdout, &stderr)
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Errorf("error %v, want %q", err, tt.err)
			}
			for _, re := range tt.out {
				if !regexp.MustCompile("(?m)" + re).MatchString(stdout.String()) {
					t.Errorf("no line matches %s in:\n%s", re, stdout.String())
				}
			}
			if n := len(regexp.MustCompile(`(?m)^(\S+: |\{"source")`).FindAllString(stdout.String(), -1)); len(tt.out) > 0 && n != 1 {
				t.Errorf("%d sources reported, want the one named:\n%s", n, stdout.String())
			}
		})
	}
}

// TestFixtureRunsCommand starts commands under gigsctl fixture and checks what they are
// given, the corpus's credentials and the server as their fetch proxy, and that gigsctl
// exits with their status.
func TestFixtureRunsCommand(t *testing.T) {
	dir, getenv, _ := demoCorpus(t)
	var stdout, stderr bytes.Buffer
	err := run([]string{"fixture", "-dir", dir, "-listen", "127.0.0.1:0", "--", "sh", "-c",
		`echo "$GIGS_FETCH_PROXY $GIGS_TIXHUB_KEY"; exit 3`}, getenv, &stdout, &stderr)
	if code := exitCode(err); code != 3 {
		t.Errorf("exit code %d (error %v), want the command's 3", code, err)
	}
	if !regexp.MustCompile(`^http://127\.0\.0\.1:\d+ ` + getenv("GIGS_TIXHUB_KEY") + "\n$").MatchString(stdout.String()) {
		t.Errorf("the command saw %q", stdout.String())
	}
	if !strings.Contains(stderr.String(), "serving "+dir) {
		t.Errorf("stderr %q", stderr.String())
	}
	err = run([]string{"fixture", "-dir", dir, "-listen", "127.0.0.1:0", "--", "sh", "-c", "kill -TERM $$"}, getenv, &stdout, &stderr)
	if code := exitCode(err); code != 128+15 {
		t.Errorf("exit code %d (error %v) for a command killed by SIGTERM, want 143", code, err)
	}
	if code := exitCode(run([]string{"fixture", "-dir", dir, "-listen", "127.0.0.1:0", "--", "true"}, getenv, &stdout, &stderr)); code != 0 {
		t.Errorf("exit code %d for a command that succeeded", code)
	}
	if code := exitCode(run([]string{"fixture", "-dir", t.TempDir()}, getenv, &stdout, &stderr)); code != 2 {
		t.Errorf("exit code %d for a directory without a corpus, want 2", code)
	}
}
