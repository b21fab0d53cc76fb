package server

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

// wordsServer serves a snapshot whose names are of several scripts on a real listener.
func wordsServer(t *testing.T) (string, *engine.Snapshot) {
	t.Helper()
	ds := scale.Generate(scale.Config{Gigs: 400, Seed: 42, Now: testNow, Days: 60})
	scale.Scripts(ds, 5)
	s, err := engine.Build(ds, engine.Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	var live engine.Live
	live.Publish(s)
	live.SetNextRefresh(nextLoad)
	return listen(t, testServer(t, &live)), s
}

type gigsPage struct {
	Data []struct {
		ID     string `json:"id"`
		Title  string `json:"title"`
		Venue  struct{ Name string }
		City   struct{ Name string }
		Artist []struct{ Name string } `json:"artists"`
	}
	Meta  struct{ Total int }
	Links map[string]string
}

// TestSearchOverHTTP: q finds what the engine finds, folded, in every script, with other
// filters, and its next links carry it through every page.
func TestSearchOverHTTP(t *testing.T) {
	base, snap := wordsServer(t)
	for _, tc := range []struct {
		query string
		some  bool
	}{
		{"q=motorhead", true}, {"q=MOTOR", true}, {"q=Mot%C3%B6rhead", true}, {"q=head", false},
		{"q=MUNCHEN", true}, {"q=%EF%BD%8D%EF%BD%95%EF%BD%8E", true}, // ｍｕｎ, full-width
		{"q=%D0%BC%D0%BE%D1%81%D0%BA%D0%B2%D0%B0", true}, // москва
		{"q=%CE%B1%CE%B8%CE%B7%CE%BD%CE%B1", true},       // αθηνα
		{"q=%E6%9D%B1%E4%BA%AC", true},                   // 東京
		{"q=%E3%83%89%E3%83%BC%E3%83%A0", true},          // ドーム
		{"q=motorhead&city=m%C3%BCnchen", true}, {"q=motorhead+hall&page_size=7", true},
		{"q=motorhead&from=2026-12-01&to=2027-01-10&page_size=3", true}, {"q=zzzz", false},
	} {
		t.Run(tc.query, func(t *testing.T) {
			vals, _ := url.ParseQuery(tc.query)
			q := engine.AcquireQuery()
			defer engine.ReleaseQuery(q)
			if err := q.Search([]byte(vals.Get("q"))); err != nil {
				t.Fatal(err)
			}
			if c := vals.Get("city"); c != "" {
				q.Match(engine.DimCity, []byte(c))
			}
			from, to := engine.AtInstant(testNow), engine.Unbounded
			if vals.Get("from") != "" {
				f, _ := parseBound([]byte(vals.Get("from")))
				t2, _ := parseBound([]byte(vals.Get("to")))
				from, to = f, t2
			}
			q.From, q.To, q.Limit = from, to, 1000
			snap.Run(q)
			var want []string
			for _, p := range q.Page {
				var g struct{ ID string }
				_ = json.Unmarshal(snap.GigJSON(p), &g)
				want = append(want, g.ID)
			}
			if tc.some != (len(want) > 0) {
				t.Fatalf("the engine finds %d gigs", len(want))
			}
			var got []string
			next, pages := "/v1/gigs?"+tc.query, 0
			for next != "" {
				r := do(t, "GET", base+next, nil)
				if r.status != 200 {
					t.Fatalf("%s: status %d: %s", next, r.status, r.body)
				}
				var page gigsPage
				if err := json.Unmarshal(r.body, &page); err != nil {
					t.Fatal(err)
				}
				if page.Meta.Total != len(want) {
					t.Fatalf("%s: total %d, want %d", next, page.Meta.Total, len(want))
				}
				for _, rel := range []string{"self", "first", "last", "next"} {
					if l := page.Links[rel]; l != "" && !strings.Contains(l, "q=") {
						t.Fatalf("%s link %q lost the search", rel, l)
					}
				}
				for _, g := range page.Data {
					got = append(got, g.ID)
				}
				next = page.Links["next"]
				if pages++; pages > 100 {
					t.Fatal("more than 100 pages")
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("got %v, want %v", got, want)
			}
		})
	}
}

// TestSearchErrors: each bad q is a 400 problem naming q.
func TestSearchErrors(t *testing.T) {
	base, _ := wordsServer(t)
	for _, tc := range []struct{ query, reason string }{
		{"q=", "must not be empty"},
		{"q=+++", "must not be empty"},
		{"q=%21%21%21+...", "must hold a word"},
		{"q=%E2%99%AA", "must hold a word"}, // ♪
		{"q=" + strings.Repeat("x", 201), "at most 200 bytes"},
		{"q=a+b+c+d+e+f+g+h+i+j+k", "at most 10 words"},
		{"q=" + strings.Repeat("%E3%8D%BF", 30), "at most 100 characters"}, // ㍿ folds to four characters
		{"q=a&q=b", "given more than once"},
	} {
		t.Run(tc.query[:min(len(tc.query), 30)], func(t *testing.T) {
			r := do(t, "GET", base+"/v1/gigs?"+tc.query, nil)
			checkProblem(t, r, "/v1/gigs")
			var p problemJSON
			_ = json.Unmarshal(r.body, &p)
			if r.status != 400 || len(p.InvalidParams) != 1 || p.InvalidParams[0].Name != "q" ||
				!strings.Contains(p.InvalidParams[0].Reason, tc.reason) {
				t.Fatalf("status %d, %s; want a 400 naming q: %q", r.status, r.body, tc.reason)
			}
		})
	}
}

// TestSearchNear: q and near together answer the gigs that each answers alone, in the
// order near gives them, by start and by distance, through every page of the next links.
func TestSearchNear(t *testing.T) {
	base, _ := wordsServer(t)
	type gig struct {
		ID    string `json:"id"`
		Venue struct{ Lat, Lon *float64 }
	}
	walk := func(query string) []gig {
		var all []gig
		for next, pages := "/v1/gigs?"+query, 0; next != ""; pages++ {
			r := do(t, "GET", base+next, nil)
			if r.status != 200 {
				t.Fatalf("%s: status %d: %s", next, r.status, r.body)
			}
			var page struct {
				Data  []gig
				Links map[string]string
			}
			if err := json.Unmarshal(r.body, &page); err != nil {
				t.Fatal(err)
			}
			all = append(all, page.Data...)
			if next = page.Links["next"]; pages > 200 {
				t.Fatalf("%s: more than 200 pages", query)
			}
		}
		return all
	}
	words := walk("q=motorhead&page_size=100")
	if len(words) == 0 || words[0].Venue.Lat == nil {
		t.Fatalf("q=motorhead: %d gigs, the first without a position", len(words))
	}
	found := map[string]bool{}
	for _, g := range words {
		found[g.ID] = true
	}
	near := "near=" + url.QueryEscape(fmt.Sprintf("%.4f,%.4f", *words[0].Venue.Lat, *words[0].Venue.Lon)) + "&radius=300km&page_size=9"
	for _, sort := range []string{"", "&sort=distance"} {
		var want []string
		for _, g := range walk(near + sort) {
			if found[g.ID] {
				want = append(want, g.ID)
			}
		}
		var got []string
		for _, g := range walk(near + sort + "&q=motorhead") {
			got = append(got, g.ID)
		}
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("%s&q=motorhead: got %v, want %v", near+sort, got, want)
		}
	}
}
