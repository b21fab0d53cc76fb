package schemaorg

import (
	"math"
	"strings"
	"testing"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/source"
)

// iso is source.ParseISO for values known to be valid.
func iso(s string) source.When {
	w, err := source.ParseISO(s)
	if err != nil {
		panic(err)
	}
	return w
}

func TestTerms(t *testing.T) {
	tests := []struct {
		in     string
		term   string
		status engine.Status
		avail  string
	}{
		{"https://schema.org/EventCancelled", "eventcancelled", engine.StatusCancelled, ""},
		{" http://schema.org/EventPostponed\n", "eventpostponed", engine.StatusPostponed, ""},
		{"schema:EventRescheduled", "eventrescheduled", engine.StatusRescheduled, ""},
		{"EventScheduled", "eventscheduled", engine.StatusScheduled, ""},
		{"EventMovedOnline", "eventmovedonline", engine.StatusScheduled, ""},
		{"Canceled", "canceled", engine.StatusCancelled, ""},
		{"https://schema.org/SoldOut", "soldout", "", "sold_out"},
		{"http://schema.org/InStock", "instock", "", "in_stock"},
		{"OutOfStock", "outofstock", "", "sold_out"},
		{"schema:LimitedAvailability", "limitedavailability", "", "limited"},
		{"https://schema.org/PreSale", "presale", "", "pre_order"},
		{"https://schema.org/", "", "", ""},
		{"", "", "", ""},
	}
	for _, tt := range tests {
		if got := Term(tt.in); got != tt.term {
			t.Errorf("Term(%q) = %q, want %q", tt.in, got, tt.term)
		}
		if got := Status(tt.in); got != tt.status {
			t.Errorf("Status(%q) = %q, want %q", tt.in, got, tt.status)
		}
		if got := Availability(tt.in); got != tt.avail {
			t.Errorf("Availability(%q) = %q, want %q", tt.in, got, tt.avail)
		}
	}
}

func TestIsEventType(t *testing.T) {
	for term, want := range map[string]bool{
		"musicevent": true, "event": true, "festival": true, "MusicEvent": false,
		"eventseries": false, "place": false, "": false,
	} {
		if got := IsEventType(term); got != want {
			t.Errorf("IsEventType(%q) = %v, want %v", term, got, want)
		}
	}
}

func TestTextBuilder(t *testing.T) {
	tests := []struct {
		limit  int
		pieces []string
		want   string
	}{
		{0, []string{"  Night", "\n", "Owls  "}, "Night Owls"},
		{0, []string{"Night", "Owls"}, "NightOwls"},
		{0, []string{"a\u00a0", "\u200b\x00b"}, "a \u200bb"},
		{0, []string{"\uFEFF", " x "}, "x"},
		{5, []string{"ab", " cd", "ef"}, "ab cd"},
		{5, []string{"abcd", "é"}, "abcd"},
		{0, []string{"bad \xff"}, "bad \uFFFD"},
	}
	for _, tt := range tests {
		b := TextBuilder{Limit: tt.limit}
		for _, p := range tt.pieces {
			b.WriteString(p)
		}
		if got := b.String(); got != tt.want {
			t.Errorf("TextBuilder{%d} of %q = %q, want %q", tt.limit, tt.pieces, got, tt.want)
		}
	}
	var b TextBuilder
	if !b.WriteString(strings.Repeat("x", MaxText)) || b.WriteString("y") || b.WriteString("z") {
		t.Error("WriteString does not report a full builder")
	}
	if got := Text(" a\t\tb "); got != "a b" {
		t.Errorf("Text = %q", got)
	}
}

func TestTokenClip(t *testing.T) {
	if got := Token(" \x00 2026-12-05\r\n"); got != "2026-12-05" {
		t.Errorf("Token = %q", got)
	}
	if got := Token("a \xff b"); got != "a \uFFFD b" {
		t.Errorf("Token = %q", got)
	}
	if got := Clip("abcdé", 5); got != "abcd…" {
		t.Errorf("Clip = %q", got)
	}
	if got := Clip("abc", 5); got != "abc" {
		t.Errorf("Clip = %q", got)
	}
}

