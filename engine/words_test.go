package engine_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

func TestFoldWords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Motörhead", "motorhead"},
		{"motorhead", "motorhead"},
		{"MOTÖRHEAD!", "motorhead"},
		{"München", "munchen"},
		{"MUNCHEN", "munchen"},
		{"ｍｕｎｉｃｈ", "munich"},           // full-width
		{"ＭＵＮＩＣＨ　２０２６", "munich 2026"}, // full-width capitals, ideographic space, digits
		{"Αθήνα", "αθηνα"},
		{"ΑΘΗΝΑ", "αθηνα"},
		{"αθηνα", "αθηνα"},
		{"ΟΔΟΣ Οδός", "οδοσ οδοσ"}, // final sigma folds with σ and Σ
		{"Москва", "москва"},
		{"МОСКВА", "москва"},
		{"Ёлка", "елка"},
		{"東京", "東京"},
		{"東京ドーム", "東京ドーム"},
		{"ｶﾀｶﾅ", "カタカナ"}, // half-width katakana
		{"ｶﾞｸﾎﾟ", "ガクポ"}, // with their voiced marks
		{"ガ パ", "ガ パ"},   // voiced marks are not accents
		{"서울", "서울"},     // Hangul syllables stay whole
		{"Guns N' Roses", "guns n roses"},
		{"ﬁnal ﬂight", "final flight"}, // ligatures
		{"Straße Ærø Łódź", "strasse aero lodz"},
		{"İstanbul", "istanbul"},
		{"القاهرة", "القاهرة"},
		{"مُحَمَّد", "محمد"}, // Arabic vowel marks vanish
		{"हिन्दी", "हिनदी"},  // the virama is a nonspacing mark; the vowel sign ि stays in the word
		{"AC/DC", "ac dc"},
		{"...!!!", ""},
		{"①②", "12"},
	} {
		if got := engine.FoldWords(tc.in); got != tc.want {
			t.Errorf("FoldWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestSearchErrors: the limits of a search, and what folds to no word.
func TestSearchErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want error
	}{
		{"motorhead", nil},
		{"a b c d e f g h i j", nil},
		{"a b c d e f g h i j k", engine.ErrSearchWords},
		{strings.Repeat("x", 200), nil},
		{strings.Repeat("x", 201), engine.ErrSearchLong},
		{"!!! ...", engine.ErrSearchEmpty},
		{"   ", engine.ErrSearchEmpty},
		{"", engine.ErrSearchEmpty},
		{strings.Repeat("東", 66), nil},
		{strings.Repeat("㍿", 30), engine.ErrSearchTokens}, // each folds to four characters: 119 pairs
	} {
		q := engine.AcquireQuery()
		if err := q.Search([]byte(tc.in)); !errors.Is(err, tc.want) {
			t.Errorf("Search(%q) = %v, want %v", tc.in, err, tc.want)
		}
		engine.ReleaseQuery(q)
	}
}

// scriptWords are the words of wordsDataset's names, of every script.
var scriptWords = []string{
	// Latin, with diacritics, ligatures and full-width forms
	"Motörhead", "München", "Zürich", "Crème", "Brûlée", "Ærø", "Straße", "São", "Paulo", "Łódź", "Ｍｕｎｉｃｈ", "ﬁnal", "Motor", "Mot", "Head",
	"Björk", "Sigur", "Rós", "Café", "Tacuba", "2026", "AC/DC",
	// Cyrillic, Greek, Arabic, Hebrew, Devanagari
	"Москва", "Кино", "Ария", "Сплин", "Мумий", "Тролль", "Αθήνα", "Θεσσαλονίκη", "ΟΔΟΣ", "Σωκράτης",
	"القاهرة", "فيروز", "كلثوم", "תל", "אביב", "हिन्दी",
	// Han, kana (and half-width kana), Hangul, Thai
	"東京", "北京", "上海", "京都", "東京都", "ドーム", "カタカナ", "ひらがな", "ｶﾀｶﾅ", "武道館", "東",
	"서울", "부산", "방탄소년단", "กรุงเทพ",
}

// scriptName joins one to three words, with spaces or without (東京ドーム, Motörhead東京).
func scriptName(r *rand.Rand) string {
	var b strings.Builder
	for i := range 1 + r.IntN(3) {
		if i > 0 && r.IntN(3) > 0 {
			b.WriteString([]string{" ", " ", "-", "・", " / "}[r.IntN(5)])
		}
		b.WriteString(scriptWords[r.IntN(len(scriptWords))])
	}
	return b.String()
}

// wordsDataset is a synthetic dataset whose names are of every script (scriptNames).
func wordsDataset(seed uint64, gigs int) *engine.Dataset {
	ds := scale.Generate(scale.Config{Gigs: gigs, Seed: seed, Now: now, Days: 40})
	scriptNames(ds, seed)
	return ds
}

// scriptNames renames ds's cities, venues, artists and titles with names of every script.
func scriptNames(ds *engine.Dataset, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 37))
	for i := range ds.Cities {
		ds.Cities[i].Name = scriptName(r)
	}
	for i := range ds.Venues {
		ds.Venues[i].Name = scriptName(r)
	}
	for i := range ds.Artists {
		ds.Artists[i].Name = scriptName(r)
	}
	for i := range ds.Gigs {
		if r.IntN(3) == 0 {
			ds.Gigs[i].Title = scriptName(r)
		}
	}
}

