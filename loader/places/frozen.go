package places

import (
	"cmp"
	_ "embed"
	"encoding/binary"
	"errors"
	"math"
	"math/bits"
	"slices"
	"strings"
	"time"

	"github.com/gigs/gigs/engine"
)

// The embedded gazetteer is the table loader/places/gen writes in its frozen form
// (cities.frozen beside this file, the only form committed): the table as look-ups want
// it, its names folded and grouped, so that its first use reads it rather than parsing,
// folding and indexing 150,000 lines. TestFrozenTable checks that the form is canonical
// and lossless (its gazetteer's table, dumped, read back and frozen, is it byte for
// byte); `go test ./loader/places -run TestFrozenTable -freeze PATH` rewrites it from the
// table gen wrote at PATH (`make gazetteer` does). The
// form, in order, each number an unsigned varint unless said, each string its length and
// bytes:
//
//	"gigs-places-1\n"
//	zones:   their count, then each one's IANA name
//	regions: their count, then each one's country, code and name (a country's cities
//	         without a region are in one with an empty code and name)
//	cities:  their count, then each one's slug, name, region and zone (their indexes
//	         above), population, and 1 when it has coordinates (else 0), then its
//	         latitude and longitude as IEEE 754 bits, 8 bytes little-endian each; the most
//	         populous first (mostPopulous), as cities are listed everywhere
//	slugs:   each city's index, in the order of their slugs
//	names:   their count; the folded names one after another, in byte order, as a
//	         string; where each one's name and cities end, as two 4-byte little-endian
//	         numbers per name, the names' cities counted one name's after another's; the
//	         count of all their cities, then each one's index: its towns most populous
//	         first, then its villages (of fewer than 1,000 people) most populous first; the
//	         count of slots (a power of two, at least twice the names'), then in each the
//	         index + 1 of a name (0 when free) as a 4-byte little-endian number: a name
//	         is at the slot of its hash (hashKey), or the next free one
//
//go:embed cities.frozen
var frozenTable string

const frozenMagic = "gigs-places-1\n"

var errBrokenForm = errors.New("broken frozen gazetteer")

// mustThaw returns the gazetteer of a frozen form; it panics when the form is broken,
// which TestFrozenTable rules out for the embedded one.
func mustThaw(form string) *Gazetteer {
	g, err := thaw(form)
	if err != nil {
		panic("places: cities.frozen: " + err.Error())
	}
	return g
}

// freeze returns the frozen form of the cities of es, which settle has ordered.
func freeze(es []entry) []byte {
	b := []byte(frozenMagic)
	str := func(s string) { b = binary.AppendUvarint(b, uint64(len(s))); b = append(b, s...) }
	num := func(n int) { b = binary.AppendUvarint(b, uint64(n)) }
	type region struct{ country, code, name string }
	zones, regions := map[string]int{}, map[region]int{}
	var zoneList []string
	var regionList []region
	for _, e := range es {
		c := e.city
		if _, ok := zones[c.Timezone]; !ok {
			zones[c.Timezone] = len(zoneList)
			zoneList = append(zoneList, c.Timezone)
		}
		r := region{c.Country, c.Region, c.RegionName}
		if _, ok := regions[r]; !ok {
			regions[r] = len(regionList)
			regionList = append(regionList, r)
		}
	}
	num(len(zoneList))
	for _, z := range zoneList {
		str(z)
	}
	num(len(regionList))
	for _, r := range regionList {
		str(r.country)
		str(r.code)
		str(r.name)
	}
	num(len(es))
	names := map[string][]int{} // folded name → its cities' indexes: towns first (allNamed)
	for i, e := range es {
		c := e.city
		str(c.Slug)
		str(c.Name)
		num(regions[region{c.Country, c.Region, c.RegionName}])
		num(zones[c.Timezone])
		num(c.Population)
		for _, k := range e.keys {
			names[k] = append(names[k], i)
		}
		if !c.HasGeo {
			num(0)
			continue
		}
		num(1)
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(c.Lat))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(c.Lon))
	}
	bySlug := make([]int, len(es))
	for i := range bySlug {
		bySlug[i] = i
	}
	slices.SortFunc(bySlug, func(i, j int) int { return cmp.Compare(es[i].city.Slug, es[j].city.Slug) })
	for _, i := range bySlug {
		num(i)
	}
	keys := make([]string, 0, len(names))
	for k, l := range names {
		keys = append(keys, k)
		slices.SortStableFunc(l, func(i, j int) int { // towns, then villages; each as listed
			return cmp.Compare(b2i(es[i].city.village()), b2i(es[j].city.village()))
		})
	}
	slices.Sort(keys)
	num(len(keys))
	str(strings.Join(keys, ""))
	keyEnd, listEnd := 0, 0
	for _, k := range keys {
		keyEnd, listEnd = keyEnd+len(k), listEnd+len(names[k])
		b = binary.LittleEndian.AppendUint32(b, uint32(keyEnd))
		b = binary.LittleEndian.AppendUint32(b, uint32(listEnd))
	}
	num(listEnd)
	for _, k := range keys {
		for _, i := range names[k] {
			num(i)
		}
	}
	slots := make([]uint32, 1<<bits.Len(uint(2*len(keys))))
	mask := uint32(len(slots) - 1)
	for i, k := range keys {
		s := hashKey(k) & mask
		for slots[s] != 0 {
			s = (s + 1) & mask
		}
		slots[s] = uint32(i + 1)
	}
	num(len(slots))
	for _, s := range slots {
		b = binary.LittleEndian.AppendUint32(b, s)
	}
	return b
}

