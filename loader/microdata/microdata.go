package microdata

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/gigs/gigs/loader/schemaorg"
	"github.com/gigs/gigs/loader/source"
)

const (
	maxItemDepth = 32         // items nested as property values
	maxTypes     = 16         // types read of an item; the rest are ignored
	maxNames     = 16         // property names read of an itemprop; the rest are ignored
	maxSteps     = 10_000_000 // elements crawled, and then elements and text read, on one page
)

// Parse extracts every schema.org event from the microdata of one HTML page. ref names the
// page (its URL) in Event.Ref and Drop.Ref; Event.Source is left empty for the caller. It
// never panics, on any input.
//
// Events come in document order. An event's Ref is its itemid, resolved against ref when ref
// is an absolute URL, or else ref + "#" + its 1-based position among the page's events; its
// Line is the line of the start tag carrying its itemscope. Drops come in line order.
func Parse(page []byte, ref string) ([]source.Event, []source.Drop) {
	t := build(page, nil)
	p := &parser{
		tree:      t,
		ref:       ref,
		base:      schemaorg.Base(ref),
		budget:    maxSteps,
		visited:   make([]uint32, len(t.nodes)),
		props:     make([]props, len(t.nodes)),
		crawled:   make([]bool, len(t.nodes)),
		walked:    make([]bool, len(t.nodes)),
		stop:      int32(len(t.nodes)),
		places:    map[int32]source.Place{},
		performer: map[int32]source.Performer{},
		actOf:     map[int32]int32{},
		parentOf:  map[int32]int32{},
		eventOf:   map[int32]int{},
		offersOf:  map[int32][]source.Offer{},
	}
	p.links = p.base
	if t.base != "" { // a <base href> changes what the page's links are relative to
		if u, err := url.Parse(strings.TrimSpace(t.base)); err == nil {
			if p.base != nil {
				u = p.base.ResolveReference(u)
			}
			if u.IsAbs() {
				p.links = u
			}
		}
	}
	for _, d := range t.drops {
		p.drop(d.line, d.reason)
	}
	for _, it := range p.roots() {
		p.walk(it, 1, -1, -1)
	}
	slices.Sort(p.found)
	p.budget, p.over = maxSteps, false // reading the events has a budget of its own
	for i, it := range p.found {
		if i == schemaorg.MaxEvents {
			p.drop(p.line(it), fmt.Sprintf("more than %d events on the page: the rest are ignored", schemaorg.MaxEvents))
			break
		}
		if !p.event(it, i+1) {
			break
		}
	}
	slices.SortStableFunc(p.drops, func(a, b source.Drop) int { return cmp.Compare(a.Line, b.Line) })
	return p.events, p.drops
}

// parser holds the state of one Parse call.
type parser struct {
	*tree
	ref     string
	base    *url.URL // ref as an absolute URL, or nil; itemids are resolved against it
	links   *url.URL // what the page's links are resolved against: base, or the page's <base>
	budget  int      // steps left; see spend
	over    bool     // the budget ran out
	stop    int32    // items from this node on were not crawled for want of budget
	stopped bool     // that was reported

	epoch   uint32          // the current crawl
	visited []uint32        // per node, the last crawl that visited it
	pending []int32         // the crawl's work list
	props   []props         // per item node, its properties once crawled
	crawled []bool          // per item node, whether props holds them
	walked  []bool          // per item node, whether walk has been there
	found   []int32         // event items
	actOf   map[int32]int32 // event item → the act's item whose page lists it (see walk)
	// parentOf maps a sub-event's item to its event's item, and eventOf an event item to
	// its index in events, to file sub-events against their events (schemaorg.SubEvent).
	parentOf map[int32]int32
	eventOf  map[int32]int
	deep     bool // maxItemDepth was reached

	// What was read from an item, kept so that an item that many events refer to (with
	// itemref) is read once.
	places    map[int32]source.Place
	performer map[int32]source.Performer
	offersOf  map[int32][]source.Offer

	events []source.Event
	drops  []source.Drop
}

func (p *parser) drop(line int, reason string) {
	p.drops = append(p.drops, source.Drop{Ref: p.ref, Line: line, Reason: reason})
}

// line returns the line of an element node.
func (p *parser) line(n int32) int { return p.nodes[n].el.line }

// spend takes n steps from the budget and reports whether they were there. Once the budget
// has run out, it stays out.
func (p *parser) spend(n int) bool {
	if p.budget < n {
		p.budget, p.over = 0, true
		return false
	}
	p.budget -= n
	return true
}

// isItem reports whether node n is an element with itemscope.
func (p *parser) isItem(n int32) bool { return p.nodes[n].el != nil && p.nodes[n].el.scope }

// prop is one property of an item: a name and the element that gives its value.
type prop struct {
	name string // lower-cased, a URL reduced to its last segment
	el   int32
}

// props are an item's properties sorted by name, then in tree order.
type props []prop

// get returns the values of the property name, in tree order.
func (ps props) get(name string) props {
	i, _ := slices.BinarySearchFunc(ps, name, func(p prop, name string) int { return strings.Compare(p.name, name) })
	j := i
	for j < len(ps) && ps[j].name == name {
		j++
	}
	return ps[i:j]
}