// refSpaceless is the oracle's list of scripts written without spaces.
func refSpaceless(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Thai,
		unicode.Lao, unicode.Khmer, unicode.Myanmar) || r == 'ー' || r == '々'
}

// refRuns cuts folded text into runs: its words, cut where they change between a spaced
// and a spaceless script.
func refRuns(folded string) (spaced, spaceless []string) {
	for _, w := range strings.Fields(folded) {
		rs := []rune(w)
		for i := 0; i < len(rs); {
			j := i + 1
			for j < len(rs) && refSpaceless(rs[j]) == refSpaceless(rs[i]) {
				j++
			}
			if refSpaceless(rs[i]) {
				spaceless = append(spaceless, string(rs[i:j]))
			} else {
				spaced = append(spaced, string(rs[i:j]))
			}
			i = j
		}
	}
	return spaced, spaceless
}

// refSearch is the oracle of a search: whether a gig whose texts are texts matches q.
func refSearch(q string, texts []string) bool {
	var spaced, spaceless []string
	for _, t := range texts {
		a, b := refRuns(engine.FoldWords(t))
		spaced, spaceless = append(spaced, a...), append(spaceless, b...)
	}
	qa, qb := refRuns(engine.FoldWords(q))
	for _, w := range qa {
		if !slices.ContainsFunc(spaced, func(s string) bool { return strings.HasPrefix(s, w) }) {
			return false
		}
	}
	for _, run := range qb {
		rs := []rune(run)
		pieces := []string{run}
		if len(rs) > 1 {
			pieces = pieces[:0]
			for i := 0; i+1 < len(rs); i++ {
				pieces = append(pieces, string(rs[i:i+2]))
			}
		}
		for _, p := range pieces {
			if !slices.ContainsFunc(spaceless, func(s string) bool { return strings.Contains(s, p) }) {
				return false
			}
		}
	}
	return true
}

// randomSearch draws a search: words or beginnings of words of a gig's names (so that it
// often matches), in another case or with accents dropped, or a word of the pool.
func randomSearch(r *rand.Rand, names []string) string {
	var words []string
	for range 1 + r.IntN(3) {
		w := scriptWords[r.IntN(len(scriptWords))]
		if r.IntN(3) > 0 {
			f := strings.FieldsFunc(names[r.IntN(len(names))], func(c rune) bool { return c == ' ' || c == '-' || c == '/' })
			if len(f) > 0 {
				w = f[r.IntN(len(f))]
			}
		}
		rs := []rune(w)
		if r.IntN(2) == 0 && len(rs) > 1 { // a beginning of it
			rs = rs[:1+r.IntN(len(rs)-1)]
		}
		if r.IntN(5) == 0 && len(rs) > 2 { // its end, which begins no word
			rs = rs[1:]
		}
		w = string(rs)
		switch r.IntN(4) {
		case 0:
			w = strings.ToUpper(w)
		case 1:
			w = engine.FoldWords(w)
		}
		words = append(words, w)
	}
	return strings.Join(words, []string{" ", "  ", ", "}[r.IntN(3)])
}

// TestSearchMatchesReference checks random searches, alone and with other filters and
// dates, against the oracle on datasets whose names are of every script, as built and as
// read from the snapshot file, paging through every page by keyset (no gig skipped or
// repeated) and checking the totals.
func TestSearchMatchesReference(t *testing.T) {
	for _, tc := range []struct {
		gigs, queries, minMatching int
	}{{3000, 600, 200}, {60_000, 60, 10}} {
		t.Run(fmt.Sprint(tc.gigs), func(t *testing.T) {
			largeProperty(t, tc.gigs)
			ds := wordsDataset(uint64(tc.gigs), tc.gigs)
			s := build(t, ds)
			loaded := roundTrip(t, s)
			ref := newReference(ds)
			texts := searchTexts(ds)
			r := rand.New(rand.NewPCG(5, uint64(tc.gigs)))
			nonEmpty := 0
			for i := range tc.queries {
				rq := randomQuery(r, ds)
				if r.IntN(2) == 0 { // the search alone, or with dates only
					rq.filters, rq.folded = map[engine.Dim][]string{}, map[engine.Dim][]string{}
				}
				g := ds.Gigs[r.IntN(len(ds.Gigs))]
				search := randomSearch(r, texts[g.ID])
				rq.offset, rq.limit = 0, 1<<30
				wantIDs, _ := ref.run(rq)
				wantIDs = slices.DeleteFunc(wantIDs, func(id string) bool { return !refSearch(search, texts[id]) })
				for _, snap := range []*engine.Snapshot{s, loaded} {
					got := pageAll(t, snap, rq, search, 1+r.IntN(25))
					if !slices.Equal(got, wantIDs) {
						t.Fatalf("query %d q=%q %+v from=%+v to=%+v (read from its file: %v):\ngot %d %v\nwant %d %v",
							i, search, rq.filters, rq.from, rq.to, snap == loaded, len(got), got, len(wantIDs), wantIDs)
					}
				}
				if len(wantIDs) > 0 {
					nonEmpty++
				}
			}
			if nonEmpty < tc.minMatching {
				t.Fatalf("only %d of %d searches matched anything: the test is too weak", nonEmpty, tc.queries)
			}
		})
	}
}