// thaw returns the gazetteer of a frozen form (see freeze); its strings share form's
// memory.
func thaw(form string) (*Gazetteer, error) {
	if !strings.HasPrefix(form, frozenMagic) {
		return nil, errors.New("not a frozen gazetteer")
	}
	r := &thawReader{s: form[len(frozenMagic):]}
	zones := make([]*time.Location, r.count(1))
	zoneNames := make([]string, len(zones))
	for i := range zones {
		zoneNames[i] = r.str()
		loc, err := Zone(zoneNames[i])
		if err != nil {
			return nil, err
		}
		zones[i] = loc
	}
	regions := make([]City, r.count(3)) // each region's fields of a city
	for i := range regions {
		reg := &regions[i]
		reg.Country, reg.Region, reg.RegionName = r.str(), r.str(), r.str()
		reg.regionKey, reg.regionNameKey = engine.Fold(reg.Region), engine.Fold(reg.RegionName)
	}
	n := r.count(6)
	cities := make([]City, n)
	g := &Gazetteer{cities: make([]*City, n), bySlug: make([]*City, n)}
	type regionZone struct{ region, zone, tier int }
	seen := map[regionZone]bool{}
	var firsts []*City // of each region, zone and tier (see index)
	for i := range cities {
		c := &cities[i]
		slug, name := r.str(), r.str()
		reg, z := r.index(len(regions)), r.index(len(zones))
		if r.broken {
			return nil, errBrokenForm
		}
		*c = regions[reg]
		c.Slug, c.Name, c.Timezone, c.Location = slug, name, zoneNames[z], zones[z]
		c.Population = r.num()
		if r.num() == 1 {
			c.Lat, c.Lon, c.HasGeo = r.float(), r.float(), true
		}
		g.cities[i] = c
		if rz := (regionZone{reg, z, c.tier()}); !seen[rz] {
			seen[rz] = true
			firsts = append(firsts, c)
		}
	}
	city := func() *City { // nil when broken
		if i := r.index(n); !r.broken {
			return g.cities[i]
		}
		return nil
	}
	for i := range g.bySlug {
		g.bySlug[i] = city()
	}
	t := &g.byName
	names := r.count(8)
	t.keys = r.str()
	t.ends = r.bytes(8 * names)
	t.lists = make([]*City, r.count(1))
	for i := range t.lists {
		t.lists[i] = city()
	}
	t.slots = r.bytes(4 * r.count(4))
	if r.broken || r.s != "" || !t.valid(names) {
		return nil, errBrokenForm
	}
	g.index(firsts)
	return g, nil
}

// thawReader reads a frozen form from its start; a read past its end leaves it broken.
type thawReader struct {
	s      string
	broken bool
}

// num reads a number.
func (r *thawReader) num() int {
	var n uint64
	for i := 0; i < len(r.s) && i < binary.MaxVarintLen64; i++ {
		n |= uint64(r.s[i]&0x7f) << (7 * i)
		if r.s[i] < 0x80 {
			if n > math.MaxInt {
				break
			}
			r.s = r.s[i+1:]
			return int(n)
		}
	}
	r.broken, r.s = true, "" // past the end, or too large
	return 0
}

