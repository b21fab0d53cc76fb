package microdata

import (
	"bytes"
	"fmt"
	"slices"

	"golang.org/x/net/html"
)

const (
	maxOpen     = 512     // open elements; deeper ones are read as siblings, as browsers do
	maxElements = 100_000 // elements kept; the rest of the page is not read for microdata
)

// A tree keeps what microdata needs of a page: the elements that carry itemscope, itemprop
// or id, and the text inside itemprop elements. Other elements are not kept; their content
// belongs to the nearest kept ancestor, which leaves textContent and the crawl of an item's
// properties as they are on the whole tree.
type tree struct {
	nodes []node // in document order
	text  string // the text of all text nodes, in document order
	ids   map[string]int32
	base  string // the href of the first <base>, if any
	drops []drop
}

// node is an element or a run of text. Links are node indices, -1 for none.
type node struct {
	parent, first, last, next int32
	start, end                int // text: its bytes in tree.text
	el                        *element
}

// element is a kept element with the attributes microdata reads.
type element struct {
	line   int
	tag    string
	scope  bool   // itemscope
	types  string // itemtype
	prop   string // itemprop
	itemid string
	ref    string // itemref
	val    string // the value from an attribute (see value), when hasVal
	hasVal bool
	isURL  bool // val is a URL to resolve against the page
}

type drop struct {
	line   int
	reason string
}

// Stacks of open elements kept per category, to answer "is there an open X above index i"
// in constant time.
const (
	stSpecial = iota // HTML's "special" elements: they stop a stray phrasing end tag
	stStopLI         // special but address, div and p: they stop the implied end of li, dd, dt
	stScope          // the boundaries of "has an element in scope"
	stButton         // button scope adds button
	stList           // list item scope adds ol and ul
	stTable          // table scope: html, table, template
	nStacks
)

// Tag categories: one per stack, then the others.
const (
	catSpecial = 1 << stSpecial
	catStopLI  = 1 << stStopLI
	catScope   = 1 << stScope
	catButton  = 1 << stButton
	catList    = 1 << stList
	catTable   = 1 << stTable
)

const (
	catVoid    = 1 << (nStacks + iota) // never has content
	catClosesP                         // its start tag ends an open p
	catFormat                          // a formatting element: its end tag ends it through specials
	catHidden                          // its text is not content: script, style and the like
	catHeading
)

var categories = map[string]int{}

func init() {
	add := func(cat int, names ...string) {
		for _, n := range names {
			categories[n] |= cat
		}
	}
	add(catSpecial, "address", "applet", "area", "article", "aside", "base", "basefont", "bgsound",
		"blockquote", "body", "br", "button", "caption", "center", "col", "colgroup", "dd", "details",
		"dir", "div", "dl", "dt", "embed", "fieldset", "figcaption", "figure", "footer", "form",
		"frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hgroup", "hr",
		"html", "iframe", "img", "input", "keygen", "li", "link", "listing", "main", "marquee",
		"menu", "meta", "nav", "noembed", "noframes", "noscript", "object", "ol", "p", "param",
		"plaintext", "pre", "script", "search", "section", "select", "source", "style", "summary",
		"table", "tbody", "td", "template", "textarea", "tfoot", "th", "thead", "title", "tr",
		"track", "ul", "wbr", "xmp")
	for n, c := range categories {
		if c&catSpecial != 0 && n != "address" && n != "div" && n != "p" {
			categories[n] |= catStopLI
		}
	}
	add(catScope, "applet", "caption", "html", "table", "td", "th", "marquee", "object", "template")
	add(catButton, "button")
	add(catList, "ol", "ul")
	add(catTable, "html", "table", "template")
	add(catVoid, "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img",
		"input", "keygen", "link", "meta", "param", "source", "track", "wbr")
	add(catClosesP, "address", "article", "aside", "blockquote", "center", "details", "dialog",
		"dir", "div", "dl", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3",
		"h4", "h5", "h6", "header", "hgroup", "hr", "li", "dd", "dt", "listing", "main", "menu",
		"nav", "ol", "p", "plaintext", "pre", "search", "section", "summary", "table", "ul", "xmp")
	add(catFormat, "a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike",
		"strong", "tt", "u")
	add(catHidden, "script", "style", "noscript", "iframe", "noembed", "noframes", "template")
	add(catHeading, "h1", "h2", "h3", "h4", "h5", "h6")
}

