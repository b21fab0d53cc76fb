package demo_test

import (
	"testing"

	"github.com/gigs/gigs/loader/ical"
	"github.com/gigs/gigs/loader/jsonld"
	"github.com/gigs/gigs/loader/microdata"
	"github.com/gigs/gigs/loader/source"
)

// TestAdaptersReadTheRefs runs the loader's own adapters over every working venue source
// (and the broken ones whose bytes are readable) and checks that the refs they give are
// exactly the refs expected-merges.json names for that source.
func TestAdaptersReadTheRefs(t *testing.T) {
	for _, c := range []*corpusFiles{shared.files, shared.files1} {
		want := map[string]map[string]bool{} // source → refs
		for _, k := range c.concerts {
			for _, r := range k.Records {
				if want[r.Source] == nil {
					want[r.Source] = map[string]bool{}
				}
				want[r.Source][r.Ref] = true
			}
		}
		bad := broken(c)
		for _, v := range c.cfg.Venues {
			if bad[v.Name] == "wrong-charset" {
				continue
			}
			var evs []source.Event
			var drops []source.Drop
			switch v.Format {
			case "jsonld":
				evs, drops = jsonld.Parse(c.raw[v.Name], v.URL)
			case "microdata":
				evs, drops = microdata.Parse(c.raw[v.Name], v.URL)
			case "ical":
				evs, drops = ical.Parse(c.raw[v.Name], v.URL, ical.Options{Now: defaultOpts.Today})
			}
			if len(drops) > 0 {
				t.Errorf("%s: %d drops, the first %+v", v.Name, len(drops), drops[0])
			}
			got := map[string]bool{}
			for _, e := range evs {
				got[e.Ref] = true
				if !want[v.Name][e.Ref] {
					t.Errorf("%s: the %s adapter gives ref %q, which expected-merges.json does not name", v.Name, v.Format, e.Ref)
				}
			}
			for ref := range want[v.Name] {
				if !got[ref] {
					t.Errorf("%s: expected-merges.json names ref %q, which the %s adapter does not give", v.Name, ref, v.Format)
				}
			}
		}
	}
}
