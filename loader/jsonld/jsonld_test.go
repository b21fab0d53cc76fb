package jsonld

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/schemaorg"
	"github.com/gigs/gigs/loader/schemaorg/schemaorgtest"
	"github.com/gigs/gigs/loader/source"
)

// fixtureDir holds the pages: *.good.html must yield events and no drops, *.bad.html must
// show their problems as drops.
const fixtureDir = "../../testdata/jsonld"

var iso = schemaorgtest.ISO

var (
	json25       = json.Number("25")
	json1975     = json.Number("1975")
	jsonNegative = json.Number("-0.5")
	jsonHuge     = json.Number("1e999")
)

var (
	crownRooms = source.Place{
		Name: "The Crown Rooms", Street: "14 Ropewalk", Locality: "Bristol", PostalCode: "BS1 6AB",
		Country: "United Kingdom", Lat: 51.4545, Lon: -2.5879, HasGeo: true, URL: "https://crownrooms.example/",
	}
	petitBain = source.Place{Name: "Le Petit Bain"}
)

var fixtures = []schemaorgtest.Fixture{
	{
		File: "single-object.good.html",
		Events: []source.Event{{
			Ref:        "https://venue.example/single-object.good.html#event",
			URL:        "https://venue.example/events/night-owls",
			Line:       7,
			Title:      "Night Owls",
			Kinds:      []string{"MusicEvent"},
			Performers: []source.Performer{{Name: "Night Owls", Genres: []string{"indie rock", "shoegaze"}}},
			Status:     engine.StatusScheduled,
			Start:      iso("2026-12-05T20:00:00+01:00"),
			End:        iso("2026-12-05T23:00:00+01:00"),
			Doors:      iso("2026-12-05T19:00"),
			Venue: source.Place{
				Name: "The Lantern", Street: "Kastanienallee 12", Locality: "Berlin", Region: "Berlin",
				PostalCode: "10435", Country: "DE", Lat: 52.5386, Lon: 13.41, HasGeo: true,
				URL: "https://lantern.example/",
			},
			Offers: []source.Offer{{
				URL:      "https://tickets.example/night-owls?venue=1&seat=ga",
				PriceMin: 25, PriceMax: 25, HasPrice: true, Currency: "EUR", Availability: "in_stock",
			}},
			Genres: []string{"Indie"},
		}},
	},
	{
		File: "array.good.html",
		Events: []source.Event{
			{
				Ref:   "https://venue.example/array.good.html#1",
				Line:  8,
				Title: "Brass Wave",
				Kinds: []string{"Event", "MusicEvent"},
				Performers: []source.Performer{
					{Name: "Brass Wave"},
					{Name: "Lena Holm", Genres: []string{"jazz"}},
				},
				Start: iso("2026-12-06T21:30"),
				Doors: iso("2026-12-06T20:30:00"),
				Venue: source.Place{
					Name: "Kulturhaus Nord", Street: "Nordstraße 5, 20095 Hamburg",
					Lat: 53.5511, Lon: 9.9937, HasGeo: true,
				},
				Offers: []source.Offer{
					{PriceMin: 25, PriceMax: 25, HasPrice: true, Currency: "EUR", Availability: "pre_order"},
					{PriceMin: 25, PriceMax: 25, HasPrice: true, Currency: "EUR"},
					{PriceMin: 25.5, PriceMax: 25.5, HasPrice: true, Currency: "EUR", Availability: "sold_out"},
				},
			},
			{
				Ref:    "https://venue.example/array.good.html#2",
				Line:   27,
				Title:  "Sunday Folk Session",
				Kinds:  []string{"MusicEvent"},
				Start:  iso("2026-12-07"),
				Venue:  source.Place{Name: "Kulturhaus Nord", Locality: "Hamburg", Country: "Germany"},
				Offers: []source.Offer{{HasPrice: true}},
				Genres: []string{"folk", "acoustic"},
			},
		},
	},
	{
		File: "graph.good.html",
		Events: []source.Event{
			{
				Ref:        "https://crownrooms.example/events/the-marlows/#event",
				Line:       11,
				Title:      "The Marlows",
				Kinds:      []string{"MusicEvent"},
				Performers: []source.Performer{{Name: "The Marlows", Genres: []string{"Britpop"}}},
				Start:      iso("2026-11-20T19:30:00+00:00"),
				Venue:      crownRooms,
				Offers: []source.Offer{{
					URL: "https://crownrooms.example/tickets/marlows", PriceMin: 18.5, PriceMax: 18.5, HasPrice: true, Currency: "GBP",
				}},
			},
			{
				Ref:   "https://venue.example/graph.good.html#2", // a blank node's @id is not an identity
				Line:  16,
				Title: "Ropewalk Weekender",
				Kinds: []string{"Festival"},
				Start: iso("2026-11-21"),
				End:   iso("2026-11-22"),
				Venue: crownRooms,
			},
			{
				Ref:   "https://venue.example/graph.good.html#3",
				Line:  19,
				Title: "Ropewalk Weekender: Day One",
				Kinds: []string{"MusicEvent"},
				Start: iso("2026-11-21T14:00:00Z"),
				Venue: crownRooms,
			},
		},
	},
	{
		File: "webpage-mainentity.good.html",
		Events: []source.Event{{
			Ref:        "https://venue.example/webpage-mainentity.good.html#1",
			Line:       12,
			Title:      "DJ Sol: All Night Long",
			Kinds:      []string{"DanceEvent"},
			Performers: []source.Performer{{Name: "DJ Sol"}},
			Start:      iso("2026-10-24T23:00:00-03:00"),
			Venue: source.Place{
				Name: "Sol Club", Street: "Av. Corrientes 1234", Locality: "Buenos Aires", Country: "AR",
				Lat: -34.6037, Lon: -58.3816, HasGeo: true,
			},
			Offers: []source.Offer{{
				URL: "https://solclub.example/tickets", PriceMin: 15, PriceMax: 30, HasPrice: true,
				Currency: "ARS", Availability: "limited",
			}},
		}},
	},
	{
		File: "itemlist.good.html",
		Events: []source.Event{
			{
				Ref:   "https://petitbain.example/agenda/simon-garfunkel-tribute",
				Line:  14,
				Title: "Simon & Garfunkel Tribute",
				Kinds: []string{"MusicEvent"},
				Start: iso("2026-09-18T20:00:00+02:00"),
				Venue: source.Place{Name: "Le Petit Bain", Locality: "Paris", Country: "FR"},
				Offers: []source.Offer{
					{URL: "https://petitbain.example/billets/sgt", PriceMin: 20, PriceMax: 20, HasPrice: true, Currency: "EUR", Availability: "in_stock"},
					{URL: "https://petitbain.example/billets/sgt?assis", PriceMin: 35.5, PriceMax: 35.5, HasPrice: true, Currency: "EUR", Availability: "sold_out"},
				},
			},
			{
				Ref:   "https://venue.example/itemlist.good.html#2",
				Line:  36,
				Title: "Café Olé presents: Rock 'n' Roll Night",
				Kinds: []string{"MusicEvent"},
				Performers: []source.Performer{
					{Name: "Les Frères Jumeaux"},
					{Name: "Sigur Rós Cover Band"},
				},
				Start: iso("2026-09-19T21:00:00+02:00"),
				Venue: petitBain,
			},
		},
	},
	{
		File: "statuses.good.html",
		Events: []source.Event{
			{
				Ref: "https://venue.example/statuses.good.html#1", Line: 7, Title: "Cancelled Show",
				Kinds:  []string{"MusicEvent"},
				Status: engine.StatusCancelled, Start: iso("2026-03-14T19:30:00+05:30"),
			},
			{
				Ref: "https://venue.example/statuses.good.html#2", Line: 10, Title: "Postponed Show",
				Kinds:  []string{"MusicEvent"},
				Status: engine.StatusPostponed, Start: iso("2026-04-02"), PreviousStart: iso("2026-03-20T20:00:00+05:45"),
			},
			{
				Ref: "https://venue.example/statuses.good.html#3", Line: 14, Title: "Rescheduled Show",
				Kinds:  []string{"MusicEvent"},
				Status: engine.StatusRescheduled, Start: iso("2026-05-09T20:00:00-02:30"), PreviousStart: iso("2026-05-02T20:00:00-02:30"),
			},
			{
				Ref: "https://venue.example/statuses.good.html#4", Line: 18, Title: "Streamed Show",
				Kinds:  []string{"MusicEvent"},
				Status: engine.StatusScheduled, Start: iso("2026-06-01T18:00:00Z"),
			},
			{
				Ref: "https://venue.example/statuses.good.html#5", Line: 21, Title: "Canceled Show",
				Kinds:  []string{"MusicEvent"},
				Status: engine.StatusCancelled, Start: iso("2026-06-02T20:00"),
			},
			{
				Ref: "https://venue.example/statuses.good.html#6", Line: 24, Title: "Plain Show",
				Kinds:  []string{"MusicEvent"},
				Status: engine.StatusScheduled, Start: iso("2026-06-03T20:00:00"),
			},
			{
				Ref: "https://venue.example/statuses.good.html#7", Line: 27, Title: "Unknown Status Show",
				Kinds: []string{"MusicEvent"},
				Start: iso("2026-06-04T20:00:00"),
			},
		},
	},
	{
		File: "script-tags.good.html",
		Events: []source.Event{
			{Ref: "https://venue.example/script-tags.good.html#1", Line: 5, Title: "Upper Case Tag", Start: iso("2026-07-01T20:00:00+02:00"), Kinds: []string{"MusicEvent"}},
			{Ref: "https://venue.example/script-tags.good.html#2", Line: 7, Title: "Single Quotes And Charset", Start: iso("2026-07-02T20:00:00+02:00"), Kinds: []string{"MusicEvent"}},
			{Ref: "https://venue.example/script-tags.good.html#3", Line: 9, Title: "Unquoted Type", Start: iso("2026-07-03T20:00:00+02:00"), Kinds: []string{"MusicEvent"}},
			{Ref: "https://venue.example/script-tags.good.html#4", Line: 14, Title: "Comment Wrapped", Start: iso("2026-07-04T20:00:00+02:00"), Kinds: []string{"MusicEvent"}},
			{Ref: "https://venue.example/script-tags.good.html#5", Line: 19, Title: "Line Comment CDATA", Start: iso("2026-07-05T20:00:00+02:00"), Kinds: []string{"MusicEvent"}},
			{Ref: "https://venue.example/script-tags.good.html#6", Line: 22, Title: "Block Comment CDATA", Start: iso("2026-07-06T20:00:00+02:00"), Kinds: []string{"MusicEvent"}},
			{Ref: "https://venue.example/script-tags.good.html#7", Line: 29, Title: "First Type Wins", Start: iso("2026-07-11T20:00:00+02:00"), Kinds: []string{"MusicEvent"}},
		},
	},
	{
		File: "repaired.good.html",
		Events: []source.Event{
			{
				Ref:        "https://venue.example/repaired.good.html#1",
				Line:       5,
				Title:      "Late Show",
				Kinds:      []string{"MusicEvent"},
				Performers: []source.Performer{{Name: "Velvet Static"}, {Name: "Night Tram"}},
				Start:      iso("2026-08-14T22:00:00+02:00"),
				Venue:      source.Place{Name: "Keller"},
			},
			{
				Ref:    "https://venue.example/repaired.good.html#2",
				Line:   24,
				Title:  "After Hours",
				Kinds:  []string{"MusicEvent"},
				Start:  iso("2026-08-15T02:00:00+02:00"),
				Offers: []source.Offer{{PriceMin: 12, PriceMax: 12, HasPrice: true, Currency: "EUR"}},
			},
		},
	},
	{
		File: "mixed-blocks.bad.html",
		Events: []source.Event{
			{Ref: "https://venue.example/mixed-blocks.bad.html#1", Line: 6, Title: "First Good", Start: iso("2026-02-06T20:00:00+01:00"), Kinds: []string{"MusicEvent"}},
			{Ref: "https://venue.example/mixed-blocks.bad.html#2", Line: 18, Title: "Second Good", Start: iso("2026-02-08T20:00:00+01:00"), Kinds: []string{"MusicEvent"}},
			{Ref: "https://venue.example/mixed-blocks.bad.html#3", Line: 19, Title: "Concatenated", Start: iso("2026-02-09T20:00:00+01:00"), Kinds: []string{"MusicEvent"}},
		},
		Drops: []schemaorgtest.Drop{
			{Line: 8, Reason: "invalid json-ld: line 14: invalid character '\"' after object key:value pair"},
			{Line: 17, Reason: "invalid json-ld: line 19: invalid character ';'"},
			{Line: 21, Reason: "invalid json-ld: line 22: unexpected EOF"},
		},
	},
	{
		File: "missing-fields.bad.html",
		Events: []source.Event{
			{
				Ref:    "https://venue.example/missing-fields.bad.html#1",
				Line:   7,
				Title:  "Kept",
				Kinds:  []string{"MusicEvent"},
				Start:  iso("2026-01-10T20:00:00+01:00"),
				Venue:  source.Place{Name: "Halle"},
				Offers: []source.Offer{{PriceMin: 12.5, PriceMax: 12.5, HasPrice: true, Currency: "EUR"}},
			},
			{
				Ref:   "https://venue.example/missing-fields.bad.html#7",
				Line:  17,
				Title: "Geo At Null Island",
				Kinds: []string{"Event"},
				Start: iso("2026-01-12"),
				Venue: source.Place{Name: "Somewhere"},
			},
		},
		Drops: []schemaorgtest.Drop{
			{Line: 11, Reason: `event "https://venue.example/e/nameless": missing name`},
			{Line: 12, Reason: `event "No Date": missing startDate`},
			{Line: 13, Reason: `event "Bad Date": cannot parse startDate "next friday": cannot parse date "next friday": want YYYY-MM-DD`},
			{Line: 14, Reason: `event "Bad Month": cannot parse startDate "2026-13-01T20:00:00": cannot parse date "2026-13-01T20:00:00": want YYYY-MM-DD`},
			{Line: 15, Reason: `event #6: missing name; missing startDate`},
		},
	},
}

