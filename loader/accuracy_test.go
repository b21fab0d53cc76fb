package loader

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
)

// Merge goals, measured on pairs of records: of the pairs merged into one gig, the share
// that are one concert (precision); of the pairs that are one concert, the share merged
// (recall). Only records of sources that were fetched count.
const (
	minPrecision = 0.99
	minRecall    = 0.97
)

// TestMergePrecisionRecall fetches the demo corpus through the fixture server, as a
// refresh does, and holds the merge to the corpus's expected merges.
func TestMergePrecisionRecall(t *testing.T) {
	for _, rev := range []int{0, 1} {
		t.Run(fmt.Sprint("revision ", rev), func(t *testing.T) {
			c := serveCorpus(t, rev)
			truth := c.concerts(t)
			_, norm, _, err := c.loader.gather(t.Context(), c.clock.Now())
			if err != nil {
				t.Fatal(err)
			}
			for i := range norm.recs {
				if truth[norm.recs[i].ref()] == nil {
					t.Errorf("record %v is in no concert of expected-merges.json", norm.recs[i].ref())
				}
			}
			clusters := norm.clusters()
			m := scoreMerge(norm, clusters, truth)
			t.Logf("%d records in %d gigs: precision %.4f (%d of %d merged pairs), recall %.4f (%d of %d true pairs)",
				len(norm.recs), len(clusters), m.precision(), m.truePairs, m.mergedPairs, m.recall(), m.truePairs, m.concertPairs)
			for _, e := range m.examples {
				t.Log(e)
			}
			if m.concertPairs < 1000 {
				t.Fatalf("only %d pairs of records are one concert: the corpus did not load", m.concertPairs)
			}
			if m.precision() < minPrecision || m.recall() < minRecall {
				t.Errorf("precision %.4f, recall %.4f; want at least %.2f and %.2f", m.precision(), m.recall(), minPrecision, minRecall)
			}
		})
	}
}

// mergeScore counts pairs of records.
type mergeScore struct {
	mergedPairs  int // pairs in one gig
	concertPairs int // pairs in one concert
	truePairs    int // pairs in one gig and one concert
	examples     []string
}

func (m mergeScore) precision() float64 { return float64(m.truePairs) / float64(max(m.mergedPairs, 1)) }
func (m mergeScore) recall() float64    { return float64(m.truePairs) / float64(max(m.concertPairs, 1)) }

// scoreMerge compares clusters with the concerts of truth, noting a few wrong merges and
// missed ones as examples.
func scoreMerge(n *normalizer, clusters [][]int32, truth map[recordRef]*concert) mergeScore {
	var m mergeScore
	gigOf := make([]int, len(n.recs))
	for k, cl := range clusters {
		for _, i := range cl {
			gigOf[i] = k
		}
		for x := range cl {
			for _, j := range cl[x+1:] {
				m.mergedPairs++
				a, b := truth[n.recs[cl[x]].ref()], truth[n.recs[j].ref()]
				if a != nil && a == b {
					m.truePairs++
				} else if len(m.examples) < 10 {
					m.examples = append(m.examples, fmt.Sprintf("wrongly merged: %s and %s", describe(&n.recs[cl[x]], a), describe(&n.recs[j], b)))
				}
			}
		}
	}
	byConcert := map[*concert][]int{}
	for i := range n.recs {
		if k := truth[n.recs[i].ref()]; k != nil {
			byConcert[k] = append(byConcert[k], i)
		}
	}
	for _, recs := range byConcert {
		for x := range recs {
			for _, j := range recs[x+1:] {
				m.concertPairs++
				if gigOf[recs[x]] != gigOf[j] && len(m.examples) < 20 {
					m.examples = append(m.examples, fmt.Sprintf("not merged: %s and %s", describe(&n.recs[recs[x]], nil), describe(&n.recs[j], nil)))
				}
			}
		}
	}
	return m
}

func describe(r *record, k *concert) string {
	s := fmt.Sprintf("%s %q %q at %s", r.ev.Source, r.ev.Title, r.ev.Venue.Name, r.start.Format("2006-01-02 15:04 MST"))
	if r.tba {
		s += " (tba)"
	}
	if k != nil {
		s += " [" + k.ID + "]"
	}
	return s
}

