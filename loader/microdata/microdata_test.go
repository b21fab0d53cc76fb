package microdata

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/schemaorg"
	"github.com/gigs/gigs/loader/schemaorg/schemaorgtest"
	"github.com/gigs/gigs/loader/source"
)

// fixtureDir holds the pages: *.good.html must yield events and no drops, *.bad.html must
// show their problems as drops.
const fixtureDir = "testdata"

var iso = schemaorgtest.ISO

var crownRooms = source.Place{
	Name: "The Crown Rooms", Street: "14 Ropewalk", Locality: "Bristol", PostalCode: "BS1 6AB",
	Country: "GB", Lat: 51.4545, Lon: -2.5879, HasGeo: true, URL: "https://crownrooms.example/",
}

var fixtures = []schemaorgtest.Fixture{
	{
		File: "listing.good.html",
		Events: []source.Event{
			{
				Ref:        "https://venue.example/listing.good.html#1",
				URL:        "https://venue.example/events/the-marlows",
				Line:       14,
				Title:      "The Marlows",
				Kinds:      []string{"musicevent"},
				Performers: []source.Performer{{Name: "The Marlows", Genres: []string{"Britpop"}}},
				Start:      iso("2026-11-20T19:30:00+00:00"),
				Doors:      iso("2026-11-20T19:00"),
				Venue:      crownRooms,
				Offers: []source.Offer{{
					URL:      "https://venue.example/tickets/marlows?src=listing&seat=ga",
					PriceMin: 18.5, PriceMax: 18.5, HasPrice: true, Currency: "GBP", Availability: "in_stock",
				}},
			},
			{
				Ref:        "https://venue.example/listing.good.html#2",
				Line:       27,
				Title:      "Ropewalk Weekender",
				Kinds:      []string{"musicevent"},
				Performers: []source.Performer{{Name: "Velvet Static"}, {Name: "Night Tram"}},
				Start:      iso("2026-11-21"),
				End:        iso("2026-11-22"),
				Venue:      crownRooms,
				Offers:     []source.Offer{{PriceMin: 25, PriceMax: 40, HasPrice: true, Currency: "GBP"}},
				Genres:     []string{"indie", "shoegaze"},
			},
			{
				Ref:    "https://venue.example/listing.good.html#3",
				Line:   39,
				Title:  "Sunday Folk Session",
				Kinds:  []string{"musicevent"},
				Status: engine.StatusCancelled,
				Start:  iso("2026-11-22T15:00"),
				Venue:  crownRooms,
			},
		},
	},
	{
		File: "event-page.good.html",
		Events: []source.Event{{
			Ref:   "https://lantern.example/programm/night-owls#event",
			URL:   "https://lantern.example/programm/night-owls", // against the page's <base>
			Line:  10,
			Title: "Night Owls",
			Kinds: []string{"musicevent"},
			Performers: []source.Performer{
				{Name: "Night Owls", Genres: []string{"Indie Rock", "Shoegaze"}},
				{Name: "Lena Holm"},
			},
			Status:        engine.StatusRescheduled,
			Start:         iso("2026-12-05T20:00:00+01:00"),
			End:           iso("2026-12-05T23:00:00+01:00"),
			Doors:         iso("2026-12-05T19:00"),
			PreviousStart: iso("2026-10-10T20:00:00+02:00"),
			Venue: source.Place{
				Name: "The Lantern", Street: "Kastanienallee 12", Locality: "Berlin", Region: "Berlin",
				PostalCode: "10435", Country: "Germany", Lat: 52.5386, Lon: 13.41, HasGeo: true,
				URL: "https://lantern.example/",
			},
			Offers: []source.Offer{
				{
					URL:      "https://lantern.example/programm/tickets/night-owls?typ=vvk",
					PriceMin: 25.5, PriceMax: 25.5, HasPrice: true, Currency: "EUR", Availability: "limited",
				},
				{PriceMin: 30, PriceMax: 30, HasPrice: true, Currency: "EUR", Availability: "pre_order"},
			},
			Genres: []string{"Indie"},
		}},
	},
	{
		File: "place-events.good.html",
		Events: []source.Event{
			{
				Ref:           "https://venue.example/place-events.good.html#1",
				Line:          9,
				Title:         "Simon & Garfunkel Tribute",
				Kinds:         []string{"musicevent"},
				Status:        engine.StatusPostponed,
				Start:         iso("2026-09-18T20:00:00+02:00"),
				PreviousStart: iso("2026-06-12T20:00:00+02:00"),
			},
			{
				Ref:   "https://venue.example/place-events.good.html#2",
				Line:  16,
				Title: "Festival des Quais",
				Kinds: []string{"festival"},
				Start: iso("2026-07-10"),
				End:   iso("2026-07-12"),
			},
			{
				Ref:   "https://venue.example/place-events.good.html#3",
				Line:  19,
				Title: "Festival des Quais : jour 1",
				Kinds: []string{"musicevent"},
				Start: iso("2026-07-10T18:00:00+02:00"),
				Venue: source.Place{Name: "Scène du quai"},
			},
			{
				Ref:   "https://venue.example/place-events.good.html#4",
				Line:  24,
				Title: "Festival des Quais : jour 2",
				Kinds: []string{"musicevent"},
				Start: iso("2026-07-11T16:00:00+02:00"),
				Venue: source.Place{Name: "Scène du quai"},
			},
			{
				Ref:   "https://petitbain.example/agenda/soiree-stand-up",
				Line:  37,
				Title: "Soirée Stand-up",
				Kinds: []string{"comedyevent"},
				Start: iso("2026-10-02T21:00:00+02:00"),
				Venue: source.Place{Name: "Le Petit Bain", Locality: "Paris", Country: "FR"},
			},
		},
	},
	{
		File: "broken.bad.html",
		Events: []source.Event{
			{
				Ref:    "https://venue.example/broken.bad.html#1",
				Line:   9,
				Title:  "Brass Wave",
				Kinds:  []string{"musicevent"},
				Start:  iso("2026-12-06T21:30"),
				Offers: []source.Offer{{PriceMin: 25, PriceMax: 25, HasPrice: true, Currency: "EUR"}},
			},
			{
				Ref:        "https://venue.example/broken.bad.html#2",
				Line:       13,
				Title:      "Café Olé presents: Rock 'n' Roll Night",
				Kinds:      []string{"musicevent"},
				Performers: []source.Performer{{Name: "Les Frères Jumeaux & friends"}},
				Start:      iso("2026-12-07T20:00:00+01:00"),
			},
			{
				Ref:   "https://venue.example/broken.bad.html#3",
				Line:  20,
				Title: "Sunday Folk Session",
				Kinds: []string{"event"},
				Start: iso("2026-12-13"),
				Venue: source.Place{Name: "Kulturhaus Nord"},
			},
			{
				Ref:   "https://venue.example/broken.bad.html#4",
				Line:  21,
				Title: "Jam Session",
				Kinds: []string{"event"},
				Start: iso("2026-12-14T20:00"),
				Venue: source.Place{Name: "Keller"},
			},
			{
				Ref:   "https://venue.example/broken.bad.html#8",
				Line:  28,
				Title: "Late Show",
				Kinds: []string{"musicevent"},
				Start: iso("2026-12-31T23:00:00+01:00"),
			},
		},
		Drops: []schemaorgtest.Drop{
			{Line: 25, Reason: `event "No Date Show": missing startDate`},
			{Line: 26, Reason: `event "Bad Date": cannot parse startDate "next friday": cannot parse date "next friday": want YYYY-MM-DD`},
			{Line: 27, Reason: `event "https://venue.example/e/nameless": missing name`},
		},
	},
}

