package places

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// addressCase is a line of testdata/addresses.good.txt or addresses.bad.txt; see their
// headers for the format.
type addressCase struct {
	at       string // file:line
	location bool   // the line names the venue first (Split, then Locate)
	stated   Place  // the region and country stated beside an address line
	line     string
	want     string // the expected parts, or the expected error text
}

func readAddressCases(t *testing.T, path string) []addressCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []addressCase
	for i, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l == "" || l[0] == '#' {
			continue
		}
		at := fmt.Sprintf("%s:%d", path, i+1)
		kind, rest, ok1 := strings.Cut(l, ": ")
		line, want, ok2 := strings.Cut(rest, " => ")
		if !ok1 || !ok2 {
			t.Fatalf("%s: want KIND: LINE => EXPECTED, got %q", at, l)
		}
		c := addressCase{at: at, line: strings.TrimSpace(line), want: strings.TrimSpace(want)}
		switch in, stated := strings.CutPrefix(kind, "address in "); {
		case kind == "location":
			c.location = true
		case kind == "address":
		case stated:
			if r, country, ok := strings.Cut(in, ", "); ok {
				c.stated.Region, c.stated.Country = r, country
			} else {
				c.stated.Country = in
			}
		default:
			t.Fatalf("%s: unknown kind %q", at, kind)
		}
		cases = append(cases, c)
	}
	return cases
}

// place returns the place Locate is given for the case, and for a location line the parts
// Split gives, as the good file writes them.
func (c addressCase) place() (Place, []string) {
	if !c.location {
		p := c.stated
		p.Locality = c.line
		return p, nil
	}
	a := Split(c.line)
	var parts []string
	for _, kv := range [][2]string{{"name", a.Name}, {"street", a.Street}, {"postcode", a.Postcode},
		{"locality", a.Locality}, {"country", a.Country}} {
		if kv[1] != "" {
			parts = append(parts, kv[0]+"="+kv[1])
		}
	}
	return Place{Locality: a.Locality, Country: a.Country}, parts
}

// outcome returns what the loader makes of the case as the good file writes it, or the
// error's text.
func (c addressCase) outcome(g *Gazetteer) string {
	p, parts := c.place()
	city, err := g.Locate(p)
	if err != nil {
		return err.Error()
	}
	q := g.placeReadings(nil, p)[0]
	dash := func(s string) string { return cmpOr(s, "-") }
	parts = append(parts, "read="+dash(q.Locality)+" / "+dash(q.Region)+" / "+dash(q.Country), "city="+city.Slug)
	return strings.Join(parts, " | ")
}

// TestAddresses reads the address lines of testdata/addresses.good.txt and addresses.bad.txt
// as the loader does: split into parts, read with the gazetteer and placed in a city, or not
// placed for the reason given.
func TestAddresses(t *testing.T) {
	g := Default()
	for _, c := range readAddressCases(t, "testdata/addresses.good.txt") {
		if got := c.outcome(g); got != c.want {
			t.Errorf("%s: %s\n  got  %s\n  want %s", c.at, c.line, got, c.want)
		}
	}
	for _, c := range readAddressCases(t, "testdata/addresses.bad.txt") {
		p, _ := c.place()
		if city, err := g.Locate(p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %s\n  got  %+v, %v\n  want an error holding %q", c.at, c.line, city, err, c.want)
		}
	}
}

// TestAddressRulesNeeded checks that every rule of splitRules and readingRules has a line in
// the fixtures whose reading changes without it: a rule is a row and a line.
func TestAddressRulesNeeded(t *testing.T) {
	g := Default()
	var cases []addressCase
	for _, f := range []string{"testdata/addresses.good.txt", "testdata/addresses.bad.txt"} {
		cases = append(cases, readAddressCases(t, f)...)
	}
	// Every reading Locate tries, not the first alone: a rule may change a later one.
	// A rule left out may leave the next ones a state they do not expect: a panic is a change.
	read := func(c addressCase) (s string) {
		defer func() {
			if e := recover(); e != nil {
				s = fmt.Sprint("panic: ", e)
			}
		}()
		p, parts := c.place()
		return fmt.Sprint(c.outcome(g), parts, g.placeReadings(nil, p))
	}
	all := func() []string {
		var out []string
		for _, c := range cases {
			out = append(out, read(c))
		}
		return out
	}
	want := all()
	// noComma only spares a locality without a comma the cut: without it, such a locality
	// loses the spaces around it, which the fixtures' lines do not have.
	spare := map[string]bool{"a locality without a comma is read as it is": true}
	splits, readings := splitRules, readingRules
	defer func() { splitRules, readingRules = splits, readings }()
	for i, r := range splits {
		splitRules = slices.Delete(slices.Clone(splits), i, i+1)
		if slices.Equal(all(), want) {
			t.Errorf("split rule %q: no fixture line needs it", r.name)
		}
	}
	splitRules = splits
	for i, r := range readings {
		readingRules = slices.Delete(slices.Clone(readings), i, i+1)
		if slices.Equal(all(), want) && !spare[r.name] {
			t.Errorf("reading rule %q: no fixture line needs it", r.name)
		}
	}
}