func TestNumbers(t *testing.T) {
	prices := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"£25", 25, true},
		{"25,50", 25.5, true},
		{" FREE ", 0, true},
		{"CHF 1'000", 0, false},
		{"from 10 to 20", 0, false},
	}
	for _, tt := range prices {
		if got, ok := Price(tt.in); got != tt.want || ok != tt.ok {
			t.Errorf("Price(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	for in, ok := range map[string]bool{"12.5": true, "-0": true, "-1": false, "1e999": false, "NaN": false, "12,5": false} {
		if f, got := Amount(in); got != ok || math.Signbit(f) {
			t.Errorf("Amount(%q) = %v, %v; want ok %v", in, f, got, ok)
		}
	}
	if f, ok := Coord(" -2,5879 ", 180); !ok || f != -2.5879 {
		t.Errorf("Coord = %v, %v", f, ok)
	}
	if _, ok := Coord("91", 90); ok {
		t.Error("Coord accepts a latitude of 91")
	}
}

func TestPrices(t *testing.T) {
	given := map[string]float64{"lowPrice": 15, "highPrice": 30, "price": 20}
	lo, hi, ok := Prices(func(prop string) (float64, bool) { f, ok := given[prop]; return f, ok })
	if lo != 15 || hi != 30 || !ok {
		t.Errorf("Prices = %v, %v, %v; want 15, 30, true", lo, hi, ok)
	}
	if _, _, ok := Prices(func(string) (float64, bool) { return 0, false }); ok {
		t.Error("Prices without prices reports one")
	}
}

func TestLinks(t *testing.T) {
	base := Base("https://venue.example/events/")
	tests := []struct{ in, link, id string }{
		{"/tickets/1", "https://venue.example/tickets/1", "https://venue.example/tickets/1"},
		{"#e1", "https://venue.example/events/#e1", "https://venue.example/events/#e1"},
		{"_:b0", "", ""},
		{"mailto:box@venue.example", "", "mailto:box@venue.example"},
		{" ", "", ""},
		{"https://" + strings.Repeat("a", MaxLink), "", ""},
	}
	for _, tt := range tests {
		if got := Link(base, tt.in); got != tt.link {
			t.Errorf("Link(%q) = %q, want %q", tt.in, got, tt.link)
		}
		if got := ID(base, tt.in); got != tt.id {
			t.Errorf("ID(%q) = %q, want %q", tt.in, got, tt.id)
		}
	}
	if Base("page.html") != nil || Link(nil, "/x") != "" || ID(nil, "#e1") != "#e1" {
		t.Error("a relative ref is used as a base")
	}
}

func TestDoors(t *testing.T) {
	tests := []struct {
		doors, start string
		want         source.When
	}{
		{"19:00", "2026-12-05T20:00:00+01:00", iso("2026-12-05T19:00")},
		{"19:30:00", "2026-12-05", iso("2026-12-05T19:30:00")},
		{"19:00+01:00", "2026-12-05T20:00", iso("2026-12-05T19:00+01:00")},
		{"2026-12-05T18:45:00-05:00", "2026-12-05T20:00:00-05:00", iso("2026-12-05T18:45:00-05:00")},
		{"7pm", "2026-12-05T20:00", source.When{}},
		{"", "2026-12-05T20:00", source.When{}},
	}
	for _, tt := range tests {
		if got := Doors(tt.doors, iso(tt.start)); got != tt.want {
			t.Errorf("Doors(%q, %q) = %+v, want %+v", tt.doors, tt.start, got, tt.want)
		}
	}
}

func TestSetDates(t *testing.T) {
	tests := []struct {
		title, id string
		d         Dates
		reason    string
	}{
		{"Show", "", Dates{Start: "2026-12-05T20:00", End: "bad", Doors: "19:00", PreviousStart: "2026-12-01"}, ""},
		{"Show", "", Dates{}, `event "Show": missing startDate`},
		{"", "https://v.example/e/1", Dates{Start: "2026-12-05"}, `event "https://v.example/e/1": missing name`},
		{"", "", Dates{Start: "soon"}, `event #3: missing name; cannot parse startDate "soon": cannot parse time "soon": too short`},
		{"Show", "", Dates{Start: strings.Repeat("9", 100)}, `event "Show": cannot parse startDate "` + strings.Repeat("9", MaxQuote) + `…": too long`},
	}
	for _, tt := range tests {
		e := source.Event{Title: tt.title}
		if got := SetDates(&e, tt.d, tt.id, 3); got != tt.reason {
			t.Errorf("SetDates(%q, %+v) = %q, want %q", tt.title, tt.d, got, tt.reason)
		}
	}
	e := source.Event{Title: "Show"}
	SetDates(&e, tests[0].d, "", 1)
	if e.Start != iso("2026-12-05T20:00") || !e.End.IsZero() || e.Doors != iso("2026-12-05T19:00") || e.PreviousStart != iso("2026-12-01") {
		t.Errorf("SetDates filled %+v", e)
	}
}