func TestParseFixtures(t *testing.T) {
	schemaorgtest.RunFixtures(t, fixtureDir, Parse, fixtures)
}

// event wraps props in an event item with a start, so that a test can look at one value.
func event(props string) string {
	return `<div itemscope itemtype="https://schema.org/Event"><meta itemprop="startDate" content="2026-01-01">` + props + `</div>`
}

// parseOne parses page as https://venue.example/p/ and returns its one event, or the zero
// event when it yields none.
func parseOne(t *testing.T, page string) source.Event {
	t.Helper()
	events, _ := Parse([]byte(page), "https://venue.example/p/")
	if len(events) > 1 {
		t.Fatalf("%d events from %s", len(events), page)
	}
	if len(events) == 0 {
		return source.Event{}
	}
	return events[0]
}

func TestValues(t *testing.T) {
	tests := []struct{ props, title string }{
		{`<meta itemprop=name content="  Meta  Name ">`, "Meta Name"},
		{`<span itemprop=name content="Content Name">Shown</span>`, "Content Name"},
		{`<a itemprop=name href="/x">Text</a>`, "https://venue.example/x"},
		{`<img itemprop=name src="i.png" alt=Alt>`, "https://venue.example/p/i.png"},
		{`<object itemprop=name data="o.svg"></object>`, "https://venue.example/p/o.svg"},
		{`<data itemprop=name value="V">Shown</data>`, "V"},
		{`<meter itemprop=name value="3">three</meter>`, "3"},
		{`<time itemprop=name datetime="D">T</time>`, "D"},
		{`<time itemprop=name>Text Time</time>`, "Text Time"},
		{`<link itemprop=name>`, ""},
		{`<span itemprop="headline name">Two Names</span>`, "Two Names"},
		{`<span itemprop="http://schema.org/name">URL Name</span>`, "URL Name"},
		{`<span itemprop="NAME">Upper</span>`, "Upper"},
		{"<span itemprop=name>  Night\n\t <b>Owls</b> &amp; <i>co</i> </span>", "Night Owls & co"},
		{`<span itemprop=name><span itemprop=x itemscope>Inner</span> Outer</span>`, "Inner Outer"},
		{`<div itemprop=name itemscope>An item</div>`, ""},
		{`<span itemprop=name></span><span itemprop=name>Second</span>`, "Second"},
		{`<span itemprop=name>A &lt;b&gt; &amp;amp;</span>`, "A <b> &amp;"},
		{"<span itemprop=name>Bell\x07 \x00Band \xff</span>", "Bell Band \uFFFD"},
		{`<span itemprop=name>` + strings.Repeat("é", 300) + `</span>`, strings.Repeat("é", 250)},
	}
	for _, tt := range tests {
		if got := parseOne(t, event(tt.props)).Title; got != tt.title {
			t.Errorf("%s: title %q, want %q", tt.props, got, tt.title)
		}
	}
}