func TestParseFixtures(t *testing.T) {
	schemaorgtest.RunFixtures(t, fixtureDir, Parse, fixtures)
}

func TestScripts(t *testing.T) {
	tests := []struct {
		name string
		page string
		want []string // block contents with white space trimmed, and the tag's line first
	}{
		{"none", `<html><script>var a = 1;</script></html>`, nil},
		{"plain", "<p>\n<script type=\"application/ld+json\">{}</script>", []string{"2 {}"}},
		{"mixed case", `<ScRiPt TyPe="APPLICATION/LD+JSON">[]</sCrIpT>`, []string{"1 []"}},
		{"type after other attributes", `<script async id='x' nonce="n" type='application/ld+json'>1</script>`, []string{"1 1"}},
		{"type with parameters", `<script type="application/ld+json ; charset=utf-8">1</script>`, []string{"1 1"}},
		{"space around equals", "<script\ntype\n=\n\"application/ld+json\"\n>1</script>", []string{"1 1"}},
		{"slash before attributes", `<script/type=application/ld+json>1</script>`, []string{"1 1"}},
		{"other type", `<script type="text/javascript">1</script>`, nil},
		{"no type", `<script>1</script>`, nil},
		{"not a script tag", `<scripts type="application/ld+json">1</scripts>`, nil},
		{"no end tag runs to the end", `<script type="application/ld+json">{"a":1}`, []string{`1 {"a":1}`}},
		{"unterminated tag", `<script type="application/ld+json"`, nil},
		{"unterminated quote", `<script type="application/ld+json>1</script>`, nil},
		{"inside a comment", `<!-- <script type="application/ld+json">1</script> -->`, nil},
		{"after an empty comment", `<!--><script type="application/ld+json">1</script>`, []string{"1 1"}},
		{"unterminated comment", `<!-- <script type="application/ld+json">1</script>`, nil},
		{"inside another script", `<script>"<script type='application/ld+json'>1</script>`, nil},
		{"two blocks", "<script type=application/ld+json>1</script>\n\n<script type=application/ld+json>2</script>", []string{"1 1", "3 2"}},
		{"wrapped", "<script type=application/ld+json>\n<!--//--><![CDATA[//><!--\n{}\n//--><!]]>\n</script>", []string{"1 {}"}},
		// The script data states of HTML: a "</script" closing a "<script" inside "<!--" is
		// text (Harlem Jazz Club's EventON page: WordPress's video shim in a description).
		{"a script in a comment in the block", `<script type=application/ld+json>{"d":"<!--[if lt IE 9]><script>document.createElement('video');</script><![endif]--> x"}</script><p>`,
			[]string{`1 {"d":"<!--[if lt IE 9]><script>document.createElement('video');</script><![endif]--> x"}`}},
		{"a comment alone hides no end tag", `<script type=application/ld+json>{"d":"<!-- x"}</script><script type=application/ld+json>2</script>`, []string{`1 {"d":"<!-- x"}`, "1 2"}},
		{"a script outside a comment is no double escape", `<script type=application/ld+json>{"d":"<script>"}</script>`, []string{`1 {"d":"<script>"}`}},
		{"an end tag's name ends", `<script type=application/ld+json>{"d":"</scripts>"}</script>`, []string{`1 {"d":"</scripts>"}`}},
		{"an empty comment escapes nothing", `<script type=application/ld+json>{"d":"<!--><script>"}</script>`, []string{`1 {"d":"<!--><script>"}`}},
	}
	for _, tt := range tests {
		var got []string
		for _, b := range scripts([]byte(tt.page)) {
			got = append(got, fmt.Sprintf("%d %s", b.line, bytes.TrimSpace(b.text)))
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: scripts(%q) = %q, want %q", tt.name, tt.page, got, tt.want)
		}
	}
}

