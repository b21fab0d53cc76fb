package microdata

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// render writes the kept nodes of t: an element as its id (or its tag), then [its itemprop]
// and * for itemscope, and its children in parentheses; text quoted.
func render(t *tree) string {
	var b strings.Builder
	var walk func(n int32)
	walk = func(n int32) {
		nd := t.nodes[n]
		if nd.el == nil {
			b.WriteString(strconv.Quote(t.text[nd.start:nd.end]))
			return
		}
		name := nd.el.tag
		for id, m := range t.ids {
			if m == n {
				name = id
			}
		}
		b.WriteString(name)
		if nd.el.prop != "" {
			b.WriteString("[" + nd.el.prop + "]")
		}
		if nd.el.scope {
			b.WriteString("*")
		}
		if nd.first >= 0 {
			b.WriteString("(")
			for c := nd.first; c >= 0; c = t.nodes[c].next {
				if c != nd.first {
					b.WriteString(" ")
				}
				walk(c)
			}
			b.WriteString(")")
		}
	}
	first := true
	for n := range int32(len(t.nodes)) {
		if t.nodes[n].parent < 0 {
			if !first {
				b.WriteString(" ")
			}
			first = false
			walk(n)
		}
	}
	return b.String()
}

// checkBuilder fails when the builder's indexes of its open elements disagree with the
// stack itself.
func checkBuilder(t testing.TB) func(*builder) {
	return func(b *builder) {
		t.Helper()
		if len(b.open) > maxOpen {
			t.Fatalf("%d open elements", len(b.open))
		}
		props, hidden, svg := 0, 0, 0
		var stacks [nStacks][]int32
		for i, o := range b.open {
			tg := b.tags[o.tag]
			for st := range nStacks {
				if tg.cats&(1<<st) != 0 {
					stacks[st] = append(stacks[st], int32(i))
				}
			}
			if o.prop {
				props++
			}
			if o.hidden {
				hidden++
			}
			if tg.name == "svg" || tg.name == "math" {
				svg++
			}
		}
		for st := range nStacks {
			if !slices.Equal(stacks[st], b.stacks[st]) && len(stacks[st])+len(b.stacks[st]) > 0 {
				t.Fatalf("stack %d = %v, want %v", st, b.stacks[st], stacks[st])
			}
		}
		if props != b.props || hidden != b.hidden || svg != b.svg {
			t.Fatalf("counts %d %d %d, want %d %d %d", b.props, b.hidden, b.svg, props, hidden, svg)
		}
		want := make([][]int32, len(b.tags)) // per tag, its open elements from the top down
		for i := len(b.open) - 1; i >= 0; i-- {
			want[b.open[i].tag] = append(want[b.open[i].tag], int32(i))
		}
		for id, tg := range b.tags {
			var got []int32
			for i := tg.top; i >= 0 && len(got) <= len(want[id]); i = b.open[i].prev {
				got = append(got, i)
			}
			if !slices.Equal(got, want[id]) {
				t.Fatalf("open %s elements chain %v, want %v", tg.name, got, want[id])
			}
		}
	}
}