func TestLinks(t *testing.T) {
	tests := []struct{ props, url string }{
		{`<a itemprop=url href="/e/1">x</a>`, "https://venue.example/e/1"},
		{`<a itemprop=url href=" e/2?a=1&amp;b=2 ">x</a>`, "https://venue.example/p/e/2?a=1&b=2"},
		{`<link itemprop=url href="javascript:alert(1)">`, ""},
		{`<span itemprop=url>https://t.example/x</span>`, "https://t.example/x"},
		{`<meta itemprop=url content="e/3">`, "https://venue.example/p/e/3"},
		{`<base href="https://other.example/a/"><a itemprop=url href="e/4">x</a>`, "https://other.example/a/e/4"},
		{`<a itemprop=url href="https://` + strings.Repeat("a", 3000) + `">x</a>`, ""},
	}
	for _, tt := range tests {
		if got := parseOne(t, event(`<i itemprop=name>N</i>`+tt.props)).URL; got != tt.url {
			t.Errorf("%s: url %q, want %q", tt.props, got, tt.url)
		}
	}
}

func TestTypes(t *testing.T) {
	tests := []struct {
		attrs string
		want  bool
	}{
		{`itemscope itemtype="http://schema.org/Event"`, true},
		{`itemscope itemtype="https://schema.org/MusicEvent"`, true},
		{`itemscope itemtype="https://schema.org/MusicEvent/"`, true},
		{`itemscope itemtype="HTTPS://SCHEMA.ORG/musicevent"`, true},
		{`itemscope itemtype="http://www.schema.org/Festival"`, true},
		{`itemscope itemtype=" https://schema.org/Thing  https://schema.org/DanceEvent "`, true},
		{`itemscope itemtype="https://schema.org/EventSeries"`, false},
		{`itemscope itemtype="http://data-vocabulary.org/Event"`, true}, // Google's older vocabulary
		{`itemscope itemtype="http://data-vocabulary.org/Organization"`, false},
		{`itemscope itemtype="https://example.org/schema.org/Event"`, false},
		{`itemscope itemtype="Event"`, false},
		{`itemscope itemtype="schema.org/Event"`, false},
		{`itemscope itemtype="https://schema.org/Event/extra"`, false},
		{`itemscope`, false},
		{`itemtype="https://schema.org/Event"`, false},
	}
	for _, tt := range tests {
		page := `<div ` + tt.attrs + `><b itemprop=name>N</b><meta itemprop=startDate content=2026-01-01></div>`
		events, drops := Parse([]byte(page), "p")
		if got := len(events) == 1; got != tt.want || len(drops) > 0 {
			t.Errorf("%s: %d events, drops %+v; want an event: %v", tt.attrs, len(events), drops, tt.want)
		}
	}
}

