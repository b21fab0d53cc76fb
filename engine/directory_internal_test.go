package engine

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestDirectoryPrefixPostings: in a directory's words index, every prefix (at a
// character's end, of at most everyPrefixBytes) that begins two tokens or more has a
// posting of its own, holding the entries one of those tokens is in, so that a typeahead
// of one token is one posting whatever the size of the directory; without everyPrefix (as
// in the index of gigs) only the heavy and frequent prefixes have one.
func TestDirectoryPrefixPostings(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 7))
	parts := []string{"mo", "tör", "head", "mü", "nchen", "мо", "сква", "東京", "a", "ab", "b"}
	names := make([]string, 3000)
	for i := range names {
		var b strings.Builder
		for range 1 + r.IntN(3) {
			for range 1 + r.IntN(3) {
				b.WriteString(parts[r.IntN(len(parts))])
			}
			b.WriteByte(' ')
		}
		names[i] = b.String()
	}
	// Each entry's tokens, for the brute force.
	var tb wordIndexBuilder
	entryToks := make([][]string, len(names))
	for i, n := range names {
		for _, id := range tb.tokenize(nil, n) {
			entryToks[i] = append(entryToks[i], tb.tokens[id])
		}
	}
	for _, every := range []bool{true, false} {
		x, err := directoryWords(len(names), func(i int) []string { return names[i : i+1] }, every)
		if err != nil {
			t.Fatal(err)
		}
		owned := 0
		seen := map[string]bool{}
		for _, tok := range tb.tokens {
			for j := 0; j < len(tok); {
				_, size := utf8.DecodeRuneInString(tok[j:])
				j += size
				p := tok[:j]
				if seen[p] {
					continue
				}
				seen[p] = true
				var want []uint32 // brute force: the entries with a token p begins
				for i, toks := range entryToks {
					if slices.ContainsFunc(toks, func(tok string) bool { return strings.HasPrefix(tok, p) }) {
						want = append(want, uint32(i))
					}
				}
				g, ok := x.group([]byte(p))
				if !ok {
					t.Fatalf("%q: no group", p)
				}
				if g.hi-g.lo > 1 && g.heavy < 0 {
					if every && len(p) <= everyPrefixBytes {
						t.Fatalf("%q begins %d tokens and has no posting of its own", p, g.hi-g.lo)
					}
					continue
				}
				owned++
				var got []uint32
				for i := range g.alts() {
					ps := x.posting(&g, i)
					if ps.bm != nil {
						got = append(got, ps.bm.ToArray()...)
					} else {
						got = append(got, ps.list...)
					}
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%q: posting %v, want %v", p, got, want)
				}
			}
		}
		if !every && owned == len(seen) {
			t.Fatalf("without everyPrefix, all %d prefixes have a posting: the test tells nothing", owned)
		}
	}
}
