package demo

import (
	"crypto/sha1"
	"encoding/hex"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/gigs/gigs/engine"
)

// genre is one of the corpus's genres with the spellings pages use for it as a free tag.
type genre struct {
	spellings []string
	related   []int // genres an act of this one often also plays
}

// The genres, as indexes into genres.
const (
	rock = iota
	indie
	electronic
	techno
	jazzGenre
	hipHop
	folk
	metal
	classical
	pop
	soul
	punk
)

var genres = []genre{
	rock:       {[]string{"Rock", "rock", "Rock music"}, []int{indie, punk, metal}},
	indie:      {[]string{"Indie", "indie rock", "Indie Rock", "indie"}, []int{rock, pop, folk}},
	electronic: {[]string{"Electronic", "electronic", "Electronica"}, []int{techno, pop}},
	techno:     {[]string{"Techno", "techno"}, []int{electronic}},
	jazzGenre:  {[]string{"Jazz", "jazz"}, []int{soul, classical}},
	hipHop:     {[]string{"Hip-Hop", "hip hop", "Hip Hop", "hiphop"}, []int{soul, electronic}},
	folk:       {[]string{"Folk", "folk", "Folk music"}, []int{indie, rock}},
	metal:      {[]string{"Metal", "metal", "Heavy Metal"}, []int{rock, punk}},
	classical:  {[]string{"Classical", "classical", "Klassik"}, []int{jazzGenre}},
	pop:        {[]string{"Pop", "pop"}, []int{electronic, soul, indie}},
	soul:       {[]string{"Soul", "soul", "Soul/R&B"}, []int{jazzGenre, pop, hipHop}},
	punk:       {[]string{"Punk", "punk", "punk rock"}, []int{rock, metal}},
}

// artist is one act of the pool.
type artist struct {
	name   string
	rank   int   // popularity, 0 for the most popular act
	genres []int // one or two genres, the main one first
	person bool  // a solo artist or DJ (schema.org Person) rather than a MusicGroup
	tour   string
}

// Word lists for names. Spellings with ö, ø, æ, ß and accents are deliberate: the loader
// must fold them.
var (
	adjectives = []string{
		"Velvet", "Paper", "Silver", "Hollow", "Crimson", "Electric", "Quiet", "Golden",
		"Northern", "Wild", "Lazy", "Neon", "Broken", "Static", "Lunar", "Bitter", "Gentle",
		"Rusty", "Copper", "Midnight", "Pale", "Little", "Savage", "Secret", "Distant",
		"Frozen", "Honest", "Iron", "Burning", "Tender", "Wandering", "Glass", "Ivory",
		"Restless", "Sleepy", "Hidden", "Scarlet", "Feral", "Sunken", "Empty",
	}
	pluralNouns = []string{
		"Lanterns", "Foxes", "Harbours", "Engines", "Saints", "Ghosts", "Orchards", "Tigers",
		"Ravens", "Satellites", "Swimmers", "Strangers", "Kites", "Machines", "Lovers",
		"Wolves", "Sparrows", "Monarchs", "Pilots", "Mirrors", "Rivers", "Cathedrals",
		"Arrows", "Thieves", "Comets", "Horses", "Islands", "Painters", "Sailors", "Heathens",
		"Daughters", "Twins", "Giants", "Owls", "Pines", "Bells",
	}
	nouns = []string{
		"Harbour", "Orchard", "Signal", "Meadow", "Furnace", "Atlas", "Canyon", "Glacier",
		"Ember", "Tide", "Palace", "Garden", "Motel", "Parade", "Cinema", "Archive", "Ferry",
		"Beacon", "Radio", "Lighthouse", "Desert", "Thunder", "Marble", "Harvest",
		"Winter", "Summer", "Daylight", "Horizon", "Voltage",
	}
	firstNames = []string{
		"Ada", "Ingrid", "Søren", "Mateo", "Zoë", "Renée", "José", "Aiko", "Priya", "Kofi",
		"Lena", "Niamh", "Tomás", "Astrid", "Émile", "Freya", "Luca", "Noor", "Yusuf",
		"Mirela", "Jonas", "Óscar", "Greta", "Hana", "Rafael", "Inès", "Malte", "Ciarán",
		"Dagný", "Jiří", "Sunniva", "Kwame", "Ximena", "Anouk", "Bjørn", "Elif", "Sakura",
		"Dev", "Marisol", "Otto",
	}
	surnames = []string{
		"Sjöberg", "Løvstad", "Østergaard", "Straßer", "Weiß", "Großmann", "Müller", "Núñez",
		"Kowalczyk", "Brennan", "Okafor", "Haddad", "Fernández", "Lindqvist", "Ćosić",
		"Yamada", "Ishikawa", "Moreau", "Carvalho", "Dæhlie", "Dahl", "Novák", "Varga",
		"Quinn", "Abernathy", "Castellanos", "Iyer", "Thapa", "Oyelaran", "Aalto", "Bækgaard",
		"Høiland", "Ferreira", "Delacroix", "Kühn", "Szabó", "MacLeod", "Rossi", "Park",
		"Valdés",
	}
	syllables = []string{
		"ka", "lo", "ve", "ri", "zun", "tra", "mi", "sol", "da", "ne", "ru", "vo", "el", "an",
		"ys", "or", "thi", "qua", "bex", "lu", "mø", "kæ", "sa", "no", "ix", "ta", "rö", "fa",
	}
	ensembles = []string{"Trio", "Quartet", "Quintet", "Ensemble", "Orchestra", "Collective"}
)