// titles returns the titles of events.
func titles(events []source.Event) []string {
	var out []string
	for _, e := range events {
		out = append(out, e.Title)
	}
	return out
}

func TestShapes(t *testing.T) {
	ev := func(name string, more ...string) string {
		return `<div itemprop=` + cmpOr(more, "event") + ` itemscope itemtype=https://schema.org/MusicEvent><b itemprop=name>` + name +
			`</b><meta itemprop=startDate content=2026-01-01>`
	}
	tests := []struct {
		name, page string
		want       []string
	}{
		{"place with events", `<div itemscope itemtype=https://schema.org/MusicVenue><b itemprop=name>Hall</b>` + ev("A") + `</div>` + ev("B") + `</div></div>`, []string{"A", "B"}},
		{"orphan itemprop", ev("A") + `</div>`, []string{"A"}},
		{"top-level inside an event", `<div itemscope itemtype=https://schema.org/Event><b itemprop=name>A</b><meta itemprop=startDate content=2026-01-01>` +
			`<div itemscope itemtype=https://schema.org/Event><b itemprop=name>B</b><meta itemprop=startDate content=2026-01-02></div></div>`, []string{"A", "B"}},
		{"sub-events", ev("Fest") + ev("Day 1", "subEvent") + `</div>` + ev("Day 2", "subEvents") + `</div></div>`, []string{"Fest", "Day 1", "Day 2"}},
		{"an event's own session as its sub-event", ev("Show") + ev("Show", "subEvent") + `</div></div>`, []string{"Show"}},
		{"super event is not a listing", ev("Show") + ev("Series", "superEvent") + `</div></div>`, []string{"Show"}},
		{"an event a performer plays", ev("Show") + `<div itemprop=performer itemscope itemtype=https://schema.org/MusicGroup><b itemprop=name>Band</b>` +
			ev("Other", "event") + `</div></div></div>`, []string{"Show"}},
		{"list item", `<ol itemscope itemtype=https://schema.org/ItemList><li itemprop=itemListElement itemscope itemtype=https://schema.org/ListItem>` +
			ev("A", "item") + `</div></ol>`, []string{"A"}},
		{"by itemref, once", `<div itemscope itemtype=https://schema.org/ItemList itemref="e1 e1 e2"></div><div itemscope itemtype=https://schema.org/ItemList itemref=e1></div>` +
			`<div id=e1>` + ev("A", "itemListElement") + `</div></div>` + `<p id=e2 itemprop=itemListElement itemscope itemtype=https://schema.org/Event><b itemprop=name>B</b><meta itemprop=startDate content=2026-01-01></p>`,
			[]string{"A", "B"}},
		{"template", `<template>` + ev("A") + `</div></template>`, nil},
		{"none", `<p>No microdata here</p>`, nil},
		{"empty", ``, nil},
	}
	for _, tt := range tests {
		events, drops := Parse([]byte(tt.page), "p")
		if got := titles(events); !slices.Equal(got, tt.want) || len(drops) > 0 {
			t.Errorf("%s: got %q, drops %+v; want %q", tt.name, got, drops, tt.want)
		}
	}
}