func TestTree(t *testing.T) {
	tests := []struct{ name, page, want string }{
		{"p ended by a block", `<div id=a><p id=b>x<div id=c></div></div>`, `a(b c)`},
		{"p ended by p", `<p id=a>1<p id=b>2`, `a b`},
		{"p ended by p, then by a block", `<div id=a><p>1<p>2<div id=c><h3 id=h>x</h3></div>`, `a(c(h))`}, // a stale index once popped c
		{"li ended by li", `<ul id=u><li id=a>1<li id=b>2</ul><i id=c>`, `u(a b) c`},
		{"nested lists", `<ul><li id=a><ul><li id=b>x<li id=c>y</ul><li id=d></ul>`, `a(b c) d`},
		{"dt and dd", `<dl><dt id=a>t<dd id=b>d<dt id=c></dl>`, `a b c`},
		{"table cells and rows", `<table id=t><tr id=r1><td id=a>1<td id=b>2<tr id=r2><th id=c>3</table><p id=z>`, `t(r1(a b) r2(c)) z`},
		{"table sections", `<table><tbody id=b1><tr id=r><td>x<tbody id=b2></table>`, `b1(r) b2`},
		{"nested table", `<table><tr><td id=a><table><tr><td id=b>x</table>y<td id=c></table>`, `a(b) c`},
		{"stray end tags", `<div id=a></span></p></li></td><span id=b></div><i id=c>`, `a(b) c`},
		{"phrasing end tag stops at a block", `<span id=a><div id=b></span>x</div>y</span><i id=c>`, `a(b) c`},
		{"misnested formatting", `<b id=a><i id=b>x</b>y</i><u id=c>`, `a(b) c`},
		{"formatting ends through a block", `<a id=a href=x><div id=b></a><i id=c>`, `a(b) c`},
		{"nested a", `<a id=a href=1>x<a id=b href=2>y</a>`, `a b`},
		{"options", `<select><option id=a>1<option id=b>2<optgroup id=g><option id=c></select>`, `a b g(c)`},
		{"headings", `<h1 id=a>x<h2 id=b>y</h1><p id=c>`, `a b c`},
		{"void elements", `<div id=a><img id=b><br id=c><meta id=d><input id=e>x</div>`, `a(b c d e)`},
		{"self-closing html element", `<div id="a"/><span id=b></span>`, `a(b)`},
		{"self-closing svg element", `<svg id=s><path id="p"/><g id=g></g></svg><span id=x>`, `s(p g) x`},
		{"unquoted value before a slash", `<div id=a/><span id=b></span>`, `a/(b)`},
		{"template content", `<template id=t><div id=in itemscope><span itemprop=n>x</span></div></template><div id=out>`, `t out`},
		{"custom elements", `<event-card id=a><x-when id=b></event-card><i id=c>`, `a(b) c`},
		{"comment", `<!-- <div id=no> --><div id=yes>`, `yes`},
		{"upper case", `<DIV ID=A ITEMPROP=Name ITEMSCOPE>x</DIV>`, `A[Name]*("x ")`},
		{"repeated body", `<body id=a><div id=b></div><body id=c><i id=d>`, `a(b d)`},
		{"end of body ignored", `<body id=a></body></html><div id=b>`, `a(b)`},
		{"text kept inside itemprop only", `<div id=i itemscope>x<span id=n itemprop=n>y</span>z</div>`, `i*(n[n]("y"))`},
		{"inline elements join", `<span id=n itemprop=n>Night<b>Owls</b></span>`, `n[n]("NightOwls")`},
		{"br and blocks separate", `<div id=n itemprop=n>a<br>b<p>c</p>d</div>`, `n[n]("a b c d ")`},
		{"hidden text", `<div id=n itemprop=n>a<script>b</script>c<style>d</style>e<noscript>f</noscript></div>`, `n[n]("a  c  e   ")`},
		{"text after a kept child", `<p id=n itemprop=n>a<span id=s itemprop=s>b</span>c</p>`, `n[n]("a" s[s]("b") "c ")`},
		{"raw text is not markup", `<script>"<div id=no>"</script><textarea><div id=no2></textarea><div id=yes>`, `yes`},
		{"first id wins", `<i id=x itemprop=a></i><b id=x itemprop=b></b>`, `x[a] b[b]`},
	}
	for _, tt := range tests {
		got := render(build([]byte(tt.page), checkBuilder(t)))
		if got != tt.want {
			t.Errorf("%s: %s\ngot  %s\nwant %s", tt.name, tt.page, got, tt.want)
		}
	}
}

func TestLines(t *testing.T) {
	tests := []struct {
		page string
		want []int // lines of the kept elements
	}{
		{"<i id=a>\n<i id=b>", []int{1, 2}},
		{"\r\n\r\n<i id=a>", []int{3}},
		{"<i\nid=a\n>\n<i id=b>", []int{1, 4}},
		{"<!--\n\n--><script>\n</script><i id=a title='x\ny'>\n<i id=b>", []int{4, 6}},
		{"<p>&#10;&#10;<i id=a>", []int{1}},
	}
	for _, tt := range tests {
		var got []int
		for _, n := range build([]byte(tt.page), nil).nodes {
			if n.el != nil {
				got = append(got, n.el.line)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: lines %v, want %v", tt.page, got, tt.want)
		}
	}
}

func TestTreeLimits(t *testing.T) {
	t.Run("depth", func(t *testing.T) {
		// The deepest element is a; b is kept as its child, but what is in b becomes b's sibling.
		page := strings.Repeat("<div>", maxOpen-1) + "<i id=a><b id=b><u id=c></u></b></i>" + strings.Repeat("</div>", maxOpen)
		tr := build([]byte(page), checkBuilder(t))
		if got := render(tr); got != "a(b c)" || len(tr.drops) != 1 || !strings.HasPrefix(tr.drops[0].reason, "html nested deeper than 512 elements") {
			t.Errorf("got %s, drops %+v; want c beside b", got, tr.drops)
		}
	})
	t.Run("elements", func(t *testing.T) {
		page := strings.Repeat("<i id=x></i>\n", maxElements) + "<i id=y></i>"
		tr := build([]byte(page), nil)
		want := []drop{{maxElements + 1, fmt.Sprintf("more than %d microdata elements on the page: the rest are ignored", maxElements)}}
		if len(tr.nodes) != maxElements || !slices.Equal(tr.drops, want) {
			t.Errorf("%d nodes, drops %+v; want %d nodes and %+v", len(tr.nodes), tr.drops, maxElements, want)
		}
	})
}