// count reads the count of a list whose elements take at least size bytes each.
func (r *thawReader) count(size int) int {
	n := r.num()
	if n > len(r.s)/size {
		r.broken, r.s = true, ""
		return 0
	}
	return n
}

// index reads an index into a list of n.
func (r *thawReader) index(n int) int {
	i := r.num()
	if i >= n {
		r.broken = true
		return 0
	}
	return i
}

// str reads a string; it shares the form's memory.
func (r *thawReader) str() string { return r.bytes(r.num()) }

// bytes reads the next n bytes; they share the form's memory.
func (r *thawReader) bytes(n int) string {
	if n > len(r.s) {
		r.broken, r.s = true, ""
		return ""
	}
	s := r.s[:n]
	r.s = r.s[n:]
	return s
}

// float reads 8 bytes of IEEE 754 bits, little-endian.
func (r *thawReader) float() float64 {
	s := r.bytes(8)
	if len(s) < 8 {
		return 0
	}
	return math.Float64frombits(uint64(le32(s, 0)) | uint64(le32(s, 4))<<32)
}

// le32 returns the 4-byte little-endian number at s[i:].
func le32(s string, i int) uint32 {
	return uint32(s[i]) | uint32(s[i+1])<<8 | uint32(s[i+2])<<16 | uint32(s[i+3])<<24
}

// nameTable is the names of a frozen form, looked up by hashing (open addressing over
// slots, with FNV-1a): a look-up allocates nothing.
type nameTable struct {
	keys  string  // the folded names, one after another in byte order
	ends  string  // where each name's key ends in keys and its cities in lists, as in the form
	lists []*City // the cities of each name, towns first (freeze); one name's after another's
	slots string  // as in the form: a name's index + 1 at its hash's slot or the next free one
}

// span returns the name of index i and its cities.
func (t *nameTable) span(i int) (string, []*City) {
	k0, l0 := uint32(0), uint32(0)
	if i > 0 {
		k0, l0 = le32(t.ends, 8*i-8), le32(t.ends, 8*i-4)
	}
	k1, l1 := le32(t.ends, 8*i), le32(t.ends, 8*i+4)
	return t.keys[k0:k1], t.lists[l0:l1:l1]
}

// valid reports whether the table of n names is whole: its ends in order within keys
// and lists, its slots a power of two, at least twice n, that hold at most n indexes of
// names.
func (t *nameTable) valid(n int) bool {
	k0, l0 := uint32(0), uint32(0)
	for i := range n {
		k1, l1 := le32(t.ends, 8*i), le32(t.ends, 8*i+4)
		if k1 < k0 || l1 < l0 || int(k1) > len(t.keys) || int(l1) > len(t.lists) {
			return false
		}
		k0, l0 = k1, l1
	}
	slots := len(t.slots) / 4
	if slots == 0 || slots < 2*n || slots&(slots-1) != 0 {
		return false
	}
	used := 0 // at most n: a look-up ends at a free slot
	for s := range slots {
		if i := le32(t.slots, 4*s); i > uint32(n) {
			return false
		} else if i > 0 {
			used++
		}
	}
	return used <= n
}

// lookup returns the cities of a folded name; nil when none.
func (t *nameTable) lookup(key []byte) []*City {
	mask := uint32(len(t.slots)/4 - 1)
	for s := hashKey(key) & mask; ; s = (s + 1) & mask {
		i := le32(t.slots, 4*int(s))
		if i == 0 {
			return nil
		}
		if k, cs := t.span(int(i - 1)); k == string(key) {
			return cs
		}
	}
}

// each calls f with each name and its cities, in the names' byte order.
func (t *nameTable) each(f func(string, []*City)) {
	for i := range len(t.ends) / 8 {
		f(t.span(i))
	}
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// hashKey is the 32-bit FNV-1a hash of k.
func hashKey[S string | []byte](k S) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(k); i++ {
		h = (h ^ uint32(k[i])) * 16777619
	}
	return h
}

// hasSlug reports whether a gazetteer city has the slug.
func (g *Gazetteer) hasSlug(slug string) bool {
	_, found := slices.BinarySearchFunc(g.bySlug, slug, func(c *City, slug string) int { return strings.Compare(c.Slug, slug) })
	return found
}