// TestActPage: an act's page lists its shows in "event"; they are the act's, as in
// package jsonld. schema.org's example #eg-0009 (microdata), cut down: the shows are named
// after their venues.
func TestActPage(t *testing.T) {
	page := `<div itemscope itemtype="https://schema.org/MusicGroup"><h1 itemprop="name">Foo Fighters</h1>
<div itemprop="event" itemscope itemtype="https://schema.org/Event">
<a href="foo-fighters-may20-fedexforum" itemprop="url"><span itemprop="name">FedExForum</span></a> <span itemprop="location">Memphis, TN, US</span>
<meta itemprop="startDate" content="2011-05-20"></div>
<div itemprop="event" itemscope itemtype="https://schema.org/Event"><meta itemprop="startDate" content="2011-05-23">
<span itemprop="performer">Wet Leg</span></div></div>
<div itemscope itemtype="https://schema.org/Event"><span itemprop="name">Elsewhere</span><meta itemprop="startDate" content="2011-05-24"></div>`
	events, drops := Parse([]byte(page), "https://example.com/foo")
	if len(events) != 3 || len(drops) > 0 {
		t.Fatalf("%d events, drops %+v", len(events), drops)
	}
	for i, want := range []struct{ title, performer string }{{"FedExForum", "Foo Fighters"}, {"Foo Fighters", "Wet Leg"}, {"Elsewhere", ""}} {
		e := events[i]
		var got string
		if len(e.Performers) > 0 {
			got = e.Performers[0].Name
		}
		if e.Title != want.title || got != want.performer || len(e.Performers) > 1 {
			t.Errorf("event %d: %q played by %+v, want %q by %q", i, e.Title, e.Performers, want.title, want.performer)
		}
	}
}

// TestTypeNamesAreNoPerformers: a performer given as the name of its type names no act.
func TestTypeNamesAreNoPerformers(t *testing.T) {
	page := `<div itemscope itemtype="https://schema.org/Event"><span itemprop="name">N</span><meta itemprop="startDate" content="2026-01-01">
<span itemprop="performer">Organization</span><span itemprop="performer">Wet Leg</span></div>`
	events, _ := Parse([]byte(page), "p")
	if len(events) != 1 || len(events[0].Performers) != 1 || events[0].Performers[0].Name != "Wet Leg" {
		t.Errorf("events %+v", events)
	}
}

func cmpOr(s []string, or string) string {
	if len(s) > 0 {
		return s[0]
	}
	return or
}

