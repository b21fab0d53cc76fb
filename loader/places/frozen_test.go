package places

import (
	"bytes"
	"compress/gzip"
	"flag"
	"io"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite cities.frozen from cities.tsv.gz")

// TestFrozenTable checks that the embedded frozen form is what freeze makes of
// cities.tsv.gz, byte for byte, and that the gazetteer it thaws into freezes into it
// again (as WithFile freezes it with an operator's cities); -update rewrites it.
func TestFrozenTable(t *testing.T) {
	z, err := os.ReadFile("cities.tsv.gz")
	if err != nil {
		t.Fatal(err)
	}
	r, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	tsv, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	es, err := read(string(tsv), "cities.tsv.gz")
	if err != nil {
		t.Fatal(err)
	}
	want := freeze(settle(es))
	if *update {
		if err := os.WriteFile("cities.frozen", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if string(want) != frozenTable {
		t.Fatal("cities.frozen is not what freeze makes of cities.tsv.gz: run go test ./loader/places -run TestFrozenTable -update")
	}
	if again := freeze(settle(Default().entries())); !bytes.Equal(again, want) {
		t.Error("the embedded gazetteer does not freeze into its form again")
	}
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
