package demo_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gigs/gigs/loader/places"
	"github.com/gigs/gigs/testkit/demo"
)

var (
	defaultOpts   = demo.Options{Today: time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC), Seed: 1}
	revision1Opts = demo.Options{Today: defaultOpts.Today, Seed: defaultOpts.Seed, Revision: 1}
)

// shared holds the corpora for defaultOpts and revision1Opts, generated and read once.
var shared struct {
	dir, dir1     string
	sum, sum1     demo.Summary
	files, files1 *corpusFiles
}

func TestMain(m *testing.M) {
	os.Exit(runWithCorpus(m))
}

func runWithCorpus(m *testing.M) int {
	root, err := os.MkdirTemp("", "demo-corpus-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(root)
	shared.dir, shared.dir1 = filepath.Join(root, "r0"), filepath.Join(root, "r1")
	for _, x := range []struct {
		dir   string
		opt   demo.Options
		sum   *demo.Summary
		files **corpusFiles
	}{{shared.dir, defaultOpts, &shared.sum, &shared.files}, {shared.dir1, revision1Opts, &shared.sum1, &shared.files1}} {
		if *x.sum, err = demo.Generate(x.dir, x.opt); err == nil {
			*x.files, err = readCorpusFiles(x.dir)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
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

// otherOpts is a corpus for another day and seed, generated once for the tests that need one.
var otherOpts = demo.Options{Today: time.Date(2027, 3, 20, 0, 0, 0, 0, time.UTC), Seed: 99}

var other struct {
	once sync.Once
	dir  string
	sum  demo.Summary
	err  error
}

func otherCorpus(t *testing.T) (string, demo.Summary) {
	t.Helper()
	other.once.Do(func() {
		other.dir = filepath.Join(filepath.Dir(shared.dir), "other")
		other.sum, other.err = demo.Generate(other.dir, otherOpts)
	})
	if other.err != nil {
		t.Fatal(other.err)
	}
	return other.dir, other.sum
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
	// Regenerating into a used directory gives the same tree; unchanged files are not rewritten.
	stamp := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	generated := filepath.Join(dir, "GENERATED")
	if err := os.Chtimes(generated, stamp, stamp); err != nil {
		t.Fatal(err)
	}
	if _, err := demo.Generate(dir, defaultOpts); err != nil || !sameTree(a, readTree(t, dir)) {
		t.Errorf("regenerating into the same directory changed it (err %v)", err)
	}
	if fi, err := os.Stat(generated); err != nil || !fi.ModTime().Equal(stamp) {
		t.Errorf("an unchanged file was rewritten: %v", err)
	}
	// Revision 1 over revision 0 is exactly revision 1, made separately.
	if _, err := demo.Generate(dir, revision1Opts); err != nil || !sameTree(readTree(t, shared.dir1), readTree(t, dir)) {
		t.Errorf("revision 1 over revision 0 differs from revision 1 alone (err %v)", err)
	}
	if sameTree(a, readTree(t, shared.dir1)) {
		t.Error("revision 1 is revision 0")
	}
	// Another day, or another day and seed, is another corpus.
	dayAfter, _ := generate(t, demo.Options{Today: defaultOpts.Today.AddDate(0, 0, 1), Seed: defaultOpts.Seed})
	otherDir, _ := otherCorpus(t)
	for _, d := range []string{dayAfter, otherDir} {
		if sameTree(a, readTree(t, d)) {
			t.Errorf("%s is the same corpus as %+v", d, defaultOpts)
		}
	}
	// Another corpus over a used directory leaves no file of the old one behind.
	if _, err := demo.Generate(dir, otherOpts); err != nil {
		t.Fatal(err)
	}
	if !sameTree(readTree(t, otherDir), readTree(t, dir)) {
		t.Error("regenerating with another seed left stale files")
	}
}

func TestGenerateRejectsBadOptions(t *testing.T) {
	for _, opt := range []demo.Options{{Seed: 1}, {Today: defaultOpts.Today, Revision: 2}, {Today: defaultOpts.Today, Revision: -1}} {
		if _, err := demo.Generate(t.TempDir(), opt); err == nil {
			t.Errorf("Generate(%+v) succeeded", opt)
		}
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
	_, june := generate(t, demo.Options{Today: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC), Seed: 3})
	_, march := otherCorpus(t)
	sums := []demo.Summary{shared.sum, june, march}
	for _, s := range sums {
		t.Logf("%+v", s)
		checks := []struct {
			name     string
			got      int
			min, max int
		}{
			{"venues", s.Venues, 350, 350},
			{"sites", s.Sites, 320, 320},
			{"JSON-LD sites", s.JSONLD, 176, 176},
			{"microdata sites", s.Microdata, 64, 64},
			{"iCal sites", s.ICal, 48, 48},
			{"broken sites", s.Broken, 32, 32},
			{"cities", s.Cities, 90, 1000},
			{"countries", s.Countries, 40, 1000},
			{"gigs", s.Gigs, 4000, 6500},
			{"upcoming", s.Upcoming, s.Gigs * 9 / 10, s.Gigs - 5},
			{"cancelled", s.Cancelled, s.Gigs * 25 / 1000, s.Gigs * 35 / 1000},
			{"postponed", s.Postponed, s.Gigs * 15 / 1000, s.Gigs * 25 / 1000},
			{"rescheduled", s.Rescheduled, s.Gigs * 5 / 1000, s.Gigs * 15 / 1000},
			{"time TBA", s.TimeTBA, s.Gigs * 25 / 1000, s.Gigs * 35 / 1000},
			{"listings", s.Listings, s.Upcoming / 3, s.Upcoming},
			{"concerts", s.Concerts, s.Gigs, s.Gigs * 13 / 10},
		}
		for _, c := range checks {
			if c.got < c.min || c.got > c.max {
				t.Errorf("%s = %d, want %d–%d", c.name, c.got, c.min, c.max)
			}
		}
	}
}

var hostRE = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.test$`)

func TestSourcesConfig(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(shared.dir, "sources.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(raw, []byte("{\n  \"platforms\": [\n    {\n      \"name\": ")) || !bytes.HasSuffix(raw, []byte("}\n")) {
		t.Fatalf("sources.json is not indented with two spaces and newline-terminated:\n%.200s", raw)
	}
	cfg := shared.files.cfg
	want := []string{
		"tixhub hal http://api.tixhub.test/discovery/v2/events.json GIGS_TIXHUB_KEY true",
		"gigseek meta http://api.gigseek.test/2/events GIGS_GIGSEEK_CLIENT_ID false",
		"evently continuation http://www.evently.test/v3/events/search/ GIGS_EVENTLY_TOKEN false",
		"fanlist bandsintown http://rest.fanlist.test/artists/{artist}/events GIGS_FANLIST_APP_ID false",
		"scenekick songkick http://api.scenekick.test/api/3.0/metro_areas/1/calendar.json GIGS_SCENEKICK_KEY false",
	}
	var got []string
	for _, p := range cfg.Platforms {
		got = append(got, fmt.Sprintf("%s %s %s %s %v", p.Name, p.Kind, p.URL, p.CredentialEnv, p.Primary))
	}
	if !slices.Equal(got, want) {
		t.Errorf("platforms:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	env, err := os.ReadFile(filepath.Join(shared.dir, "demo.env"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range cfg.Platforms {
		if !regexp.MustCompile(`(?m)^` + p.CredentialEnv + `=demo-` + p.Name + `-[0-9a-f]{16}$`).Match(env) {
			t.Errorf("demo.env sets no %s:\n%s", p.CredentialEnv, env)
		}
	}
	if !slices.IsSortedFunc(cfg.Venues, func(a, b venueSource) int { return strings.Compare(a.Name, b.Name) }) {
		t.Error("venues are not sorted by name")
	}
	hosts, names := map[string]bool{}, map[string]bool{}
	formats := map[string]int{}
	hints := map[string]int{}
	for _, v := range cfg.Venues {
		formats[v.Format]++
		if names[v.Name] || !strings.HasPrefix(v.Name, "venue-") {
			t.Errorf("bad or repeated source name %q", v.Name)
		}
		names[v.Name] = true
		u := strings.TrimPrefix(v.URL, "http://")
		host, path, _ := strings.Cut(u, "/")
		if u == v.URL || !hostRE.MatchString(host) || hosts[host] {
			t.Errorf("%s: bad or repeated host in %q", v.Name, v.URL)
		}
		hosts[host] = true
		if v.Format == "ical" && !strings.HasSuffix(path, ".ics") || v.Format != "ical" && strings.HasSuffix(path, ".ics") {
			t.Errorf("%s: %s at %q", v.Name, v.Format, v.URL)
		}
		if v.Venue == nil || v.Venue.Name == "" {
			t.Errorf("%s: no venue hint naming its venue", v.Name)
			continue
		}
		if v.Venue.City == "" {
			if v.Format == "ical" {
				t.Errorf("%s: iCal source without its venue's city", v.Name)
			}
			continue
		}
		hints[v.Format]++
		c, err := places.LookupCity(v.Venue.City, v.Venue.Country)
		if err != nil || c.Timezone != v.Venue.Zone || v.Venue.Name == "" {
			t.Errorf("%s: venue hint %+v: %v (zone %v)", v.Name, *v.Venue, err, c)
		}
	}
	if formats["jsonld"] < 176 || formats["microdata"] < 64 || formats["ical"] < 48 || len(cfg.Venues) != 320 {
		t.Errorf("formats %v of %d sources", formats, len(cfg.Venues))
	}
	if others, n := hints["jsonld"]+hints["microdata"], formats["jsonld"]+formats["microdata"]; others < n*4/10 || others > n*6/10 {
		t.Errorf("%d of %d JSON-LD and microdata sources have venue hints with a city, want about half", others, n)
	}
}

// refsOf returns every record of every source in the files: venue records and listings.
func refsOf(c *corpusFiles) map[mergeRecord]bool {
	out := map[mergeRecord]bool{}
	for src, recs := range c.records {
		for _, r := range recs {
			out[mergeRecord{src, r.ref}] = true
		}
	}
	for p, ls := range c.listings {
		for _, l := range ls {
			out[mergeRecord{p, l.ID}] = true
		}
	}
	return out
}

func TestExpectedMerges(t *testing.T) {
	for _, c := range []*corpusFiles{shared.files, shared.files1} {
		inFiles := refsOf(c)
		perSource := map[string]int{}
		for src, recs := range c.records {
			perSource[src] = len(recs)
			seen := map[string]bool{}
			for _, r := range recs {
				if seen[r.ref] {
					t.Errorf("%s: two events with ref %q", src, r.ref)
				}
				seen[r.ref] = true
			}
		}
		inMerges := map[mergeRecord]string{}
		ids := map[string]bool{}
		idRE := regexp.MustCompile(`^c\d{6}$`)
		for _, k := range c.concerts {
			if !idRE.MatchString(k.ID) || ids[k.ID] {
				t.Errorf("bad or repeated concert id %q", k.ID)
			}
			ids[k.ID] = true
			if len(k.Records) == 0 {
				t.Errorf("concert %s has no records", k.ID)
			}
			if _, err := time.LoadLocation(k.Zone); err != nil || k.Zone == "" {
				t.Errorf("concert %s: zone %q", k.ID, k.Zone)
			}
			_, errTime := time.Parse("2006-01-02T15:04", k.Start)
			_, errDate := time.Parse(time.DateOnly, k.Start)
			if errTime != nil && errDate != nil {
				t.Errorf("concert %s: start %q is neither a local time nor a date", k.ID, k.Start)
			}
			if !slices.Contains([]string{"scheduled", "cancelled", "postponed", "rescheduled"}, k.Status) {
				t.Errorf("concert %s: status %q", k.ID, k.Status)
			}
			sources := map[string]bool{}
			for _, r := range k.Records {
				if !inFiles[r] {
					t.Errorf("concert %s: record %+v is in no file", k.ID, r)
				}
				if other, ok := inMerges[r]; ok {
					t.Errorf("record %+v is in concerts %s and %s", r, other, k.ID)
				}
				inMerges[r] = k.ID
				if sources[r.Source] {
					t.Errorf("concert %s has two records of %s", k.ID, r.Source)
				}
				sources[r.Source] = true
			}
		}
		for r := range inFiles {
			if _, ok := inMerges[r]; !ok {
				t.Errorf("record %+v of the files is in no concert", r)
			}
		}
		if !slices.IsSortedFunc(c.concerts, func(a, b concert) int { return strings.Compare(a.ID, b.ID) }) {
			t.Error("concerts are not sorted by id")
		}
	}
}

// venueConcerts returns, for the concerts with a venue record, whether the event is
// upcoming and whether platforms list it too.
func platformShare(t *testing.T, c *corpusFiles) (upcoming, listed int) {
	t.Helper()
	start := map[mergeRecord]string{}
	for src, recs := range c.records {
		for _, r := range recs {
			start[mergeRecord{src, r.ref}] = r.start
		}
	}
	today := defaultOpts.Today.Format("2006-01-02")
	for _, k := range c.concerts {
		venue, platforms := false, 0
		for _, r := range k.Records {
			if strings.HasPrefix(r.Source, "venue-") {
				s := start[r]
				if len(s) >= 8 && !strings.Contains(s[:8], "-") { // iCal: 20261201T…
					s = s[:4] + "-" + s[4:6] + "-" + s[6:8]
				}
				venue = s >= today
			} else {
				platforms++
			}
		}
		if venue {
			upcoming++
			if platforms > 0 {
				listed++
			}
		}
		if platforms > 5 { // at most three ticketing platforms and the two fan platforms
			t.Errorf("concert %s on %d platforms", k.ID, platforms)
		}
	}
	return upcoming, listed
}

func TestPlatformShare(t *testing.T) {
	up, listed := platformShare(t, shared.files)
	if share := float64(listed) / float64(up); share < 0.28 || share > 0.40 {
		t.Errorf("%d of %d upcoming venue concerts are on platforms (%.0f%%), want about a third", listed, up, 100*share)
	}
	platformOnly := 0
	for _, k := range shared.files.concerts {
		if !strings.HasPrefix(k.Records[0].Source, "venue-") {
			platformOnly++
		}
	}
	if platformOnly < 100 {
		t.Errorf("%d platform-only concerts, want the shows of venues without a site and more", platformOnly)
	}
}

func TestRevision1(t *testing.T) {
	r0, r1 := shared.files, shared.files1
	refs := func(c *corpusFiles) map[string]map[string]string { // concert → source → ref
		out := map[string]map[string]string{}
		for _, k := range c.concerts {
			out[k.ID] = map[string]string{}
			for _, r := range k.Records {
				out[k.ID][r.Source] = r.Ref
			}
		}
		return out
	}
	a, b := refs(r0), refs(r1)
	last := r0.concerts[len(r0.concerts)-1].ID
	added, gone, changedRefs := 0, 0, 0
	for id, recs := range b {
		old, ok := a[id]
		if !ok {
			if id <= last {
				t.Errorf("concert %s is new in revision 1 but numbered among revision 0's", id)
			}
			added++
			continue
		}
		for src, ref := range recs {
			if o, ok := old[src]; ok && o != ref {
				changedRefs++
				t.Errorf("concert %s: %s's ref changed from %q to %q", id, src, o, ref)
			}
		}
	}
	for id := range a {
		if b[id] == nil {
			gone++
		}
	}
	if added < 5 || gone != 0 {
		t.Errorf("revision 1 added %d concerts and lost %d, want some new and none lost", added, gone)
	}
	// Only the changed platform's listings differ.
	for _, p := range []string{"tixhub", "evently", "gigseek"} {
		x, _ := os.ReadFile(filepath.Join(shared.dir, "platforms", p+".json"))
		y, _ := os.ReadFile(filepath.Join(shared.dir1, "platforms", p+".json"))
		if same := bytes.Equal(x, y); same != (p != "gigseek") {
			t.Errorf("%s.json: same in both revisions = %v", p, same)
		}
	}
	// Some titles edited, some shows rescheduled and cancelled on the venues' pages.
	count := func(c *corpusFiles, ok func(record) bool) int {
		n := 0
		for _, recs := range c.records {
			for _, r := range recs {
				if ok(r) {
					n++
				}
			}
		}
		return n
	}
	titles := map[mergeRecord]string{}
	for src, recs := range r0.records {
		for _, r := range recs {
			titles[mergeRecord{src, r.ref}] = r.title
		}
	}
	edited := count(r1, func(r record) bool { old, ok := titles[mergeRecord{r.source, r.ref}]; return ok && old != r.title })
	prev := func(c *corpusFiles) int {
		return count(c, func(r record) bool { return r.m != nil && r.m["previousStartDate"] != nil })
	}
	cancelled := func(c *corpusFiles) int {
		return count(c, func(r record) bool { return r.status == "EventCancelled" || r.status == "CANCELLED" })
	}
	if edited < 30 || prev(r1) <= prev(r0) || cancelled(r1) < cancelled(r0)+5 {
		t.Errorf("revision 1: %d titles edited, previousStartDate on %d → %d events, cancelled %d → %d",
			edited, prev(r0), prev(r1), cancelled(r0), cancelled(r1))
	}
	if shared.sum1.Concerts <= shared.sum.Concerts {
		t.Errorf("concerts %d → %d", shared.sum.Concerts, shared.sum1.Concerts)
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