func TestPlace(t *testing.T) {
	tests := []struct {
		props string
		want  source.Place
	}{
		{`<span itemprop=location>Keller</span>`, source.Place{Name: "Keller"}},
		{`<div itemprop=location itemscope itemtype=https://schema.org/Place><b itemprop=name>Hall</b>` +
			`<span itemprop=address>1 Road, Town</span><meta itemprop=latitude content=" 10.5 "><meta itemprop=longitude content="-20,25"></div>`,
			source.Place{Name: "Hall", Street: "1 Road, Town", Lat: 10.5, Lon: -20.25, HasGeo: true}},
		{`<div itemprop=location itemscope itemtype=https://schema.org/Place><b itemprop=name>Null Island</b>` +
			`<p itemprop=geo itemscope><meta itemprop=latitude content=0><meta itemprop=longitude content=0></p></div>`,
			source.Place{Name: "Null Island"}},
		{`<div itemprop=location itemscope itemtype=https://schema.org/Place><b itemprop=name>Off</b>` +
			`<p itemprop=geo itemscope><meta itemprop=latitude content=91><meta itemprop=longitude content=10></p>` +
			`<p itemprop=address itemscope><meta itemprop=addressCountry content="Deutschland"></p></div>`,
			source.Place{Name: "Off", Country: "Deutschland"}},
		{`<span itemprop=location itemscope itemtype=https://schema.org/VirtualLocation><link itemprop=url href=/stream></span>` +
			`<span itemprop=location>Online and in the bar</span>`,
			source.Place{Name: "Online and in the bar"}},
		// data-vocabulary.org's Organization and Address, as old event plug-ins write them.
		{`<span itemprop=location itemscope itemtype=http://data-vocabulary.org/Organization><span itemprop=name>Triple Rock</span>` +
			`<span itemprop=address itemscope itemtype=http://data-vocabulary.org/Address><span itemprop=street-address>629 Cedar Ave</span>` +
			`<span itemprop=locality>Minneapolis</span><span itemprop=region>MN</span><span itemprop=postal-code>55454</span>` +
			`<span itemprop=country-name>USA</span></span></span>`,
			source.Place{Name: "Triple Rock", Street: "629 Cedar Ave", Locality: "Minneapolis", Region: "MN", PostalCode: "55454", Country: "USA"}},
		// A location typed PostalAddress, its name and town on it (Kulturbolaget's concert
		// pages, Malmö), and a Place with its address's properties on itself.
		{`<div itemscope itemprop=location itemtype=http://schema.org/PostalAddress><span itemprop=name>Inkonst</span>` +
			`<span itemprop=addressLocality>Malm&ouml;</span></div>`,
			source.Place{Name: "Inkonst", Locality: "Malmö"}},
		{`<div itemprop=location itemscope itemtype=https://schema.org/Place><b itemprop=name>Hall</b>` +
			`<span itemprop=address>Storgatan 1</span><span itemprop=addressLocality>Rävlanda</span><meta itemprop=addressCountry content=SE></div>`,
			source.Place{Name: "Hall", Street: "Storgatan 1", Locality: "Rävlanda", Country: "SE"}},
	}
	for _, tt := range tests {
		if got := parseOne(t, event(`<i itemprop=name>N</i>`+tt.props)).Venue; got != tt.want {
			t.Errorf("%s: venue %+v, want %+v", tt.props, got, tt.want)
		}
	}
}

func TestItemref(t *testing.T) {
	t.Run("shared venue and performer", func(t *testing.T) {
		page := `<div itemscope itemtype=https://schema.org/Event itemref="v p o"><b itemprop=name>One</b><meta itemprop=startDate content=2026-01-01></div>
			<div itemscope itemtype=https://schema.org/Event itemref="v p o missing"><b itemprop=name>Two</b><meta itemprop=startDate content=2026-01-02></div>
			<div id=v itemprop=location itemscope itemtype=https://schema.org/Place><b itemprop=name>Hall</b></div>
			<div id=p itemprop=performer itemscope itemtype=https://schema.org/MusicGroup><b itemprop=name>Band</b><i itemprop=genre>rock</i><i itemprop=genre>pop</i></div>
			<div id=o itemprop=offers itemscope itemtype=https://schema.org/AggregateOffer itemref=o><meta itemprop=priceCurrency content=EUR>
				<p itemprop=offers itemscope itemref=o><meta itemprop=price content=7></p></div>`
		events, drops := Parse([]byte(page), "p")
		schemaorgtest.CheckShared(t, events, drops, source.Event{
			Ref: "p#1", Line: 1, Title: "One", Start: iso("2026-01-01"), Kinds: []string{"event"},
			Venue:      source.Place{Name: "Hall"},
			Performers: []source.Performer{{Name: "Band", Genres: []string{"rock", "pop"}}},
			Offers:     []source.Offer{{PriceMin: 7, PriceMax: 7, HasPrice: true, Currency: "EUR"}},
		})
	})

	t.Run("cycles", func(t *testing.T) {
		pages := []string{
			`<div id=e itemscope itemtype=https://schema.org/Event itemref=e><b itemprop=name>Self</b><meta itemprop=startDate content=2026-01-01></div>`,
			`<div id=outer><div itemscope itemtype=https://schema.org/Event itemref=outer><b itemprop=name>Ancestor</b><meta itemprop=startDate content=2026-01-01></div></div>`,
			`<div itemscope itemtype=https://schema.org/Event itemref=b id=a><b itemprop=name>Mutual</b><meta itemprop=startDate content=2026-01-01></div>` +
				`<div itemprop=location itemscope itemtype=https://schema.org/Place itemref=a id=b><b itemprop=name>Hall</b></div>`,
			`<div itemscope itemtype=https://schema.org/Event><b itemprop=name>Offers</b><meta itemprop=startDate content=2026-01-01>` +
				`<div id=x itemprop=offers itemscope itemref=y><meta itemprop=price content=1></div><div id=y itemprop=offers itemscope itemref=x><meta itemprop=price content=2></div></div>`,
		}
		for _, page := range pages {
			events, drops := Parse([]byte(page), "p")
			if len(events) != 1 || len(drops) > 0 {
				t.Errorf("%s: %d events, drops %+v; want 1 event", page, len(events), drops)
			}
		}
	})
}

