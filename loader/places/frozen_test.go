package places

import (
	"bytes"
	"flag"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gigs/gigs/engine"
)

var (
	dumpTo   = flag.String("dump", "", "write the embedded gazetteer to this file as the table loader/places/gen writes")
	freezeOf = flag.String("freeze", "", "rewrite cities.frozen from this table, as loader/places/gen writes it")
)

// TestFrozenTable checks that the embedded frozen form is canonical and lossless: the
// dump of the gazetteer it thaws into (its table, as loader/places/gen writes it), read
// back and frozen, is it byte for byte, and so is the gazetteer's own cities frozen again
// (as WithFile freezes them with an operator's cities). -dump writes that table (gen reads
// it to keep the slugs); -freeze rewrites cities.frozen from the table gen wrote (`make
// gazetteer` does both).
func TestFrozenTable(t *testing.T) {
	if *freezeOf != "" {
		tsv, err := os.ReadFile(*freezeOf)
		if err != nil {
			t.Fatal(err)
		}
		es, err := read(string(tsv), *freezeOf)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("cities.frozen", freeze(settle(es)), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	tsv := dump(Default())
	if *dumpTo != "" {
		if err := os.WriteFile(*dumpTo, tsv, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	es, err := read(string(tsv), "the dump")
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != len(Default().cities) {
		t.Fatalf("the dump has %d cities; the gazetteer %d", len(es), len(Default().cities))
	}
	if string(freeze(settle(es))) != frozenTable {
		t.Error("the embedded gazetteer's dump does not freeze into cities.frozen")
	}
	if again := freeze(settle(Default().entries())); string(again) != frozenTable {
		t.Error("the embedded gazetteer does not freeze into its form again")
	}
}

// dump returns the cities of g in the columns of the table loader/places/gen writes, most
// populous first; their other names are their folded names besides their name's, which
// read folds into themselves.
func dump(g *Gazetteer) []byte {
	var b bytes.Buffer
	b.WriteString("# The embedded gazetteer of package places (loader/places/cities.frozen), its other names folded.\n")
	b.WriteString("# slug, name, ISO country, region code, region name, IANA zone, latitude, longitude, population, other names\n")
	for _, e := range g.entries() {
		c := e.city
		fields := []string{c.Slug, c.Name, c.Country, c.Region, c.RegionName, c.Timezone, "", "", strconv.Itoa(c.Population)}
		if c.HasGeo {
			fields[6], fields[7] = strconv.FormatFloat(c.Lat, 'f', -1, 64), strconv.FormatFloat(c.Lon, 'f', -1, 64)
		}
		own := engine.Fold(c.Name)
		for _, k := range e.keys {
			if k != own {
				fields = append(fields, k)
			}
		}
		b.WriteString(strings.Join(fields, "\t"))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// TestLookupAllocations gates the gazetteer's look-ups: a name, a place's name in its
// country, the country a name implies, a region's code and a slug allocate nothing.
func TestLookupAllocations(t *testing.T) {
	g := Default()
	for _, tt := range []struct {
		name string
		f    func()
	}{
		{"CitiesNamed Москва", func() { g.CitiesNamed("Москва") }},
		{"CitiesNamed Kraków", func() { g.CitiesNamed("Kraków") }},
		{"named Portland, OR", func() { g.named(Place{Locality: "Portland", Region: "OR"}, "US", Context{}) }},
		{"named Much Wenlock", func() { g.named(Place{Locality: "Much Wenlock"}, "GB", Context{}) }},
		{"named Portland by zone", func() { g.named(Place{Locality: "Portland"}, "US", Context{Zone: "America/Los_Angeles"}) }},
		{"country Москва", func() { g.country(Place{Locality: "Москва"}) }},
		{"regionCode", func() { g.regionCode("US", "oregon") }},
		{"hasSlug", func() { g.hasSlug("much-wenlock") }},
	} {
		if n := testing.AllocsPerRun(100, tt.f); n != 0 {
			t.Errorf("%s: %v allocations", tt.name, n)
		}
	}
}

// TestThawBroken checks that a frozen form cut short or with a byte changed is refused, or
// thaws into a gazetteer whose look-ups still answer: never a panic.
func TestThawBroken(t *testing.T) {
	es, err := read("a\tA\tGB\tENG\tEngland\tEurope/London\t51.5\t-0.1\t100\tAy\tAa\n"+
		"b\tB\tUS\tOR\tOregon\tAmerica/Los_Angeles\t45.5\t-122.7\t50\tAy\n"+
		"c\tC\tUS\t\t\tAmerica/New_York\n", "three")
	if err != nil {
		t.Fatal(err)
	}
	form := freeze(settle(es))
	if g, err := thaw(string(form)); err != nil || len(g.CitiesNamed("Ay")) != 2 || g.CitiesNamed("B")[0].Region != "OR" {
		t.Fatalf("the whole form: %v", err)
	}
	for n := range len(form) {
		if _, err := thaw(string(form[:n])); err == nil {
			t.Errorf("the form cut at %d of %d bytes thaws", n, len(form))
		}
	}
	for i := range form {
		for _, b := range []byte{0, 1, 0x7f, 0x80, 0xff, form[i] ^ 0x10} {
			changed := bytes.Clone(form)
			changed[i] = b
			if g, err := thaw(string(changed)); err == nil {
				for _, name := range []string{"A", "Ay", "Aa", "B", "C", "D"} {
					g.CitiesNamed(name)
				}
				g.hasSlug("b")
			}
		}
	}
}