// valueAttr names, per element, the attribute that holds its property value.
var valueAttr = map[string]string{
	"meta": "content", "audio": "src", "embed": "src", "iframe": "src", "img": "src",
	"source": "src", "track": "src", "video": "src", "a": "href", "area": "href", "link": "href",
	"object": "data", "data": "value", "meter": "value", "time": "datetime",
}

// tag is an element name met on the page.
type tag struct {
	name string
	cats int
	top  int32 // index in builder.open of the topmost open element of this name, or -1
}

// open is an element on the stack of open elements.
type open struct {
	tag    int32
	prev   int32 // index in builder.open of the next open element of the same name below, or -1
	kept   int32 // the node of the nearest kept element at or below this one, or -1
	prop   bool  // a kept element with itemprop
	hidden bool  // a template: its content is not part of the page
}

// builder builds a tree from the tokens of a page. Its tree construction follows the HTML
// rules that matter for pages with broken markup: void elements, end tags that end the
// unclosed elements inside them, stray end tags ignored, and the implied ends of p, li,
// dd, dt, td, th, tr, table sections, option and a nested a. Every step is constant time
// but for popping elements, each of which was pushed once.
type builder struct {
	tree
	text   []byte
	tags   []tag
	tagIDs map[string]int32
	open   []open
	stacks [nStacks][]int32 // per category, the indices in open of its open elements
	props  int              // open kept elements with itemprop: text is kept while there are any
	hidden int              // open templates
	svg    int              // open svg and math elements
	kept   int              // elements kept
	line   int              // line of the current token
	deep   bool             // maxOpen was reached
}

