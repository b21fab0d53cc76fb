package engine

import (
	"bytes"
	"errors"
	"math/bits"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// Search by words (q= on /v1/gigs). A gig's searchable text is its title, its artists'
// names, its venue's name and its city's name, folded by AppendFoldWords into words
// separated by spaces. Each word is cut into runs where it changes between a script
// written with spaces between words and one written without (Han, Hiragana, Katakana,
// Hangul, Thai, Lao, Khmer, Myanmar: see spaceless). Those runs give the tokens:
//
//   - a run of a spaced script is a token as it is ("motorhead", "москва", "2026");
//   - a run of a spaceless script gives each pair of consecutive characters ("東京ドーム":
//     東京, 京ド, ドー, ーム) and its last character alone (ム), so that every character of
//     the run begins a token.
//
// A query is folded and cut alike, and each of its tokens must begin a token of the gig
// (a prefix): "motor" finds Motörhead, "head" does not; a spaceless run of two or more
// characters asks for each of its pairs (東京都 asks for 東京 and 京都, anywhere in the
// gig's text: pairs do not check that they are adjacent, as bigram indexes go), and a run
// of one character for any token it begins, so 東 finds every gig with 東 in its text.
//
// The index (wordIndex) holds a posting per token, its keys in byte order so that the
// tokens a prefix begins are a range of them, and a posting per heavy prefix, one that
// begins more than maxPrefixWords tokens, and per frequent prefix, one that begins two
// tokens or more holding frequentFrom positions: a query's token costs at most
// maxPrefixWords postings, or one. Its tokens resolve per query (Query.words), into groups that filterSet
// intersects with the other filters' as it does theirs.

// Limits of a search, which the server checks before Search does.
const (
	MaxSearchBytes  = 200 // bytes of a search's text
	MaxSearchWords  = 10  // words of a search's folded text
	maxSearchTokens = 100 // tokens of one search (pairs of a long spaceless run count each)
)

// Errors of Query.Search, fit to show a client.
var (
	ErrSearchLong   = errors.New("must be at most 200 bytes")
	ErrSearchWords  = errors.New("must be at most 10 words")
	ErrSearchTokens = errors.New("must be at most 100 characters in scripts written without spaces (Chinese, Japanese, Korean, Thai)")
	ErrSearchEmpty  = errors.New("must hold a word: letters or digits, not only punctuation or symbols")
)

// maxPrefixWords is how many tokens' postings a query's token ORs at most: a prefix that
// begins more has a posting of its own.
const maxPrefixWords = 32

// spaceless reports whether r is of a script written without spaces between words.
func spaceless(r rune) bool {
	switch {
	case r < 0x0e00: // Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic, Indic scripts
		return false
	case 0x3005 <= r && r <= 0x30ff: // kana, and the marks ー 々 that are of no script
		return true
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul,
		unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}

// appendTokens appends the tokens of text, folded by AppendFoldWords, to dst as spans of
// text offset by base: an index's tokens, or with query a query's (pairs only for a
// spaceless run of two or more characters, the character alone for a run of one).
func appendTokens(dst []span, text []byte, base int, query bool) []span {
	i := 0
	for i < len(text) {
		if text[i] == ' ' {
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		if !spaceless(r) {
			j := i + size
			for j < len(text) && text[j] != ' ' {
				r, n := utf8.DecodeRune(text[j:])
				if spaceless(r) {
					break
				}
				j += n
			}
			dst = append(dst, span{base + i, base + j})
			i = j
			continue
		}
		// A spaceless run: its pairs, and its last character (or, in a query, when the run
		// is one character).
		prev, j := i, i+size
		for j < len(text) {
			r, n := utf8.DecodeRune(text[j:])
			if r == ' ' || !spaceless(r) {
				break
			}
			dst = append(dst, span{base + prev, base + j + n})
			prev, j = j, j+n
		}
		if !query || prev == i {
			dst = append(dst, span{base + prev, base + j})
		}
		i = j
	}
	return dst
}

// Search adds text to q's search: every token of it must begin a token of a gig's
// searchable text (see the top of words.go). A second call adds more words, as if joined
// to the first by a space. It copies what it keeps and allocates nothing once q's scratch
// has grown. An error (ErrSearchLong, ErrSearchWords, ErrSearchTokens, ErrSearchEmpty)
// leaves q as it was.
func (q *Query) Search(text []byte) error {
	if len(text) > MaxSearchBytes {
		return ErrSearchLong
	}
	lo, toks := len(q.text), len(q.toks)
	q.text = AppendFoldWords(q.text, text)
	words := 0
	for i, c := range q.text[lo:] {
		if i == 0 || c == ' ' {
			words++
		}
	}
	if len(q.text) == lo {
		words = 0
	}
	q.toks = appendTokens(q.toks, q.text[lo:], lo, true)
	var err error
	switch {
	case words == 0:
		err = ErrSearchEmpty
	case words > MaxSearchWords || q.searchWords+words > MaxSearchWords:
		err = ErrSearchWords
	case len(q.toks) > maxSearchTokens:
		err = ErrSearchTokens
	}
	if err != nil {
		q.text, q.toks = q.text[:lo], q.toks[:toks]
		return err
	}
	q.searchWords += words
	return nil
}

// wordIndex finds the positions (gigs, or any other numbered entities) whose text holds
// tokens. Immutable once built.
type wordIndex struct {
	words    postings // a posting per token, numbered in the tokens' byte order
	prefixes postings // a posting per heavy or frequent prefix, numbered in the prefixes' byte order
	dense    wordBits
}

// wordGroup is a query's token resolved in a wordIndex: the tokens words[lo:hi] it begins,
// or, when they are more than one and their prefix is heavy or frequent, the posting heavy
// of prefixes. est is the sum of their sizes.
type wordGroup struct {
	lo, hi, heavy int32
	est           uint64
}

// prefixRange returns the range of t's keys that begin with p; t's keys must ascend.
func prefixRange(t *keyTable, p []byte) (lo, hi int) {
	n := t.len()
	lo = searchKeys(t, 0, n, func(k []byte) bool { return bytes.Compare(k, p) >= 0 })
	hi = searchKeys(t, lo, n, func(k []byte) bool { return !bytes.HasPrefix(k, p) })
	return lo, hi
}

// searchKeys returns the first i in [lo, hi) at which f(t.key(i)) is true, f being false
// then true along the keys, or hi.
func searchKeys(t *keyTable, lo, hi int, f func(k []byte) bool) int {
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if f(t.key(m)) {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// group resolves a query token; ok is false when no token begins with it.
func (x *wordIndex) group(tok []byte) (g wordGroup, ok bool) {
	lo, hi := prefixRange(&x.words.keys, tok)
	if lo == hi {
		return wordGroup{}, false
	}
	g = wordGroup{lo: int32(lo), hi: int32(hi), heavy: -1}
	if hi-lo > 1 { // a heavy or frequent prefix has a posting of its own
		if k, _ := prefixRange(&x.prefixes.keys, tok); k < x.prefixes.keys.len() && bytes.Equal(x.prefixes.keys.key(k), tok) {
			g.heavy = int32(x.prefixes.of[k])
			g.est = x.prefixes.posting(int(g.heavy)).card()
			return g, true
		}
		// Not there: a prefix of few tokens, or (only a damaged index would miss a heavy
		// one) every token's posting, slowly.
	}
	for i := lo; i < hi; i++ {
		g.est += x.words.posting(int(x.words.of[i])).card()
	}
	return g, true
}

// alts returns the number of postings of g.
func (g *wordGroup) alts() int {
	if g.heavy >= 0 {
		return 1
	}
	return int(g.hi - g.lo)
}

// posting returns g's i-th posting.
func (x *wordIndex) posting(g *wordGroup, i int) posting {
	if g.heavy >= 0 {
		return x.dense.with(x.prefixes.posting(int(g.heavy)), 1, int(g.heavy))
	}
	k := int(x.words.of[int(g.lo)+i])
	return x.dense.with(x.words.posting(k), 0, k)
}

// resolveWords resolves q's search tokens in s into q.wg; ok is false when one begins no
// token, so that nothing matches.
func (s *Snapshot) resolveWords(q *Query) bool {
	q.wg = q.wg[:0]
	for _, t := range q.toks {
		g, ok := s.words.group(q.text[t.lo:t.hi])
		if !ok {
			return false
		}
		q.wg = append(q.wg, g)
	}
	return true
}

// wordIndexBuilder gathers the tokens of numbered entities' texts.
type wordIndexBuilder struct {
	ids    map[string]int32 // token → its number
	tokens []string
	text   []byte
	spans  []span
	// everyPrefix gives every prefix of at most everyPrefixBytes that begins two tokens
	// or more a posting of its own, not only the heavy and frequent ones: a directory's
	// typeahead (directory.go), whose query of one token is then one posting, paged
	// without a pass over every entry. Those postings hold at most everyPrefixBytes times
	// the tokens' positions, whatever the names.
	everyPrefix bool
}

// everyPrefixBytes is the longest prefix everyPrefix gives a posting: a typeahead is
// typed a few characters at a time, and the longer a prefix, the fewer tokens it begins.
const everyPrefixBytes = 12

// tokenize appends the numbers of s's tokens to dst.
func (b *wordIndexBuilder) tokenize(dst []int32, s string) []int32 {
	if b.ids == nil {
		b.ids = map[string]int32{}
	}
	b.text = AppendFoldWords(b.text[:0], []byte(s))
	b.spans = appendTokens(b.spans[:0], b.text, 0, false)
	for _, t := range b.spans {
		tok := b.text[t.lo:t.hi]
		id, ok := b.ids[string(tok)]
		if !ok {
			id = int32(len(b.tokens))
			b.tokens = append(b.tokens, string(tok))
			b.ids[b.tokens[id]] = id
		}
		dst = append(dst, id)
	}
	return dst
}

// build makes the index: at[t]:at[t+1] of pos are token t's ascending positions, all
// below limit.
func (b *wordIndexBuilder) build(at, pos []uint32, limit int) (wordIndex, error) {
	order := make([]int32, len(b.tokens))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(x, y int32) int { return strings.Compare(b.tokens[x], b.tokens[y]) })
	var words postingsBuilder
	words.reserve(len(order))
	for _, t := range order {
		words.add(pos[at[t]:at[t+1]], "", b.tokens[t])
	}
	var x wordIndex
	var err error
	if x.words, err = words.build(limit, nil); err != nil {
		return x, err
	}
	// Heavy prefixes: walk the sorted tokens keeping the prefixes of the current one (at
	// character boundaries) open; a prefix closes at the first token it does not begin.
	type open struct{ n, from int } // a prefix's length in bytes, its first token
	var stack []open
	// held[i] is the positions the first i tokens in order hold, each counted per token:
	// a prefix that begins two tokens or more and holds frequentFrom of the positions (a
	// frequent word that also begins a few rarer ones: lismo, lismoze) is frequent, kept
	// as one posting too, so that a query's token resolves to one posting kept as bits
	// (see wordBits) rather than to the union of many, and crosses the filters through
	// their pair counts (pairs.go).
	held := make([]int, len(order)+1)
	for i, t := range order {
		held[i+1] = held[i] + int(at[t+1]-at[t])
	}
	frequent := func(from, to, n int) bool { // the prefix of n bytes of tokens [from, to)
		return to-from > maxPrefixWords || to-from > 1 &&
			(b.everyPrefix && n <= everyPrefixBytes || held[to]-held[from] >= frequentFrom(limit))
	}
	type heavy struct {
		prefix   string
		from, to int
	}
	var found []heavy
	closeTo := func(keep, i int) { // closes the prefixes longer than keep bytes at token i
		for len(stack) > 0 && stack[len(stack)-1].n > keep {
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if frequent(o.from, i, o.n) {
				found = append(found, heavy{b.tokens[order[o.from]][:o.n], o.from, i})
			}
		}
	}
	for i, t := range order {
		tok := b.tokens[t]
		common := 0
		if i > 0 {
			prev := b.tokens[order[i-1]]
			for common < len(tok) && common < len(prev) && tok[common] == prev[common] {
				common++
			}
		}
		closeTo(common, i)
		// The prefixes up to common that end at a character's end are still open.
		from := 0
		if len(stack) > 0 {
			from = stack[len(stack)-1].n
		}
		for j := from; j < len(tok); {
			_, n := utf8.DecodeRuneInString(tok[j:])
			j += n
			stack = append(stack, open{j, i})
		}
	}
	closeTo(-1, len(order))
	slices.SortFunc(found, func(x, y heavy) int { return strings.Compare(x.prefix, y.prefix) })
	var prefixes postingsBuilder
	prefixes.reserve(len(found))
	var scratch []uint64
	var union []uint32
	var lists [][]uint32
	for _, h := range found {
		union, scratch, lists = unionOf(union[:0], scratch, lists, pos, at, order[h.from:h.to], limit)
		prefixes.add(slices.Clone(union), "", h.prefix)
	}
	x.prefixes, err = prefixes.build(limit, nil)
	return x, err
}

// unionOf appends the ascending union of the tokens' positions to dst (see unionLists);
// scratch and lists are scratch, returned grown.
func unionOf(dst []uint32, scratch []uint64, lists [][]uint32, pos, at []uint32, tokens []int32, limit int) ([]uint32, []uint64, [][]uint32) {
	lists = lists[:0]
	for _, t := range tokens {
		lists = append(lists, pos[at[t]:at[t+1]])
	}
	dst, scratch = unionLists(dst, scratch, lists, limit)
	return dst, scratch, lists
}

// unionLists appends the ascending union of lists of positions below limit to dst:
// through a bit per position when they are many, else sorted. scratch is scratch,
// returned grown.
func unionLists(dst []uint32, scratch []uint64, lists [][]uint32, limit int) ([]uint32, []uint64) {
	m := 0
	for _, l := range lists {
		m += len(l)
	}
	if m < limit/64 {
		for _, l := range lists {
			dst = append(dst, l...)
		}
		slices.Sort(dst)
		return slices.Compact(dst), scratch
	}
	w := grown(&scratch, (limit+63)>>6)
	clear(w)
	for _, l := range lists {
		for _, p := range l {
			w[p>>6] |= 1 << (p & 63)
		}
	}
	for i, word := range w {
		for word != 0 {
			dst = append(dst, uint32(i<<6+bits.TrailingZeros64(word)))
			word &= word - 1
		}
	}
	return dst, scratch
}

// noWordsIndex leaves the words index out of builds, so that a benchmark can measure what
// it costs (see export_test.go); searches then find nothing.
var noWordsIndex bool

// indexWords builds the words index of the gigs: each gig's title, artists' names, venue's
// name and city's name. Names are tokenized once per entity, titles in the dataset's order
// (rows point into it: reading them in position order was a cache miss per gig, a fifth of
// the index's time), and each row's tokens gathered into one flat list that is counted
// and placed, token by token, in two passes over it.
func (s *Snapshot) indexWords(rows []gigRow, cat *catalog) error {
	if noWordsIndex {
		return nil
	}
	ds := cat.ds
	var b wordIndexBuilder
	entityTokens := func(n int, name func(i int) string) (at []uint32, toks []int32) {
		at = make([]uint32, 1, n+1)
		for i := range n {
			toks = b.tokenize(toks, name(i))
			at = append(at, uint32(len(toks)))
		}
		return at, toks
	}
	cityAt, cityToks := entityTokens(len(ds.Cities), func(i int) string { return ds.Cities[i].Name })
	venueAt, venueToks := entityTokens(len(ds.Venues), func(i int) string { return ds.Venues[i].Name })
	artistAt, artistToks := entityTokens(len(ds.Artists), func(i int) string { return ds.Artists[i].Name })
	gigOf := make([]int32, len(rows)) // row i's gig, its index in ds.Gigs
	if len(ds.Gigs) > 0 {
		first, size := uintptr(unsafe.Pointer(&ds.Gigs[0])), unsafe.Sizeof(ds.Gigs[0])
		for i := range rows {
			gigOf[i] = int32((uintptr(unsafe.Pointer(rows[i].g)) - first) / size)
		}
	}
	titleAt, titleToks := entityTokens(len(ds.Gigs), func(i int) string { return ds.Gigs[i].Title })
	rowAt, toks := make([]uint32, 1, len(rows)+1), make([]int32, 0, len(titleToks)+2*len(rows))
	for i := range rows {
		r, g := &rows[i], gigOf[i]
		toks = append(toks, titleToks[titleAt[g]:titleAt[g+1]]...)
		for _, a := range cat.artists(r) {
			toks = append(toks, artistToks[artistAt[a]:artistAt[a+1]]...)
		}
		toks = append(toks, venueToks[venueAt[r.venue]:venueAt[r.venue+1]]...)
		toks = append(toks, cityToks[cityAt[r.city]:cityAt[r.city+1]]...)
		rowAt = append(rowAt, uint32(len(toks)))
	}
	// Token t's positions are pos[at[t]:at[t+1]], ascending, each once.
	n := len(b.tokens)
	at, last := make([]uint32, n+1), make([]uint32, n) // last: the last position counted, plus one
	for i := range rows {
		for _, t := range toks[rowAt[i]:rowAt[i+1]] {
			if last[t] != uint32(i)+1 {
				last[t] = uint32(i) + 1
				at[t+1]++
			}
		}
	}
	for t := 1; t <= n; t++ {
		at[t] += at[t-1]
	}
	pos, next := make([]uint32, at[n]), slices.Clone(at[:n])
	clear(last)
	for i := range rows {
		for _, t := range toks[rowAt[i]:rowAt[i+1]] {
			if last[t] != uint32(i)+1 {
				last[t] = uint32(i) + 1
				pos[next[t]] = uint32(i)
				next[t]++
			}
		}
	}
	var err error
	if s.words, err = b.build(at, pos, len(rows)); err != nil {
		return err
	}
	s.words.dense = newWordBits(&s.words, len(rows))
	return nil
}

// valid reports whether x's keys ascend, as prefixRange needs, and its postings are
// valid for limit positions.
func (x *wordIndex) valid(limit int) bool {
	for _, ps := range []*postings{&x.words, &x.prefixes} {
		if !ps.valid(limit) || len(ps.dayCum) != 0 {
			return false
		}
		for i := 1; i < ps.keys.len(); i++ {
			if bytes.Compare(ps.keys.key(i-1), ps.keys.key(i)) >= 0 {
				return false
			}
		}
	}
	return true
}
