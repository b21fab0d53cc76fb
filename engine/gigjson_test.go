package engine

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// Reference model of a gig's JSON, encoded by encoding/json: the oracle for appendGig.
type refRef struct {
	Slug string `json:"slug"`
	Name string `json:"name"`
}

type refBilling struct {
	Slug      string `json:"slug"`
	Name      string `json:"name"`
	Headliner bool   `json:"headliner"`
}

type refTicket struct {
	URL          string   `json:"url"`
	Source       string   `json:"source,omitempty"`
	PriceMin     *float64 `json:"price_min,omitempty"`
	PriceMax     *float64 `json:"price_max,omitempty"`
	Currency     string   `json:"currency,omitempty"`
	Availability string   `json:"availability,omitempty"`
}

type refSource struct {
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

type refGig struct {
	ID               string       `json:"id"`
	Title            string       `json:"title"`
	Status           Status       `json:"status"`
	StartsAt         string       `json:"starts_at,omitempty"`
	EndsAt           string       `json:"ends_at,omitempty"`
	DoorsAt          string       `json:"doors_at,omitempty"`
	PreviousStartsAt string       `json:"previous_starts_at,omitempty"`
	OnSaleAt         string       `json:"on_sale_at,omitempty"`
	Date             string       `json:"date"`
	TimeTBA          bool         `json:"time_tba"`
	Timezone         string       `json:"timezone"`
	Venue            refRef       `json:"venue"`
	City             refRef       `json:"city"`
	Country          string       `json:"country"`
	MinAge           *int         `json:"min_age,omitempty"`
	ImageURL         string       `json:"image_url,omitempty"`
	Artists          []refBilling `json:"artists"`
	Genres           []string     `json:"genres"`
	Tickets          []refTicket  `json:"tickets"`
	Sources          []refSource  `json:"sources"`
	CreatedAt        string       `json:"created_at"`
	UpdatedAt        string       `json:"updated_at"`
}

func refEncode(t *testing.T, g *Gig, loc *time.Location, venue *Venue, city *City, artists map[string]*Artist, created, updated int64) []byte {
	local := func(x time.Time) string {
		if x.IsZero() {
			return ""
		}
		return x.In(loc).Truncate(time.Second).Format(offsetLayout)
	}
	v := refGig{ID: g.ID, Title: g.Title, Status: cmpOr(g.Status), EndsAt: local(g.End), DoorsAt: local(g.Doors),
		PreviousStartsAt: local(g.PreviousStart), OnSaleAt: local(g.OnSale), ImageURL: g.Image, Date: g.Start.In(loc).Format(time.DateOnly), TimeTBA: g.TimeTBA,
		Timezone: city.Timezone, Venue: refRef{venue.Slug, venue.Name}, City: refRef{city.Slug, city.Name},
		Country: city.Country, Artists: []refBilling{}, Genres: append([]string{}, g.Genres...), Tickets: []refTicket{}, Sources: []refSource{}}
	if !g.TimeTBA {
		v.StartsAt = local(g.Start)
	}
	if g.HasMinAge {
		v.MinAge = &g.MinAge
	}
	v.CreatedAt = time.Unix(created, 0).UTC().Format(time.RFC3339)
	v.UpdatedAt = time.Unix(updated, 0).UTC().Format(time.RFC3339)
	for _, a := range g.Artists {
		v.Artists = append(v.Artists, refBilling{a.Artist, artists[a.Artist].Name, a.Headliner})
	}
	for _, tk := range g.Tickets {
		v.Tickets = append(v.Tickets, refTicket(tk))
	}
	for _, s := range g.Sources {
		v.Sources = append(v.Sources, refSource(s))
	}
	return encodingJSON(t, v)
}

// encodingJSON is v as encoding/json writes it without HTML escaping: the oracle for the
// writers of gig JSON.
func encodingJSON(t testing.TB, v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func cmpOr(s Status) Status {
	if s == "" {
		return StatusScheduled
	}
	return s
}

func TestAppendGigMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 2))
	texts := []string{"", "Plain", "Motörhead & Friends <live>", "quote \" and \\ back", "tab\tnew\nline\r\x01\x1f",
		"bad \xff\xfe utf8", "line\u2028sep\u2029", "東京 🎸", "emoji \U0001F600", "\x7f del"}
	prices := []float64{0, 1, 12.5, 1e-7, 123456789, 1e21, 0.1 + 0.2, 3.000001e-6}
	text := func() string { return texts[r.IntN(len(texts))] }
	berlin, _ := time.LoadLocation("Europe/Berlin")
	kolkata, _ := time.LoadLocation("Asia/Kolkata")
	for i := range 2000 {
		loc := []*time.Location{berlin, kolkata, time.UTC}[r.IntN(3)]
		start := time.Date(2026, 12, 1+r.IntN(30), r.IntN(24), r.IntN(60), r.IntN(60), r.IntN(2)*500_000_000, loc)
		g := &Gig{ID: "g" + text(), Title: text(), Status: []Status{"", StatusCancelled, StatusPostponed}[r.IntN(3)],
			Start: start, TimeTBA: r.IntN(5) == 0, Genres: []string{text(), text()}[:r.IntN(3)]}
		if r.IntN(2) == 0 {
			g.End, g.Doors, g.PreviousStart = start.Add(3*time.Hour), start.Add(-time.Hour), start.AddDate(0, 0, -3)
		}
		created := start.Unix() - r.Int64N(1e7)
		updated := created + r.Int64N(1e6)
		if r.IntN(2) == 0 {
			g.OnSale, g.Image, g.MinAge, g.HasMinAge = start.AddDate(0, -2, 0), text(), r.IntN(22), r.IntN(2) == 0
		}
		artists := map[string]*Artist{}
		for n := range r.IntN(3) {
			slug := text() + string(rune('a'+n))
			artists[slug] = &Artist{Slug: slug, Name: text()}
			g.Artists = append(g.Artists, Billing{Artist: slug, Headliner: n == 0})
		}
		for range r.IntN(3) {
			tk := Ticket{URL: text(), Source: text(), Currency: text(), Availability: text()}
			if r.IntN(2) == 0 {
				p := prices[r.IntN(len(prices))]
				tk.PriceMin = &p
			}
			if r.IntN(2) == 0 {
				p := prices[r.IntN(len(prices))]
				tk.PriceMax = &p
			}
			g.Tickets = append(g.Tickets, tk)
		}
		for range r.IntN(3) {
			g.Sources = append(g.Sources, Attribution{Name: text(), URL: text()})
		}
		if len(g.Artists) > 0 && r.IntN(3) == 0 { // billed twice
			g.Artists = append(g.Artists, Billing{Artist: g.Artists[0].Artist})
		}
		// The gig's venue, city and artists are not the first of the dataset, nor at the
		// same index, and its artists are not in billing order: only its row finds them.
		cat := &catalog{ds: &Dataset{
			Venues: []Venue{{Slug: "decoy-0", Name: "Decoy"}, {Slug: "decoy-1", Name: "Decoy"}, {Slug: text(), Name: text()}},
			Cities: []City{{Slug: "elsewhere", Name: "Elsewhere", Country: "FR", Timezone: "UTC"},
				{Slug: text(), Name: text(), Country: "DE", Timezone: loc.String()}},
			Artists: []Artist{{Slug: "decoy", Name: "Decoy"}}},
			locs: []*time.Location{time.UTC, loc}, venueCity: []int32{0, 0, 1}, refs: []int32{0}}
		at := map[string]int32{}
		for k := len(g.Artists) - 1; k >= 0; k-- {
			if slug := g.Artists[k].Artist; at[slug] == 0 {
				at[slug] = int32(len(cat.ds.Artists))
				cat.ds.Artists = append(cat.ds.Artists, *artists[slug])
			}
		}
		for _, b := range g.Artists {
			cat.refs = append(cat.refs, at[b.Artist])
		}
		row := &gigRow{g: g, venue: 2, city: 1, refs: 1, artists: int32(len(g.Artists))}
		got := appendGigTimes(newGigWriter(cat).appendGig(nil, row), created, updated)
		want := refEncode(t, g, loc, &cat.ds.Venues[2], &cat.ds.Cities[1], artists, created, updated)
		if !bytes.Equal(got, want) {
			t.Fatalf("case %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

// appendStamp and dayNumber compute the calendar themselves: they must agree with time's,
// in every layout, for instants on both sides of appendStamp's range and zones whose
// offsets are negative, not whole hours, or (before standard time) not whole minutes.
func TestCalendarMatchesTime(t *testing.T) {
	var zones []*time.Location
	for _, name := range []string{"UTC", "Europe/Berlin", "America/Los_Angeles", "Asia/Kolkata", "Asia/Kathmandu",
		"Australia/Lord_Howe", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Africa/Monrovia", "Europe/Amsterdam", "America/St_Johns"} {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		zones = append(zones, loc)
	}
	zones = append(zones, time.FixedZone("", -(3*3600+25*60+7)), time.FixedZone("", 14*3600+59),
		time.FixedZone("", 99*3600+59*60), time.FixedZone("", 100*3600), time.FixedZone("", -100*3600-1))
	instants := []int64{0, -1, 1, 86399, 86400, 951782400 /* 2000-02-29 */, 4107542400 /* 2100-03-01 */, maxStamp, maxStamp + 1,
		-62135596800 /* 0001-01-01 */, -62135596801, 253402300800 + 86400*366}
	r := rand.New(rand.NewPCG(7, 7))
	for range 20000 {
		instants = append(instants, r.Int64N(maxStamp+2*86400)-86400, r.Int64N(4102444800), -r.Int64N(62135596800))
	}
	for _, sec := range instants {
		for _, loc := range zones {
			tm := time.Unix(sec, int64(r.IntN(1e9))).In(loc)
			y, m, d := tm.Date()
			if got, want := dayNumber(tm), int32(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix()/86400); got != want {
				t.Fatalf("%d in %s: day %d, want %d", sec, loc, got, want)
			}
			for layout, name := range stampLayouts {
				want := `"` + tm.Truncate(time.Second).Format(name) + `"`
				if got := appendStamp(nil, tm, stampLayout(layout)); string(got) != want {
					t.Fatalf("%d in %s, layout %q: got %s, want %s", sec, loc, name, got, want)
				}
			}
		}
	}
}

// TestAppendString puts every kind of byte that needs more than copying at every place
// of strings up to three words long, so that each lands at each offset of a word that is
// tested whole, and in the bytes after the last whole word.
func TestAppendString(t *testing.T) {
	specials := []string{`"`, `\`, "\x00", "\x1f", "\n", "\x7f", "é", "東", "\u2028", "\xff", "\xe6\x9d", " ", "~"}
	for n := range 25 {
		for at := range n {
			for _, sp := range specials {
				s := strings.Repeat("a", at) + sp + strings.Repeat("b", n-at)
				if got, want := string(appendString(nil, s)), string(encodingJSON(t, s)); got != want {
					t.Fatalf("appendString(%q) = %s, want %s", s, got, want)
				}
			}
		}
	}
}

func FuzzAppendString(f *testing.F) {
	f.Add("plain words of ASCII text")
	f.Add("Motörhead \"live\" \\ 東京事変\u2028\x01\xff")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(appendString(nil, s)), string(encodingJSON(t, s)); got != want {
			t.Fatalf("appendString(%q) = %s, want %s", s, got, want)
		}
	})
}