// build reads page into a tree. check, when not nil, is called after every token; tests use
// it to check the builder's invariants.
func build(page []byte, check func(*builder)) *tree {
	b := &builder{
		tree:   tree{ids: map[string]int32{}},
		tagIDs: map[string]int32{},
		line:   1,
	}
	z := html.NewTokenizer(bytes.NewReader(page))
	skipText := false // the next text token is the content of a hidden element
	for {
		tt := z.Next()
		next := b.line + bytes.Count(z.Raw(), []byte("\n")) // before Text or TagAttr rewrite it
		hidden := false
		switch tt {
		case html.ErrorToken: // the end of the page; the tokenizer reads from memory
			b.tree.text = string(b.text)
			return &b.tree
		case html.TextToken:
			if !skipText && b.props > 0 && b.hidden == 0 {
				b.addText(z.Text())
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			t := b.start(name, tt == html.SelfClosingTagToken, z)
			hidden = b.tags[t].cats&catHidden != 0
		case html.EndTagToken:
			name, _ := z.TagName()
			b.end(name)
		}
		skipText = hidden
		b.line = next
		if check != nil {
			check(b)
		}
	}
}

// tagID returns the id of the tag name, adding it when new.
func (b *builder) tagID(name []byte) int32 {
	if id, ok := b.tagIDs[string(name)]; ok {
		return id
	}
	n := string(name)
	id := int32(len(b.tags))
	b.tags = append(b.tags, tag{name: n, cats: categories[n], top: -1})
	b.tagIDs[n] = id
	return id
}

// top returns the index in open of the topmost open element on stack st, or -1.
func (b *builder) top(st int) int32 {
	if s := b.stacks[st]; len(s) > 0 {
		return s[len(s)-1]
	}
	return -1
}

// current returns the tag of the current element, the topmost open one, or nil.
func (b *builder) current() *tag {
	if len(b.open) == 0 {
		return nil
	}
	return &b.tags[b.open[len(b.open)-1].tag]
}

// popCurrent pops the current element when its name is one of names.
func (b *builder) popCurrent(cat int, names ...string) {
	if c := b.current(); c != nil && (c.cats&cat != 0 || slices.Contains(names, c.name)) {
		b.popTo(int32(len(b.open) - 1))
	}
}

// topOf returns the index in open of the topmost open element named name, or -1.
func (b *builder) topOf(name string) int32 {
	if id, ok := b.tagIDs[name]; ok {
		return b.tags[id].top
	}
	return -1
}

func (b *builder) inScope(i int32) bool { return i >= 0 && b.top(stScope) <= i }

// popTo pops the open elements down to and including index i.
func (b *builder) popTo(i int32) {
	for int32(len(b.open)) > i {
		o := b.open[len(b.open)-1]
		b.open = b.open[:len(b.open)-1]
		t := &b.tags[o.tag]
		t.top = o.prev
		for c := range nStacks {
			if t.cats&(1<<c) != 0 {
				b.stacks[c] = b.stacks[c][:len(b.stacks[c])-1]
			}
		}
		if o.prop {
			b.props--
		}
		if o.hidden {
			b.hidden--
		}
		if t.name == "svg" || t.name == "math" {
			b.svg--
		}
	}
}

// closeP ends an open p element in button scope.
func (b *builder) closeP() {
	if i := b.topOf("p"); b.inScope(i) && b.top(stButton) <= i {
		b.popTo(i)
	}
}

// closeCell ends an open td or th in table scope.
func (b *builder) closeCell() {
	if i := max(b.topOf("td"), b.topOf("th")); i >= 0 && b.top(stTable) <= i {
		b.popTo(i)
	}
}

// closeInTable ends the topmost of the named open elements when it is in table scope.
func (b *builder) closeInTable(names ...string) {
	i := int32(-1)
	for _, n := range names {
		i = max(i, b.topOf(n))
	}
	if i >= 0 && b.top(stTable) <= i {
		b.popTo(i)
	}
}

// start handles a start tag and returns its tag id.
func (b *builder) start(name []byte, selfClosing bool, z *html.Tokenizer) int32 {
	id := b.tagID(name)
	t := b.tags[id]
	if (t.name == "html" || t.name == "body") && t.top >= 0 {
		return id // a repeated html or body start tag adds nothing here
	}
	if t.cats&catClosesP != 0 {
		b.closeP()
	}
	switch t.name {
	case "li", "dd", "dt":
		i := b.topOf("li")
		if t.name != "li" {
			i = max(b.topOf("dd"), b.topOf("dt"))
		}
		if i >= 0 && b.top(stStopLI) <= i {
			b.popTo(i)
		}
	case "td", "th":
		b.closeCell()
	case "tr":
		b.closeCell()
		b.closeInTable("tr")
	case "tbody", "thead", "tfoot":
		b.closeCell()
		b.closeInTable("tr")
		b.closeInTable("tbody", "thead", "tfoot")
	case "option", "optgroup":
		b.popCurrent(0, "option")
		if t.name == "optgroup" {
			b.popCurrent(0, "optgroup")
		}
	case "a", "button": // they do not nest
		if i := b.tags[id].top; i >= 0 && b.top(stScope) < i {
			b.popTo(i)
		}
	}
	if t.cats&catHeading != 0 {
		b.popCurrent(catHeading)
	}
	if t.cats&catSpecial != 0 {
		b.separate()
	}

	parent := int32(-1)
	if len(b.open) > 0 {
		parent = b.open[len(b.open)-1].kept
	}
	kept := b.element(t.name, parent, z)
	if kept < 0 {
		kept = parent
	}
	if t.cats&catVoid != 0 || selfClosing && (b.svg > 0 || t.name == "svg" || t.name == "math") {
		return id
	}
	if len(b.open) == maxOpen {
		if !b.deep {
			b.deep = true
			b.drops = append(b.drops, drop{b.line, fmt.Sprintf("html nested deeper than %d elements: the deeper ones are read as siblings", maxOpen)})
		}
		return id
	}
	// prev is not t.top: the implied ends above may have changed it.
	o := open{tag: id, prev: b.tags[id].top, kept: kept, hidden: t.name == "template"}
	o.prop = kept >= 0 && kept != parent && b.nodes[kept].el.prop != ""
	i := int32(len(b.open))
	b.open = append(b.open, o)
	b.tags[id].top = i
	for c := range nStacks {
		if t.cats&(1<<c) != 0 {
			b.stacks[c] = append(b.stacks[c], i)
		}
	}
	if o.prop {
		b.props++
	}
	if o.hidden {
		b.hidden++
	}
	if t.name == "svg" || t.name == "math" {
		b.svg++
	}
	return id
}

// end handles an end tag.
func (b *builder) end(name []byte) {
	id, ok := b.tagIDs[string(name)]
	if !ok {
		return // never opened
	}
	t := b.tags[id]
	i := t.top
	if t.cats&catSpecial != 0 {
		b.separate()
	}
	switch t.name {
	case "html", "body", "br":
		return
	case "p":
		if b.inScope(i) && b.top(stButton) <= i {
			b.popTo(i)
		}
	case "li":
		if b.inScope(i) && b.top(stList) <= i {
			b.popTo(i)
		}
	case "h1", "h2", "h3", "h4", "h5", "h6": // any heading ends any other
		i = max(b.topOf("h1"), b.topOf("h2"), b.topOf("h3"), b.topOf("h4"), b.topOf("h5"), b.topOf("h6"))
		if b.inScope(i) {
			b.popTo(i)
		}
	case "table", "tbody", "thead", "tfoot", "tr", "td", "th":
		if i >= 0 && b.top(stTable) <= i {
			b.popTo(i)
		}
	default:
		switch {
		case t.cats&catFormat != 0:
			if i >= 0 && b.top(stScope) < i {
				b.popTo(i)
			}
		case t.cats&catSpecial != 0:
			if b.inScope(i) {
				b.popTo(i)
			}
		default: // "any other end tag"
			if i >= 0 && b.top(stSpecial) < i {
				b.popTo(i)
			}
		}
	}
}

// element keeps the element of the current start tag when microdata may need it, under the
// kept node parent, and returns its node, or -1.
func (b *builder) element(name string, parent int32, z *html.Tokenizer) int32 {
	el := element{line: b.line, tag: name}
	want := valueAttr[name]
	// The attribute values are views into the tokenizer's buffer, valid until its next token;
	// only the elements kept get copies.
	var id, content, val []byte
	var hasContent, hasVal bool // a value may be empty, and even nil
	for more := true; more; {
		var k, v []byte
		k, v, more = z.TagAttr()
		switch string(k) {
		case "itemscope":
			el.scope = true
		case "itemtype":
			el.types = string(v)
		case "itemprop":
			el.prop = string(v)
		case "itemid":
			el.itemid = string(v)
		case "itemref":
			el.ref = string(v)
		case "id":
			id = v
		case "content":
			content, hasContent = v, true
		}
		if want != "" && string(k) == want {
			val, hasVal = v, true
		}
		if name == "base" && string(k) == "href" && b.base == "" {
			b.base = string(v)
		}
	}
	if !el.scope && el.prop == "" && len(id) == 0 || b.hidden > 0 {
		return -1
	}
	if b.kept == maxElements {
		b.drops = append(b.drops, drop{b.line, fmt.Sprintf("more than %d microdata elements on the page: the rest are ignored", maxElements)})
	}
	if b.kept++; b.kept > maxElements {
		return -1
	}
	// The value: a content attribute on any element, as search engines read it, else the
	// element's own value attribute, "" when it is missing. A time without datetime, and
	// elements that have no value attribute, use their text.
	switch {
	case hasContent:
		el.val, el.hasVal = string(content), true
	case hasVal:
		el.val, el.hasVal = string(val), true
		el.isURL = want == "href" || want == "src" || want == "data"
	case want != "" && want != "datetime":
		el.hasVal = true
	}
	n := b.add(parent, node{el: &el})
	if _, ok := b.ids[string(id)]; len(id) > 0 && !ok {
		b.ids[string(id)] = n
	}
	return n
}

// add appends n to the tree as the last child of parent and returns its index.
func (b *builder) add(parent int32, n node) int32 {
	i := int32(len(b.nodes))
	n.parent, n.first, n.last, n.next = parent, -1, -1, -1
	if parent >= 0 {
		p := &b.nodes[parent]
		if p.last >= 0 {
			b.nodes[p.last].next = i
		} else {
			p.first = i
		}
		p.last = i
	}
	b.nodes = append(b.nodes, n)
	return i
}

// addText appends text to the current kept element.
func (b *builder) addText(s []byte) {
	parent := b.open[len(b.open)-1].kept
	if parent < 0 || len(s) == 0 {
		return
	}
	start := len(b.text)
	b.text = append(b.text, s...)
	if last := b.nodes[parent].last; last >= 0 && b.nodes[last].el == nil && b.nodes[last].end == start {
		b.nodes[last].end = len(b.text)
		return
	}
	b.add(parent, node{start: start, end: len(b.text)})
}

// separate adds a space to the text being kept, for a line break or the edge of a block
// element, so that "<p>One</p><p>Two</p>" reads "One Two".
func (b *builder) separate() {
	if b.props > 0 && b.hidden == 0 {
		b.addText([]byte(" "))
	}
}