// A name pattern builds a name and says which genres and kind of act suit it.
type namePattern struct {
	weight int
	build  func(r *rand.Rand) string
	genres []int
	person bool
}

var namePatterns = []namePattern{
	{14, func(r *rand.Rand) string { return "The " + pick(r, adjectives) + " " + pick(r, pluralNouns) },
		[]int{rock, indie, punk, folk, pop, soul, metal}, false},
	{5, func(r *rand.Rand) string { return "The " + pick(r, pluralNouns) },
		[]int{rock, indie, punk, metal}, false},
	{22, func(r *rand.Rand) string { return pick(r, firstNames) + " " + pick(r, surnames) },
		[]int{folk, pop, soul, jazzGenre, indie, hipHop, classical, electronic}, true},
	{14, func(r *rand.Rand) string { return pick(r, adjectives) + " " + pick(r, nouns) },
		[]int{indie, rock, electronic, pop, metal, folk}, false},
	{6, func(r *rand.Rand) string { return pick(r, firstNames) + " & the " + pick(r, pluralNouns) },
		[]int{rock, folk, soul, indie, punk}, false},
	{4, func(r *rand.Rand) string { a, b := pickTwo(r, firstNames); return a + " & " + b },
		[]int{folk, pop, electronic, jazzGenre}, false},
	{12, func(r *rand.Rand) string { return inventWord(r) },
		[]int{electronic, pop, hipHop, techno, metal, indie}, false},
	{8, func(r *rand.Rand) string { a, b := pickTwo(r, nouns); return a + " " + b },
		[]int{indie, rock, electronic, punk}, false},
	{8, func(r *rand.Rand) string { return "DJ " + inventWord(r) },
		[]int{techno, electronic, hipHop}, true},
	{7, func(r *rand.Rand) string { return pick(r, surnames) + " " + pick(r, ensembles) },
		[]int{jazzGenre, classical}, false},
}

// newArtists returns n acts with distinct names (distinct also after folding case, accents,
// "&"/"and" and a leading "The", so no two can merge), in popularity order: artists[i].rank
// is i.
func newArtists(r *rand.Rand, n int) []*artist {
	total := 0
	for _, p := range namePatterns {
		total += p.weight
	}
	seen := make(map[string]bool, n) // lookups only
	out := make([]*artist, 0, n)
	for len(out) < n {
		p := choosePattern(r, total)
		name := p.build(r)
		if k := nameKey(name); !seen[k] {
			seen[k] = true
			out = append(out, &artist{name: name, rank: len(out), genres: artistGenres(r, p.genres), person: p.person})
		}
	}
	for _, a := range out[:min(len(out), 80)] {
		a.tour = "The " + pick(r, adjectives) + " " + pick(r, nouns) + " Tour"
	}
	return out
}

// choosePattern draws a name pattern by weight; total is the sum of the weights.
func choosePattern(r *rand.Rand, total int) namePattern {
	w := r.IntN(total)
	last := len(namePatterns) - 1
	for _, p := range namePatterns[:last] {
		if w < p.weight {
			return p
		}
		w -= p.weight
	}
	return namePatterns[last]
}

// artistGenres picks a main genre from suitable ones and, for about 40% of acts, a related
// second one.
func artistGenres(r *rand.Rand, suitable []int) []int {
	g := pick(r, suitable)
	if r.Float64() < 0.4 {
		return []int{g, pick(r, genres[g].related)}
	}
	return []int{g}
}

// nameKey folds a name the way the loader's merging does, to keep generated names apart.
func nameKey(name string) string {
	k := " " + engine.Fold(name) + " "
	k = strings.ReplaceAll(k, " and ", " ")
	k = strings.TrimPrefix(k, " the ")
	return strings.TrimSpace(k)
}

// inventWord makes a pronounceable two- or three-syllable word, sometimes in capitals.
func inventWord(r *rand.Rand) string {
	var b strings.Builder
	for range 2 + r.IntN(2) {
		b.WriteString(pick(r, syllables))
	}
	w := b.String()
	if r.IntN(8) == 0 {
		return strings.ToUpper(w)
	}
	first := []rune(w)
	return strings.ToUpper(string(first[0])) + string(first[1:])
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// pickTwo picks two different elements of xs, which must hold at least two.
func pickTwo[T any](r *rand.Rand, xs []T) (T, T) {
	i, j := r.IntN(len(xs)), r.IntN(len(xs)-1)
	if j >= i {
		j++
	}
	return xs[i], xs[j]
}

// zipf draws ranks in [0, n) with probability proportional to 1/(rank+1)^s.
type zipf struct {
	cum []float64 // cumulative weights
}

func newZipf(n int, s float64) zipf {
	cum := make([]float64, n)
	sum := 0.0
	for i := range cum {
		sum += 1 / math.Pow(float64(i+1), s)
		cum[i] = sum
	}
	return zipf{cum}
}

func (z zipf) draw(r *rand.Rand) int {
	x := r.Float64() * z.cum[len(z.cum)-1]
	return min(sort.SearchFloat64s(z.cum, x), len(z.cum)-1)
}

// mbid returns the act's MusicBrainz id in the demo world: a third of the acts have one,
// the same wherever the act is listed, made from its name (a name-based UUID of version
// 5's layout), so that it draws nothing from the corpus's random sequence.
func (a *artist) mbid() string {
	h := sha1.Sum([]byte("gigs demo artist\x00" + a.name))
	if h[19]%3 != 0 {
		return ""
	}
	h[6] = h[6]&0x0f | 0x50
	h[8] = h[8]&0x3f | 0x80
	x := hex.EncodeToString(h[:16])
	return x[:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:]
}