// TestMergedGigsStateTheTruth builds the demo corpus as a refresh does and checks every
// upcoming concert's gig against the corpus's truth: its venue-local date and time, its
// UTC offset that day (DST change days and +05:30, +05:45 and -03:30 zones among them),
// whether its time is to be announced, its zone and its status.
//
// A fact is held to the truth when a record of the concert states it and the documented
// precedence lets it count; facts no record states (iCalendar cannot say "postponed", all
// sources may date a club night to the evening before) are only counted. Gigs with a
// record from the venue's site must be right; of the gigs only platforms list, whose
// records may give the doors time or disagree with nothing to settle it, minPlatformOnly
// must be right (the cases alone are too small for a share).
func TestMergedGigsStateTheTruth(t *testing.T) {
	const minPlatformOnly = 0.9
	c := serveCorpus(t, 1)
	truth := c.concerts(t)
	_, norm, _, err := c.loader.gather(t.Context(), c.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	clusters := norm.clusters()
	ds := norm.dataset(NewIDStore().begin(), clusters)
	snap, err := engine.Build(&ds, engine.Options{Now: c.clock.Now()})
	if err != nil {
		t.Fatal(err)
	}
	type tally struct{ checked, unknowable, platformOnly, platformOnlyWrong int }
	tallies := map[string]*tally{}
	for k, cl := range clusters {
		want := truth[norm.recs[cl[0]].ref()]
		if want == nil {
			continue // reported by TestMergePrecisionRecall
		}
		body, ok := snap.GigByID(ds.Gigs[k].ID)
		if !ok {
			continue // not upcoming
		}
		loc, err := time.LoadLocation(want.Zone)
		if err != nil {
			t.Fatal(err)
		}
		recs := make([]*record, len(cl))
		venueBacked := false
		for j, i := range cl {
			recs[j] = &norm.recs[i]
			venueBacked = venueBacked || recs[j].role == RoleVenue
		}
		problems, unknowable := checkGig(t, body, want, loc, recs)
		for _, cs := range timeCases(want, loc) {
			ty := tallies[cs]
			if ty == nil {
				ty = &tally{}
				tallies[cs] = ty
			}
			ty.checked++
			if unknowable {
				ty.unknowable++
			}
			if !venueBacked {
				ty.platformOnly++
				if len(problems) > 0 {
					ty.platformOnlyWrong++
				}
			} else if len(problems) > 0 && cs == "all" {
				t.Errorf("%s (%s, %d records, with the venue's): %s", want.ID, want.Zone, len(cl), strings.Join(problems, "; "))
			}
		}
	}
	cases := make([]string, 0, len(tallies))
	for cs := range tallies {
		cases = append(cases, cs)
	}
	sort.Strings(cases)
	for _, cs := range cases {
		ty := tallies[cs]
		t.Logf("%-22s %5d gigs: %3d with facts no record states; %4d only on platforms, %3d of them wrong", cs, ty.checked, ty.unknowable, ty.platformOnly, ty.platformOnlyWrong)
		if right := 1 - float64(ty.platformOnlyWrong)/float64(max(ty.platformOnly, 1)); cs == "all" && right < minPlatformOnly {
			t.Errorf("%s: %.1f%% of gigs only platforms list are right, want at least %.0f%%", cs, 100*right, 100*minPlatformOnly)
		}
	}
	for _, cs := range []string{"all", "DST change day", "offset +05:30", "offset +05:45", "offset -03:30", "time to be announced", "cancelled", "rescheduled", "postponed"} {
		if ty := tallies[cs]; ty == nil || ty.checked-ty.platformOnly == 0 {
			t.Errorf("no upcoming gig of case %q with a venue record was checked", cs)
		}
	}
}

// checkGig compares a gig's JSON with the truth about its concert, whose records are recs.
// It returns what is wrong among the facts a record states, and whether some fact of the
// truth is stated by no record (or none the precedence lets count).
func checkGig(t *testing.T, body []byte, want *concert, loc *time.Location, recs []*record) (problems []string, unknowable bool) {
	t.Helper()
	var got struct {
		StartsAt string        `json:"starts_at"`
		Date     string        `json:"date"`
		TimeTBA  bool          `json:"time_tba"`
		Timezone string        `json:"timezone"`
		Status   engine.Status `json:"status"`
	}
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	if got.Timezone != want.Zone {
		problems = append(problems, fmt.Sprintf("zone %s, want %s", got.Timezone, want.Zone))
	}
	tba := len(want.Start) == len(time.DateOnly)
	timeStated, statusStated := false, want.Status == engine.StatusScheduled
	allCancelled := true
	for _, r := range recs {
		if tba {
			timeStated = timeStated || r.tba && r.start.Format(time.DateOnly) == want.Start
		} else {
			timeStated = timeStated || !r.tba && r.start.Format("2006-01-02T15:04") == want.Start
		}
		s := r.ev.Status
		allCancelled = allCancelled && s == engine.StatusCancelled
		statusStated = statusStated || s == want.Status && (s != engine.StatusCancelled || r.role <= RolePrimary)
	}
	statusStated = statusStated || want.Status == engine.StatusCancelled && allCancelled
	switch {
	case !timeStated:
		unknowable = true
	case tba:
		if !got.TimeTBA || got.StartsAt != "" || got.Date != want.Start {
			problems = append(problems, fmt.Sprintf("want %s with time to be announced, got date %s starts_at %q", want.Start, got.Date, got.StartsAt))
		}
	default:
		local, err := time.ParseInLocation("2006-01-02T15:04", want.Start, loc)
		if err != nil {
			t.Fatal(err)
		}
		if wantAt := local.Format("2006-01-02T15:04:05-07:00"); got.StartsAt != wantAt || got.Date != want.Start[:10] || got.TimeTBA {
			problems = append(problems, fmt.Sprintf("want starts_at %s, got %q (date %s, tba %v)", wantAt, got.StartsAt, got.Date, got.TimeTBA))
		}
	}
	if !statusStated {
		unknowable = true
	} else if got.Status != want.Status {
		problems = append(problems, fmt.Sprintf("status %s, want %s", got.Status, want.Status))
	}
	return problems, unknowable
}

// timeCases names the cases a concert is an example of.
func timeCases(k *concert, loc *time.Location) []string {
	cases := []string{"all"}
	day, err := time.ParseInLocation(time.DateOnly, k.Start[:10], loc)
	if err != nil {
		return cases
	}
	_, before := day.Zone()
	_, after := day.AddDate(0, 0, 1).Zone()
	if before != after {
		cases = append(cases, "DST change day")
	}
	switch _, off := day.Add(12 * time.Hour).Zone(); off {
	case 5*3600 + 1800:
		cases = append(cases, "offset +05:30")
	case 5*3600 + 2700:
		cases = append(cases, "offset +05:45")
	case -3*3600 - 1800:
		cases = append(cases, "offset -03:30")
	}
	if len(k.Start) == len(time.DateOnly) {
		cases = append(cases, "time to be announced")
	}
	if k.Status != engine.StatusScheduled {
		cases = append(cases, string(k.Status))
	}
	return cases
}