// propsOf returns the properties of item it, crawling them the first time, as the microdata
// spec says: the elements with itemprop below the item and below the elements its itemref
// names, not looking inside nested items, each element once. When the budget runs out
// during the crawl, the item has no properties.
func (p *parser) propsOf(it int32) props {
	if p.crawled[it] {
		return p.props[it]
	}
	p.crawled[it] = true
	if p.over {
		return nil
	}
	p.epoch++
	p.visited[it] = p.epoch
	p.pending = p.pending[:0]
	p.children(it)
	for id := range strings.FieldsSeq(p.nodes[it].el.ref) {
		if n, ok := p.ids[id]; ok && p.spend(1) {
			p.pending = append(p.pending, n)
		}
	}
	var found []int32
	for len(p.pending) > 0 && !p.over {
		n := p.pending[len(p.pending)-1]
		p.pending = p.pending[:len(p.pending)-1]
		if p.visited[n] == p.epoch {
			continue
		}
		p.visited[n] = p.epoch
		el := p.nodes[n].el
		if el.prop != "" {
			found = append(found, n)
		}
		if !el.scope {
			p.children(n)
		}
	}
	if p.over {
		return nil
	}
	slices.Sort(found)
	var ps props
	for _, n := range found {
		i := 0
		for name := range strings.FieldsSeq(p.nodes[n].el.prop) {
			if i++; i > maxNames {
				break
			}
			if name = schemaorg.Term(name); name != "" && p.spend(1) {
				ps = append(ps, prop{name, n})
			}
		}
	}
	if p.over {
		return nil
	}
	slices.SortStableFunc(ps, func(a, b prop) int { return strings.Compare(a.name, b.name) })
	ps = slices.Compact(ps) // a name given twice on one element
	p.props[it] = ps
	return ps
}

// children adds the element children of node n to the crawl's work list.
func (p *parser) children(n int32) {
	for c := p.nodes[n].first; c >= 0; c = p.nodes[c].next {
		if p.nodes[c].el != nil && p.spend(1) {
			p.pending = append(p.pending, c)
		}
	}
}

// roots returns, in document order, the items that are no item's property value: the
// top-level items of the microdata spec, and items whose itemprop belongs to no item. When
// the budget runs out, the items from the one being crawled on are left out.
func (p *parser) roots() []int32 {
	value := make([]bool, len(p.nodes))
	var items []int32
	for n := range int32(len(p.nodes)) {
		if !p.isItem(n) {
			continue
		}
		ps := p.propsOf(n)
		if p.over {
			p.stop = n
			p.tooComplex(n)
			break
		}
		items = append(items, n)
		for _, v := range ps {
			if p.isItem(v.el) {
				value[v.el] = true
			}
		}
	}
	return slices.DeleteFunc(items, func(n int32) bool { return value[n] })
}

// tooComplex reports, once, that the budget ran out at item it.
func (p *parser) tooComplex(it int32) {
	if !p.stopped {
		p.stopped = true
		p.drop(p.line(it), fmt.Sprintf("microdata too complex: reading stopped after %d steps", maxSteps))
	}
}

// walk finds the events in item it and in the items it has as property values. Inside an
// event only its subEvent values are looked at, as in package jsonld: a festival and each of
// its days are events, but a superEvent, or an event a performer also plays, is not one here.
// act is the nearest enclosing performer's item that may list its own shows (an act's page,
// see schemaorg.IsActType), or -1; the events found below it are filed as its, in actOf.
// parent is the event item whose subEvent it is, or -1.
func (p *parser) walk(it int32, depth int, act, parent int32) {
	if p.walked[it] || it >= p.stop {
		return
	}
	if depth > maxItemDepth {
		if !p.deep {
			p.deep = true
			p.drop(p.line(it), fmt.Sprintf("microdata items nested deeper than %d levels: the deeper items are ignored", maxItemDepth))
		}
		return
	}
	p.walked[it] = true
	ps := p.propsOf(it)
	sub := int32(-1)
	switch {
	case p.isEvent(it):
		p.found = append(p.found, it)
		if act >= 0 {
			p.actOf[it] = act
		}
		if parent >= 0 {
			p.parentOf[it] = parent
		}
		sub = it
		ps = slices.Concat(ps.get("subevent"), ps.get("subevents")) // not append: ps is shared
	case slices.ContainsFunc(p.types(it), schemaorg.IsActType):
		act = it
	}
	for _, v := range ps {
		if p.isItem(v.el) {
			p.walk(v.el, depth+1, act, sub)
		}
	}
}

// types returns the schema.org types of item it, lower-cased: "https://schema.org/MusicEvent"
// and "http://www.schema.org/musicevent/" are both "musicevent". The Event of Google's
// older vocabulary ("http://data-vocabulary.org/Event", which old event plug-ins still
// write) is "event". Types of other vocabularies are left out, and so are all types after
// the first maxTypes.
func (p *parser) types(it int32) []string {
	var out []string
	n := 0
	for t := range strings.FieldsSeq(p.nodes[it].el.types) {
		if n++; n > maxTypes {
			break
		}
		t = strings.ToLower(t)
		t, ok := strings.CutPrefix(t, "https://")
		if !ok {
			t, ok = strings.CutPrefix(t, "http://")
		}
		t = strings.TrimPrefix(t, "www.")
		if strings.TrimSuffix(t, "/") == "data-vocabulary.org/event" {
			t = "schema.org/event"
		}
		t, isSchema := strings.CutPrefix(t, "schema.org/")
		t = strings.TrimSuffix(t, "/")
		if ok && isSchema && t != "" && !strings.ContainsAny(t, "/?#") {
			out = append(out, t)
		}
	}
	return out
}

func (p *parser) isEvent(it int32) bool {
	return slices.ContainsFunc(p.types(it), schemaorg.IsEventType)
}