func TestUnwrap(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a":1}`, `{"a":1}`},
		{"<!--\n{}\n-->", "    \n{}\n   "},
		{"//<![CDATA[\n{}\n//]]>", "           \n{}\n     "},
		{"/*<![CDATA[*/{}/*]]>*/", "             {}       "},
		{"<![CDATA[{}]]>", "         {}   "},
		{"{\"a\":\"//\"}\n//", "{\"a\":\"//\"}\n  "},
		{"{\"a\":\"x\n// z\"}", "{\"a\":\"x\n// z\"}"}, // a last line that may end the JSON stays
		{"<!--//--><![CDATA[//><!--\n{}\n//--><!]]>", "                         \n{}\n          "},
		{"/* unterminated", "               "},
	}
	for _, tt := range tests {
		b := []byte(tt.in)
		unwrap(b)
		if string(b) != tt.want {
			t.Errorf("unwrap(%q) = %q, want %q", tt.in, b, tt.want)
		}
	}
}

func TestRepair(t *testing.T) {
	tests := []struct {
		in, want string
		changed  bool
	}{
		{`{"a":[1,2]}`, `{"a":[1,2]}`, false},
		{`{"a":[1,2,],}`, `{"a":[1,2 ] }`, true},
		{"{\"a\":1,\n\t}", "{\"a\":1 \n\t}", true},
		{"{\"a\":\"x\ny\tz\"}", `{"a":"x y z"}`, true},
		{`{"a":",]","b":"\",}"}`, `{"a":",]","b":"\",}"}`, false}, // commas inside strings stay
		{"\uFEFF{}", "   {}", true},
		{"{\"a\":\"\uFEFF\"}", "{\"a\":\"\uFEFF\"}", false},
		{`{"a":"\\",}`, `{"a":"\\" }`, true},
	}
	for _, tt := range tests {
		b := []byte(tt.in)
		changed := repair(b)
		if string(b) != tt.want || changed != tt.changed {
			t.Errorf("repair(%q) = %q, %v; want %q, %v", tt.in, b, changed, tt.want, tt.changed)
		}
	}
}