// bySlug returns ds's cities, venues and artists by slug.
func bySlug(ds *engine.Dataset) (map[string]engine.City, map[string]engine.Venue, map[string]engine.Artist) {
	cities, venues, artists := map[string]engine.City{}, map[string]engine.Venue{}, map[string]engine.Artist{}
	for _, c := range ds.Cities {
		cities[c.Slug] = c
	}
	for _, v := range ds.Venues {
		venues[v.Slug] = v
	}
	for _, a := range ds.Artists {
		artists[a.Slug] = a
	}
	return cities, venues, artists
}

// searchTexts returns each gig's searchable texts by id: title, artists, venue and city.
func searchTexts(ds *engine.Dataset) map[string][]string {
	cities, venues, artists := bySlug(ds)
	texts := map[string][]string{}
	for _, g := range ds.Gigs {
		v := venues[g.Venue]
		l := []string{g.Title, v.Name, cities[v.City].Name}
		for _, b := range g.Artists {
			l = append(l, artists[b.Artist].Name)
		}
		texts[g.ID] = l
	}
	return texts
}

// pageAll runs rq with search through every page of size by keyset, checking that each
// page's total is the same, and returns the ids in order.
func pageAll(t *testing.T, s *engine.Snapshot, rq refQuery, search string, size int) []string {
	t.Helper()
	var ids []string
	var token []byte
	total := -1
	for {
		q := engine.AcquireQuery()
		for d, vals := range rq.filters {
			for _, v := range vals {
				q.Match(d, []byte(v))
			}
		}
		if err := q.Search([]byte(search)); err != nil {
			t.Fatalf("Search(%q): %v", search, err)
		}
		q.From, q.To, q.Limit = rq.fromEngine, rq.toEngine, size
		if token != nil && !q.After(token) {
			t.Fatalf("keyset token %q refused", token)
		}
		s.Run(q)
		if total >= 0 && q.Total != total {
			t.Fatalf("q=%q: total %d on a later page, %d on the first", search, q.Total, total)
		}
		total = q.Total
		ids = append(ids, pageIDs(t, s, q.Page)...)
		if q.Offset != len(ids)-len(q.Page) {
			t.Fatalf("q=%q: page after %q begins at %d, want %d", search, token, q.Offset, len(ids)-len(q.Page))
		}
		done := len(q.Page) == 0 || q.Offset+len(q.Page) >= q.Total
		if !done {
			token = s.AppendKeyset(nil, q.Page[len(q.Page)-1])
		}
		engine.ReleaseQuery(q)
		if done {
			break
		}
	}
	if len(ids) != total {
		t.Fatalf("q=%q: %d gigs over the pages, total %d", search, len(ids), total)
	}
	return ids
}

// TestSearchExamples: the examples, on a dataset that holds them.
func TestSearchExamples(t *testing.T) {
	ds := scale.Generate(scale.Config{Gigs: 200, Seed: 3, Now: now, Days: 30})
	scale.Scripts(ds, 7)
	s := build(t, ds)
	texts := searchTexts(ds)
	ref := newReference(ds)
	for _, tc := range []struct {
		q    string
		some bool // the answer is not empty
	}{
		{"motorhead", true}, {"motor", true}, {"MOTÖRHEAD", true}, {"head", false}, {"ｍｏｔｏｒ", true},
		{"MUNCHEN", true}, {"münchen motorhead", true}, {"москва", true}, {"МОСК", true}, {"αθηνα", true}, {"ΑΘΉΝΑ", true},
		{"東京", true}, {"京ド", true}, {"東", true}, {"ム", true}, {"東京都", false}, {"올림픽", true}, {"서울", true},
		{"motorhead zzz", false},
	} {
		var want []string
		for _, r := range ref.rows {
			if refSearch(tc.q, texts[r.id]) {
				want = append(want, r.id)
			}
		}
		if tc.some != (len(want) > 0) {
			t.Fatalf("q=%q: the oracle finds %d gigs", tc.q, len(want))
		}
		got := pageAll(t, s, refQuery{}, tc.q, 20)
		if !slices.Equal(got, want) {
			t.Errorf("q=%q: got %d gigs, want %d", tc.q, len(got), len(want))
		}
	}
}