func TestLimits(t *testing.T) {
	ev := `<div itemscope itemtype=https://schema.org/Event><b itemprop=name>N</b><meta itemprop=startDate content=2026-01-01></div>`

	t.Run("item depth", func(t *testing.T) {
		nest := func(n int) string {
			return strings.Repeat(`<div itemprop=x itemscope itemtype=https://schema.org/Thing>`, n) +
				strings.Replace(ev, "<div itemscope", "<div itemprop=event itemscope", 1) + strings.Repeat(`</div>`, n)
		}
		events, drops := Parse([]byte("<p itemscope>"+nest(maxItemDepth-2)+"</p>\n"+nest(maxItemDepth)), "p")
		if len(events) != 1 || events[0].Line != 1 {
			t.Errorf("got events %+v, want the shallow one", events)
		}
		want := []source.Drop{{Ref: "p", Line: 2, Reason: "microdata items nested deeper than 32 levels: the deeper items are ignored"}}
		if !reflect.DeepEqual(drops, want) {
			t.Errorf("drops = %+v, want %+v", drops, want)
		}
	})

	t.Run("offers and genres", func(t *testing.T) {
		page := event(`<b itemprop=name>N</b>` + strings.Repeat(`<i itemprop=genre>g</i>`, 30) +
			strings.Repeat(`<p itemprop=offers itemscope><meta itemprop=price content=1></p>`, 60))
		e := parseOne(t, page)
		if len(e.Offers) != schemaorg.MaxOffers || len(e.Genres) != schemaorg.MaxGenres {
			t.Errorf("%d offers, %d genres; want %d and %d", len(e.Offers), len(e.Genres), schemaorg.MaxOffers, schemaorg.MaxGenres)
		}
	})

	t.Run("work", func(t *testing.T) {
		// Every event refers to the same large block: crawling them all would take 30,000,000
		// steps. The events crawled before the budget ran out are kept.
		var page strings.Builder
		page.WriteString(strings.Repeat(`<p itemscope itemtype=https://schema.org/Event itemref=big><b itemprop=name>N</b>`+
			`<meta itemprop=startDate content=2026-01-01></p>`+"\n", 3000))
		page.WriteString(`<div id=big>` + strings.Repeat(`<i id=x></i>`, 10000) + `</div>`)
		events, drops := Parse([]byte(page.String()), "p")
		n := len(events)
		want := []source.Drop{{Ref: "p", Line: n + 1, Reason: "microdata too complex: reading stopped after 10000000 steps"}}
		if n < 900 || n > 1000 || !reflect.DeepEqual(drops, want) {
			t.Errorf("got %d events, drops %+v; want about 1000 events and %+v", n, drops, want)
		}
	})

	schemaorgtest.CheckLimits(t, Parse, schemaorgtest.LimitPages{
		Events: func(n int) string { return strings.Repeat(ev, n-1) + "\n" + ev },
		Long: func(s string) string {
			return `<div itemscope itemtype=https://schema.org/Event itemid="` + s + `"><b itemprop=name>` + s +
				`</b><meta itemprop=startDate content="` + s + `"></div>`
		},
	})
}