func TestText(t *testing.T) {
	long := strings.Repeat("a", schemaorg.MaxText-1) + "é" // the é would end one byte past the cap
	tests := []struct {
		in   any
		want string
	}{
		{"  Night\n\t Owls  ", "Night Owls"},
		{"Simon &amp; Garfunkel", "Simon & Garfunkel"},
		{"Mot&ouml;rhead&nbsp;Tribute", "Motörhead Tribute"},
		{"Bell\x07 \x00Band", "Bell Band"},
		{"bad \xff utf-8", "bad \uFFFD utf-8"},
		{"&#0;", "\uFFFD"},
		{long, strings.Repeat("a", schemaorg.MaxText-1)},
		{strings.Repeat("a ", schemaorg.MaxText), strings.TrimSpace(strings.Repeat("a ", schemaorg.MaxText/2))},
		{[]any{"", "second"}, "second"},
		{&object{keys: []string{"@value", "@language"}, vals: []any{"Nuit", "fr"}}, "Nuit"},
		{json1975, "1975"},
		{true, ""},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := text(tt.in); got != tt.want {
			t.Errorf("text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPrice(t *testing.T) {
	tests := []struct {
		in   any
		want float64
		ok   bool
	}{
		{json25, 25, true},
		{"25", 25, true},
		{"25.00", 25, true},
		{"€25", 25, true},
		{"25 €", 25, true},
		{"EUR 1,234.50", 1234.5, true},
		{"1.234,50 €", 1234.5, true},
		{"25,50", 25.5, true},
		{"25,5", 25.5, true},
		{"1,234", 1234, true},
		{"1.234.567", 1234567, true},
		{"25,-", 25, true},
		{"from $19.99", 19.99, true},
		{"Free", 0, true},
		{"0", 0, true},
		{"-5", 0, false},
		{"−5 €", 0, false},
		{"25 - 30", 0, false},
		{"TBA", 0, false},
		{"", 0, false},
		{"NaN", 0, false},
		{jsonNegative, 0, false},
		{jsonHuge, 0, false},
		{true, 0, false},
	}
	for _, tt := range tests {
		got, ok := price(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("price(%v) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestCoord(t *testing.T) {
	tests := []struct {
		in    any
		limit float64
		want  float64
		ok    bool
	}{
		{json25, 90, 25, true},
		{" 52.52 ", 90, 52.52, true},
		{"52,52", 90, 52.52, true},
		{"-34.6", 90, -34.6, true},
		{"91", 90, 0, false},
		{"-180", 180, -180, true},
		{"NaN", 90, 0, false},
		{"Inf", 180, 0, false},
		{"north", 90, 0, false},
		{nil, 90, 0, false},
	}
	for _, tt := range tests {
		got, ok := coord(tt.in, tt.limit)
		if got != tt.want || ok != tt.ok {
			t.Errorf("coord(%v, %v) = %v, %v; want %v, %v", tt.in, tt.limit, got, ok, tt.want, tt.ok)
		}
	}
}

func TestLink(t *testing.T) {
	tests := []struct {
		base, in, want string
	}{
		{"https://venue.example/events/", "https://tickets.example/x?a=1&amp;b=2", "https://tickets.example/x?a=1&b=2"},
		{"https://venue.example/events/", "/tickets/1", "https://venue.example/tickets/1"},
		{"https://venue.example/events/", "2026-12-05", "https://venue.example/events/2026-12-05"},
		{"https://venue.example/events/", " HTTP://Venue.example/a ", "http://Venue.example/a"},
		{"https://venue.example/events/", "javascript:alert(1)", ""},
		{"https://venue.example/events/", "mailto:box@venue.example", ""},
		{"https://venue.example/events/", "https://" + strings.Repeat("a", schemaorg.MaxLink), ""},
		{"https://venue.example/events/", "", ""},
		{"page.html", "/tickets/1", ""},
		{"page.html", "https://tickets.example/1", "https://tickets.example/1"},
	}
	for _, tt := range tests {
		if got := newParser(tt.base).link(tt.in); got != tt.want {
			t.Errorf("link(%q) on %q = %q, want %q", tt.in, tt.base, got, tt.want)
		}
	}
}

func TestEventTypes(t *testing.T) {
	tests := []struct {
		typ  string
		want bool
	}{
		{`"MusicEvent"`, true},
		{`"Festival"`, true},
		{`"ComedyEvent"`, true},
		{`"http://schema.org/MusicEvent"`, true},
		{`"https://schema.org/TheaterEvent"`, true},
		{`"schema:SocialEvent"`, true},
		{`["Thing", "DanceEvent"]`, true},
		{`"EventSeries"`, false},
		{`"Place"`, false},
		{`["Organization", "Person"]`, false},
		{`42`, false},
		{`"PerformingArtsEvent"`, true}, // Artsdata.ca, schema.org's example #eg-4468
	}
	for _, tt := range tests {
		page := `<script type="application/ld+json">{"@type":` + tt.typ + `,"name":"N","startDate":"2026-01-01"}</script>`
		events, drops := Parse([]byte(page), "p")
		if got := len(events) == 1; got != tt.want || len(drops) > 0 {
			t.Errorf("@type %s: %d events, drops %+v; want an event: %v", tt.typ, len(events), drops, tt.want)
		}
	}
}

// TestAliases: schema.org's context makes "type" and "id" aliases of "@type" and "@id";
// schema.org's example #eg-4468 (an Artsdata.ca record) writes them so, nested too.
func TestAliases(t *testing.T) {
	page := `<script type="application/ld+json">{"@context":"http://schema.org","type":"PerformingArtsEvent",
"id":"http://kg.artsdata.ca/resource/K43-1500","name":"Gravity and Other Myths","startDate":"2026-04-28T19:00:00-04:00",
"location":{"type":"Place","name":"Salle Desjardins","address":{"type":"PostalAddress","addressLocality":"Saint-Hyacinthe","addressCountry":"CA"}},
"performer":{"type":"Organization","name":"Gravity and Other Myths"}}
{"@type":"MusicEvent","type":"not a keyword here","name":"Keyword wins","startDate":"2026-01-01"}</script>`
	events, drops := Parse([]byte(page), "https://example.com/page")
	if len(events) != 2 || len(drops) > 0 {
		t.Fatalf("%d events, drops %+v; want 2", len(events), drops)
	}
	e := events[0]
	if e.Ref != "http://kg.artsdata.ca/resource/K43-1500" || e.Venue.Locality != "Saint-Hyacinthe" || len(e.Performers) != 1 {
		t.Errorf("ref %q, venue %+v, performers %+v", e.Ref, e.Venue, e.Performers)
	}
	if events[1].Title != "Keyword wins" {
		t.Errorf("second event %q", events[1].Title)
	}
}

// TestPlaceShapes reads locations as venues' pages write them: a Drupal module of the
// Domaine d'O (Montpellier) writes the address's properties with an "@" before them
// (testdata/real/pages/domainedo-montpellier-structured-data.html), keywords keeping their
// meaning and a member written both ways the one without "@"; a location typed
// PostalAddress (schema.org allows it); a Place whose address is text with the address's
// other properties on the place itself.
func TestPlaceShapes(t *testing.T) {
	tests := []struct {
		name, location string
		want           source.Place
	}{
		{"properties with @", `{"@type":"Place","name":"Domaine d'O","address":{"@type":"PostalAddress","@streetAddress":"178, rue de la Carrière","@addressLocality":"Montpellier","@postalCode":"34090"}}`,
			source.Place{Name: "Domaine d'O", Street: "178, rue de la Carrière", Locality: "Montpellier", PostalCode: "34090"}},
		{"both ways: the property's own name", `{"@type":"Place","name":"Domaine d'O","address":{"@addressLocality":"Nîmes","addressLocality":"Montpellier"}}`,
			source.Place{Name: "Domaine d'O", Locality: "Montpellier"}},
		{"no such property", `{"@type":"Place","name":"Domaine d'O","address":{"@addressTown":"Montpellier","addressCountry":"FR"}}`,
			source.Place{Name: "Domaine d'O", Country: "FR"}},
		{"a PostalAddress as the location", `{"@type":"PostalAddress","name":"Inkonst","addressLocality":"Malmö","addressCountry":"SE"}`,
			source.Place{Name: "Inkonst", Locality: "Malmö", Country: "SE"}},
		{"a text address and a town on the place", `{"@type":"Place","name":"Hall","address":"Storgatan 1","addressLocality":"Rävlanda"}`,
			source.Place{Name: "Hall", Street: "Storgatan 1", Locality: "Rävlanda"}},
		{"an address object wins", `{"@type":"Place","name":"Hall","addressLocality":"Nowhere","address":{"addressLocality":"Rävlanda"}}`,
			source.Place{Name: "Hall", Locality: "Rävlanda"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := `<script type="application/ld+json">{"@context":"http://schema.org","@type":"MusicEvent","name":"Concert",
"startDate":"2020-02-26T19:00:00","location":` + tt.location + `}</script>`
			events, drops := Parse([]byte(page), "https://example.com/page")
			if len(events) != 1 || len(drops) > 0 {
				t.Fatalf("%d events, drops %+v; want 1", len(events), drops)
			}
			if got := events[0].Venue; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("venue %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestTypeNamesAreNoPerformers: The Events Calendar (WordPress) writes the type a performer
// should have, "performer":"Organization", on every event (pages of djz.de and
// wildundhund.de in adbar/htmldate's tests/eval).
func TestTypeNamesAreNoPerformers(t *testing.T) {
	for _, tc := range []struct {
		performer string
		want      []string
	}{
		{`"Organization"`, nil},
		{`"schema:Person"`, nil},
		{`["MusicGroup", "Wet Leg"]`, []string{"Wet Leg"}},
		{`"Organization Man"`, []string{"Organization Man"}},
		{`{"@type":"Organization","name":"Organization X"}`, []string{"Organization X"}},
	} {
		page := `<script type="application/ld+json">{"@type":"Event","name":"N","startDate":"2026-01-01","performer":` + tc.performer + `}</script>`
		events, _ := Parse([]byte(page), "p")
		var got []string
		for _, p := range events[0].Performers {
			got = append(got, p.Name)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("performer %s: %q, want %q", tc.performer, got, tc.want)
		}
	}
}

func TestShapes(t *testing.T) {
	const ev = `{"@type":"MusicEvent","name":"%s","startDate":"2026-01-01"}`
	tests := []struct {
		name, json string
		want       []string // titles
	}{
		{"place with events", `{"@type":"MusicVenue","name":"Hall","event":[` + fmt.Sprintf(ev, "A") + `,` + fmt.Sprintf(ev, "B") + `]}`, []string{"A", "B"}},
		{"organization", `{"@type":"Organization","event":` + fmt.Sprintf(ev, "A") + `}`, []string{"A"}},
		// schema.org's example of a band's page (#eg-0009): its shows have no name.
		{"an act's shows", `{"@type":"MusicGroup","name":"Foo Fighters","event":[{"@type":"Event","location":"Memphis, TN, US","startDate":"2011-05-20"},` +
			fmt.Sprintf(ev, "A") + `]}`, []string{"Foo Fighters", "A"}},
		{"an act inside an organization", `{"@type":"Organization","name":"Label","member":{"@type":["Person"],"name":"Solo","event":{"@type":"Event","startDate":"2026-01-01"}},"event":{"@type":"Event","name":"Own","startDate":"2026-01-01"}}`,
			[]string{"Solo", "Own"}},
		{"values beside", `"text" 42 null ` + fmt.Sprintf(ev, "A") + ` [true]`, []string{"A"}},
		{"reference only", `{"@type":"ItemList","itemListElement":[{"@type":"ListItem","item":{"@id":"https://x/e"}}]}`, nil},
		{"empty", ``, nil},
	}
	for _, tt := range tests {
		events, drops := Parse([]byte(`<script type="application/ld+json">`+tt.json+`</script>`), "p")
		var got []string
		for _, e := range events {
			got = append(got, e.Title)
		}
		if !reflect.DeepEqual(got, tt.want) || len(drops) > 0 {
			t.Errorf("%s: got %q, drops %+v; want %q", tt.name, got, drops, tt.want)
		}
		for _, e := range events {
			if strings.HasPrefix(tt.name, "an act") && e.Title != "Own" && (len(e.Performers) != 1 || e.Performers[0].Name == "") {
				t.Errorf("%s: %q is played by %+v, want the act", tt.name, e.Title, e.Performers)
			}
		}
	}
}

func TestLimits(t *testing.T) {
	event := `{"@type":"MusicEvent","name":"N","startDate":"2026-01-01"}`

	t.Run("depth", func(t *testing.T) {
		// An event at the deepest level read, and one nested a level deeper.
		shallow := strings.Repeat(`{"a":`, maxDepth-1) + event + strings.Repeat("}", maxDepth-1)
		deep := strings.Repeat(`[`, maxDepth) + event + strings.Repeat("]", maxDepth)
		page := "<script type=application/ld+json>" + shallow + "</script>\n" +
			"<script type=application/ld+json>" + deep + "</script>"
		events, drops := Parse([]byte(page), "p")
		if len(events) != 1 || events[0].Line != 1 {
			t.Errorf("got events %+v, want the shallow one", events)
		}
		want := []source.Drop{{Ref: "p", Line: 2, Reason: "json-ld nested deeper than 32 levels: the deeper values are ignored"}}
		if !reflect.DeepEqual(drops, want) {
			t.Errorf("drops = %+v, want %+v", drops, want)
		}
	})

	schemaorgtest.CheckLimits(t, Parse, schemaorgtest.LimitPages{
		Events: func(n int) string {
			return "<script type=application/ld+json>[" + strings.Repeat(event+",", n-1) + "\n" + event + "]</script>"
		},
		Long: func(s string) string {
			return `<script type=application/ld+json>[{"@type":"MusicEvent","@id":"` + s + `","name":"` + s + `","startDate":"` + s + `"}]</script>`
		},
	})
}

func TestReferences(t *testing.T) {
	t.Run("shared nodes", func(t *testing.T) {
		page := `<script type="application/ld+json">{"@graph":[
			{"@type":"MusicEvent","name":"One","startDate":"2026-01-01","location":{"@id":"#v"},"performer":[{"@id":"#p"}],"offers":{"@id":"#o"}},
			{"@type":"MusicEvent","name":"Two","startDate":"2026-01-02","location":{"@id":"#v"},"performer":[{"@id":"#p"}],"offers":[{"@id":"#o"},{"@id":"#missing"}]},
			{"@id":"#v","@type":"Place","name":"Hall"},
			{"@id":"#p","@type":"MusicGroup","name":"Band","genre":["rock","pop"]},
			{"@id":"#o","@type":"AggregateOffer","priceCurrency":"EUR","lowPrice":5,"offers":[{"@id":"#o"},{"price":"7"}]}
		]}</script>`
		events, drops := Parse([]byte(page), "p")
		schemaorgtest.CheckShared(t, events, drops, source.Event{
			Ref: "p#1", Line: 2, Title: "One", Start: iso("2026-01-01"),
			Venue:      source.Place{Name: "Hall"},
			Performers: []source.Performer{{Name: "Band", Genres: []string{"rock", "pop"}}},
			Offers:     []source.Offer{{PriceMin: 7, PriceMax: 7, HasPrice: true, Currency: "EUR"}},
			Kinds:      []string{"MusicEvent"},
		})
	})

	t.Run("many references", func(t *testing.T) {
		var page strings.Builder
		page.WriteString(`<script type="application/ld+json">[{"@id":"#o","offers":[`)
		page.WriteString(strings.Repeat(`{"price":1},`, 1000))
		page.WriteString(`{"price":2}]},{"@id":"#p","name":"P","genre":[`)
		page.WriteString(strings.Repeat(`"g",`, 1000))
		page.WriteString(`"h"]}`)
		for range 5000 {
			page.WriteString(`,{"@type":"Event","name":"N","startDate":"2026-01-01","offers":{"@id":"#o"},"performer":{"@id":"#p"}}`)
		}
		page.WriteString(`]</script>`)
		events, _ := Parse([]byte(page.String()), "p")
		if len(events) != 5000 {
			t.Fatalf("got %d events, want 5000", len(events))
		}
		for _, e := range events {
			if len(e.Offers) != schemaorg.MaxOffers || len(e.Performers) != 1 || len(e.Performers[0].Genres) != schemaorg.MaxGenres {
				t.Fatalf("got %d offers and performers %d, want %d offers and one performer with %d genres",
					len(e.Offers), len(e.Performers), schemaorg.MaxOffers, schemaorg.MaxGenres)
			}
		}
	})
}

func BenchmarkParse(b *testing.B) {
	schemaorgtest.Benchmark(b, fixtureDir, Parse)
}

func TestRepairRealBreakage(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"stray quote after a comma", "{\"price\": \"42.24\",\"\n  \"priceCurrency\": \"CAD\"}", "{\"price\": \"42.24\", \n  \"priceCurrency\": \"CAD\"}"},
		{"backslash before a control character", "{\"name\": \"Pixies\\\x08\", \"x\": 1}", "{\"name\": \"Pixies  \", \"x\": 1}"},
		{"backslash escaping nothing", `{"name": "AC\DC"}`, `{"name": "AC DC"}`},
		{"good escapes stay", `{"name": "a\"b\\c\u00e9", "x": [1,]}`, `{"name": "a\"b\\c\u00e9", "x": [1 ]}`},
	} {
		b := []byte(c.in)
		repair(b)
		if string(b) != c.want {
			t.Errorf("%s: repair gave %q, want %q", c.name, b, c.want)
		}
		if !json.Valid(b) {
			t.Errorf("%s: %q is still not JSON", c.name, b)
		}
	}
}

// TestAddressOnLines checks an address given as text on several lines (a Squarespace
// venue's page): its lines stay apart, as commas part them.
func TestAddressOnLines(t *testing.T) {
	for _, c := range []struct{ name, address, want string }{
		{"lines", `"2 Greenland Place\nLondon, England, NW1\nUnited Kingdom"`, "2 Greenland Place, London, England, NW1, United Kingdom"},
		{"CRLF and a blank line", `"1 Road\r\n\r\nOslo"`, "1 Road, Oslo"},
		{"one line", `"1 Road, Oslo, Norway"`, "1 Road, Oslo, Norway"},
	} {
		page := `<script type="application/ld+json">{"@type":"MusicEvent","name":"X","startDate":"2026-12-01T20:00","location":{"@type":"Place","name":"Hall","address":` + c.address + `}}</script>`
		events, _ := Parse([]byte(page), "https://venue.example/")
		if len(events) != 1 || events[0].Venue.Street != c.want {
			t.Errorf("%s: %+v, want street %q", c.name, events, c.want)
		}
	}
}

func TestVenueNamedByItsURL(t *testing.T) {
	for _, c := range []struct{ name, location, want string }{
		{"a url as the location", `"https://v.example/venues/the-lexington"`, "The Lexington"},
		{"a place with a url only", `{"@type":"Place","url":"https://www.thegarage.london/"}`, "thegarage.london"},
		{"a plain name stays", `"The Garage, London"`, "The Garage, London"},
	} {
		page := `<script type="application/ld+json">{"@type":"MusicEvent","name":"X","startDate":"2026-12-01T20:00","location":` + c.location + `}</script>`
		events, drops := Parse([]byte(page), "https://venue.example/")
		if len(events) != 1 || len(drops) != 0 {
			t.Fatalf("%s: %d events, drops %+v", c.name, len(events), drops)
		}
		if got := events[0].Venue.Name; got != c.want {
			t.Errorf("%s: venue %q, want %q", c.name, got, c.want)
		}
	}
}

func TestImageOnSaleAndAge(t *testing.T) {
	page := `<script type="application/ld+json">{"@type":"MusicEvent","name":"X","startDate":"2026-12-01T20:00",
		"image":[{"@type":"ImageObject","url":"/img/x.jpg"},"https://cdn.example/x2.jpg"],"typicalAgeRange":"18+",
		"offers":{"@type":"Offer","url":"/t","validFrom":"2026-09-01T10:00:00+01:00"}}</script>`
	events, drops := Parse([]byte(page), "https://venue.example/")
	if len(events) != 1 || len(drops) != 0 {
		t.Fatalf("%d events, drops %+v", len(events), drops)
	}
	e := events[0]
	if e.Image != "https://venue.example/img/x.jpg" || e.MinAge != 18 || !e.HasMinAge || e.OnSale != iso("2026-09-01T10:00:00+01:00") {
		t.Errorf("image %q, age %d %v, on sale %+v", e.Image, e.MinAge, e.HasMinAge, e.OnSale)
	}
}