func TestSearchAllocations(t *testing.T) {
	ds := scale.Generate(scale.Config{Gigs: 40_000, Seed: 3, Now: now, Days: 60})
	s := build(t, ds)
	// A title's first word: a search that resolves its words and filters a part of the gigs
	// (checked below), where "hall" is every venue's and the rare words match nothing.
	title := []byte(strings.Fields(ds.Gigs[0].Title)[0])
	for _, tc := range []struct {
		name  string
		setup func(q *engine.Query)
	}{
		{"a title's word", func(q *engine.Query) { _ = q.Search(title) }},
		{"common word", func(q *engine.Query) { _ = q.Search([]byte("hall")) }},
		{"word and city", func(q *engine.Query) {
			_ = q.Search([]byte("hall"))
			q.Match(engine.DimCity, []byte("london"))
		}},
		{"short prefix and genre, dates", func(q *engine.Query) {
			_ = q.Search([]byte("k"))
			q.Match(engine.DimGenre, []byte("rock"))
			q.From, q.To = engine.OnDate(now.AddDate(0, 0, 3)), engine.OnDate(now.AddDate(0, 0, 30))
		}},
		{"frequent prefix and city", func(q *engine.Query) { // counted from pair counts (checked below)
			_ = q.Search([]byte("k"))
			q.Match(engine.DimCity, []byte("london"))
		}},
		{"three words", func(q *engine.Query) { _ = q.Search([]byte("ka Lo hall")) }},
		{"rare word", func(q *engine.Query) { _ = q.Search([]byte("kalomira")) }},
		{"long non-ASCII", func(q *engine.Query) { _ = q.Search([]byte("Motörhead 東京ドーム München Москва")) }},
	} {
		q := engine.AcquireQuery()
		n := testing.AllocsPerRun(200, func() {
			q.Reset()
			tc.setup(q)
			q.Limit = 20
			s.Run(q)
		})
		total, paired := q.Total, engine.PairCounted(q)
		engine.ReleaseQuery(q)
		if tc.name == "frequent prefix and city" && !paired {
			t.Errorf("%s: not counted from pair counts: the gate misses them", tc.name)
		}
		if n > 0 {
			t.Errorf("%s: %v allocations per query, want none", tc.name, n)
		}
		if tc.name == "a title's word" && (total == 0 || total >= s.Len()) {
			t.Errorf("q=%s matches %d of %d gigs: not a search that filters", title, total, s.Len())
		}
	}
}

// FuzzSearch: any text either is refused with one of Search's errors, leaving the query
// as it was, or gives a query that runs; never a panic.
func FuzzSearch(f *testing.F) {
	for _, s := range []string{"motorhead", "Motörhead 東京", "ｍｕｎｉｃｈ", "!!!", "東", "a b c d e f g h i j k", "\xff\xfe", "㍿㍿", "ﷺ"} {
		f.Add(s)
	}
	s := build(f, scale.Generate(scale.Config{Gigs: 500, Seed: 3, Now: now, Days: 30}))
	f.Fuzz(func(t *testing.T, text string) {
		q := engine.AcquireQuery()
		defer engine.ReleaseQuery(q)
		q.Limit = 5
		err := q.Search([]byte(text))
		switch {
		case err == nil:
			if len(text) > engine.MaxSearchBytes || len(strings.Fields(engine.FoldWords(text))) > engine.MaxSearchWords {
				t.Fatalf("Search(%q) accepted", text)
			}
		case errors.Is(err, engine.ErrSearchEmpty):
			if engine.FoldWords(text) != "" {
				t.Fatalf("Search(%q): %v, but it folds to %q", text, err, engine.FoldWords(text))
			}
		case errors.Is(err, engine.ErrSearchLong), errors.Is(err, engine.ErrSearchWords), errors.Is(err, engine.ErrSearchTokens):
		default:
			t.Fatalf("Search(%q): unexpected error %v", text, err)
		}
		if f := engine.FoldWords(text); !utf8.ValidString(f) {
			t.Fatalf("FoldWords(%q) = %q: not UTF-8", text, f)
		}
		s.Run(q)
		if err != nil && q.Total != s.Len() { // as if no search had been given
			t.Fatalf("Search(%q) refused (%v) but changed the query: %d matches", text, err, q.Total)
		}
	})
}