// TestHostile parses large pages built to make parsers slow; each must be read quickly.
func TestHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("reads several 8 MiB pages")
	}
	const size = 8 << 20
	rep := func(s string) string { return strings.Repeat(s, size/len(s)) }
	pages := map[string]string{
		"nested divs":            rep("<div itemscope itemprop=a>"),
		"nested spans then divs": strings.Repeat("<span>", size/12) + strings.Repeat("</div>", size/12),
		"blocked end tags":       "<b><div>" + strings.Repeat("<span>", 500) + rep("</b>"),
		"list items in spans":    strings.Repeat("<span>", 500) + rep("<li>"),
		"formatting":             rep("<b><p>"),
		"itemprop text":          "<div itemscope><p itemprop=name>" + rep("a<b>b</b>"),
		"items":                  rep(`<i itemscope itemtype=https://schema.org/Event><b itemprop=name>N</b></i>`),
		"attributes":             "<div " + rep("itemprop=a ") + ">",
		"itemref":                `<div itemscope itemref="` + rep("a ") + `"></div><i id=a itemprop=x>`,
		"itemprop names":         `<div itemscope><i itemprop="` + rep("a ") + `">`,
		"itemtypes":              rep(`<i itemscope itemprop=location itemtype="x x x x x x x x x x x x x x x x x x x x">`),
	}
	for name, page := range pages {
		start := time.Now()
		events, drops := Parse([]byte(page), "p")
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%s: took %v", name, d)
		}
		t.Logf("%s: %d events, %d drops in %v", name, len(events), len(drops), time.Since(start))
	}
}

func TestVenueNamedByItsLink(t *testing.T) {
	for _, c := range []struct{ name, location, wantName, wantURL string }{
		{"link text", `<a itemprop=location href="/venues/garage">The Garage</a>`, "The Garage", "https://venue.example/venues/garage"},
		{"link without text", `<a itemprop=location href="https://v.example/venues/the-lexington"></a>`, "The Lexington", "https://v.example/venues/the-lexington"},
		{"place with a url link only", `<div itemprop=location itemscope itemtype=https://schema.org/Place><a itemprop=url href="https://g.example/">The Garage</a></div>`, "The Garage", "https://g.example/"},
	} {
		page := `<div itemscope itemtype=https://schema.org/MusicEvent><b itemprop=name>X</b><meta itemprop=startDate content=2026-12-01T20:00>` + c.location + `</div>`
		events, drops := Parse([]byte(page), "https://venue.example/whats-on")
		if len(events) != 1 || len(drops) != 0 {
			t.Fatalf("%s: %d events, drops %+v", c.name, len(events), drops)
		}
		if v := events[0].Venue; v.Name != c.wantName || v.URL != c.wantURL {
			t.Errorf("%s: venue %q at %q, want %q at %q", c.name, v.Name, v.URL, c.wantName, c.wantURL)
		}
	}
}

// TestDataVocabulary reads an event of Google's older vocabulary, as a listing site wrote
// it in 2018: its name is "summary".
func TestDataVocabulary(t *testing.T) {
	page := `<article itemscope itemtype="http://data-vocabulary.org/Event"><span style="display:none;">` +
		`<time itemprop="startDate" datetime="2018-11-07T00:00">2018-11-07T00:00</time></span>` +
		`<h1 itemprop="summary"><a href="/events/1">Love Games</a></h1></article>`
	events, drops := Parse([]byte(page), "https://listings.example/")
	if len(events) != 1 || len(drops) > 0 || events[0].Title != "Love Games" || events[0].Start.Wall.Format("2006-01-02T15:04") != "2018-11-07T00:00" {
		t.Fatalf("events %+v, drops %+v", events, drops)
	}
}
