package loader

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/source"
)

// listing is one source record in a merge case: "source|role|venue|start|title|performers".
type listing struct {
	source    string
	role      Role
	venue     string
	start     string // ISO, venue-local unless it has an offset
	title     string
	performer string // "" for none
	status    engine.Status
	prev      string // previous start, "" for none
	ref       string
	// positional marks a ref that is only a position in its document
	positional bool
}

func (l listing) event() source.Event {
	ev := event(l.title, l.venue, "London", "GB", l.start)
	ev.Source, ev.Status, ev.Ref, ev.Positional = l.source, l.status, l.ref, l.positional
	if ev.Ref == "" {
		ev.Ref = l.source + "/" + l.title + "/" + l.start
	}
	if l.performer != "" {
		ev.Performers = []source.Performer{{Name: l.performer}}
	}
	if l.prev != "" {
		ev.PreviousStart, _ = source.ParseISO(l.prev)
	}
	ev.Offers = []source.Offer{{URL: "https://" + l.source + ".example/" + l.ref}}
	return ev
}

// merged normalizes listings (source order: first appearance) and returns the dataset.
func merged(t *testing.T, ids *IDStore, ls ...listing) engine.Dataset {
	t.Helper()
	n := newNormalizer(noon, len(ls))
	var srcs []string
	events := make([]source.Event, len(ls))
	for i, l := range ls {
		if !slices.Contains(srcs, l.source) {
			srcs = append(srcs, l.source)
		}
		events[i] = l.event()
		if err := n.add(&events[i], slices.Index(srcs, l.source), l.role); err != nil {
			t.Fatalf("listing %d: %v", i, err)
		}
	}
	run := ids.begin()
	ds := n.dataset(run, n.clusters())
	run.commit(noon)
	if _, err := engine.Build(&ds, engine.Options{Now: noon}); err != nil {
		t.Fatalf("build: %v", err)
	}
	return ds
}

func TestMerge(t *testing.T) {
	const (
		site = "garage-site"
		tix  = "tixhub"
		seek = "gigseek"
	)
	tests := []struct {
		name     string
		listings []listing
		gigs     int    // gigs made
		sources  []int  // sources per gig, in start order
		start    string // the first gig's venue-local start, "15:04 2006-01-02"
		status   engine.Status
	}{
		{"title dressed up on a platform", []listing{
			{source: site, venue: "The Garage", start: "2026-12-05T20:00", title: "Röyksopp", performer: "Röyksopp"},
			{source: tix, role: RolePrimary, venue: "Garage", start: "2026-12-05T20:00", title: "SOLD OUT: ROYKSOPP – Live (DJ set)"},
		}, 1, []int{2}, "20:00 2026-12-05", ""},
		{"the, ampersand and feat.", []listing{
			{source: site, venue: "The Garage", start: "2026-12-05T20:00", title: "Simon & Garfunkel", performer: "Simon & Garfunkel"},
			{source: tix, role: RolePrimary, venue: "The Garage London", start: "2026-12-05T20:00", title: "The Simon and Garfunkel feat. Guest"},
		}, 1, []int{2}, "20:00 2026-12-05", ""},
		{"early and late shows stay apart", []listing{
			{source: site, venue: "The Garage", start: "2026-12-05T18:00", title: "Wet Leg", performer: "Wet Leg"},
			{source: site, venue: "The Garage", start: "2026-12-05T21:30", title: "Wet Leg", performer: "Wet Leg"},
			{source: tix, venue: "Garage", start: "2026-12-05T21:00", title: "Wet Leg (late show)"},
			{source: tix, venue: "Garage", start: "2026-12-05T17:30", title: "Wet Leg (early show)"},
		}, 2, []int{2, 2}, "18:00 2026-12-05", ""},
		{"a tribute act is not the act", []listing{
			{source: site, venue: "The Garage", start: "2026-12-05T20:00", title: "Oasish – a tribute to Oasis", performer: "Oasish"},
			{source: tix, venue: "The Garage", start: "2026-12-05T20:00", title: "Oasis"},
		}, 2, []int{1, 1}, "20:00 2026-12-05", ""},
		{"near-names stay apart", []listing{
			{source: site, venue: "The Garage", start: "2026-12-05T20:00", title: "Daughter", performer: "Daughter"},
			{source: tix, venue: "The Garage", start: "2026-12-05T20:00", title: "Daughters"},
		}, 2, []int{1, 1}, "20:00 2026-12-05", ""},
		{"a typo in a long name matches", []listing{
			{source: site, venue: "The Garage", start: "2026-12-05T20:00", title: "Radiohead", performer: "Radiohead"},
			{source: tix, venue: "The Garage", start: "2026-12-05T20:05", title: "Radiohaed"},
		}, 1, []int{2}, "20:00 2026-12-05", ""},
		{"short names match exactly or not at all", []listing{
			{source: site, venue: "The Garage", start: "2026-12-05T20:00", title: "Yes", performer: "Yes"},
			{source: tix, venue: "The Garage", start: "2026-12-05T20:00", title: "Yet"},
			{source: seek, venue: "The Garage", start: "2026-12-05T20:00", title: "YES!"},
		}, 2, []int{2, 1}, "20:00 2026-12-05", ""},
		{"doors time on a platform", []listing{
			{source: site, venue: "The Garage", start: "2026-12-05T20:00", title: "Idles", performer: "Idles"},
			{source: tix, venue: "The Garage", start: "2026-12-05T19:00", title: "IDLES"},
		}, 1, []int{2}, "20:00 2026-12-05", ""},
		{"a show after midnight dated the evening before", []listing{
			{source: site, venue: "The Garage", start: "2026-12-06T00:30", title: "Floating Points", performer: "Floating Points"},
			{source: tix, venue: "The Garage", start: "2026-12-05T23:45", title: "Floating Points"},
		}, 1, []int{2}, "00:30 2026-12-06", ""},
		{"the venue's time to be announced stands", []listing{
			{source: site, venue: "The Garage", start: "2026-12-05", title: "Bicep", performer: "Bicep"},
			{source: tix, venue: "The Garage", start: "2026-12-05T21:00", title: "Bicep"},
		}, 1, []int{2}, "00:00 2026-12-05", ""},
		{"a platform's time to be announced takes another's time", []listing{
			{source: tix, role: RolePrimary, venue: "The Garage", start: "2026-12-05", title: "Bicep"},
			{source: seek, venue: "The Garage", start: "2026-12-05T21:00", title: "Bicep"},
		}, 1, []int{2}, "21:00 2026-12-05", ""},
		{"a club night dated the evening before takes the later date", []listing{
			{source: site, venue: "The Garage", start: "2026-12-05T00:30", title: "Floating Points", performer: "Floating Points"},
			{source: tix, venue: "The Garage", start: "2026-12-06T00:30", title: "Floating Points"},
		}, 1, []int{2}, "00:30 2026-12-06", ""},
		{"a club night moved a day earlier keeps its new date", []listing{
			{source: site, venue: "The Garage", start: "2026-12-05T00:30", title: "Floating Points", performer: "Floating Points", prev: "2026-12-06T00:30", status: engine.StatusRescheduled},
			{source: tix, venue: "The Garage", start: "2026-12-06T00:30", title: "Floating Points"},
		}, 1, []int{2}, "00:30 2026-12-05", engine.StatusRescheduled},
		{"the same act after midnight on consecutive nights stays apart", []listing{
			{source: site, venue: "The Garage", start: "2026-12-05T00:30", title: "Floating Points", performer: "Floating Points"},
			{source: site, venue: "The Garage", start: "2026-12-06T00:30", title: "Floating Points", performer: "Floating Points"},
			{source: tix, venue: "The Garage", start: "2026-12-05T00:30", title: "Floating Points"},
			{source: tix, venue: "The Garage", start: "2026-12-06T00:30", title: "Floating Points"},
		}, 2, []int{2, 2}, "00:30 2026-12-05", ""},
		{"a platform's postponement counts where the venue states no status", []listing{
			{source: site, venue: "The Garage", start: "2026-12-05T20:00", title: "Slowdive", performer: "Slowdive"},
			{source: seek, venue: "The Garage", start: "2026-12-05T20:00", title: "Slowdive", status: engine.StatusPostponed},
		}, 1, []int{2}, "20:00 2026-12-05", engine.StatusPostponed},
		{"a platform's postponement wins over the primary's scheduled", []listing{
			{source: tix, role: RolePrimary, venue: "The Garage", start: "2026-12-05T20:00", title: "Slowdive", status: engine.StatusScheduled},
			{source: seek, venue: "The Garage", start: "2026-12-05T20:00", title: "Slowdive", status: engine.StatusPostponed},
		}, 1, []int{2}, "20:00 2026-12-05", engine.StatusPostponed},
		{"the venue's stated schedule wins over a platform's postponement", []listing{
			{source: site, venue: "The Garage", start: "2026-12-05T20:00", title: "Slowdive", performer: "Slowdive", status: engine.StatusScheduled},
			{source: seek, venue: "The Garage", start: "2026-12-05T20:00", title: "Slowdive", status: engine.StatusPostponed},
		}, 1, []int{2}, "20:00 2026-12-05", engine.StatusScheduled},
		{"no time on a platform", []listing{
			{source: site, venue: "The Garage", start: "2026-12-05T21:00", title: "Bicep", performer: "Bicep"},
			{source: tix, venue: "The Garage", start: "2026-12-05", title: "Bicep"},
		}, 1, []int{2}, "21:00 2026-12-05", ""},
		{"rescheduled at the venue, old date on a platform", []listing{
			{source: site, venue: "The Garage", start: "2026-12-12T20:00", title: "Fontaines D.C.", performer: "Fontaines D.C.", prev: "2026-12-05T20:00", status: engine.StatusRescheduled},
			{source: tix, venue: "The Garage", start: "2026-12-05T20:00", title: "Fontaines DC"},
		}, 1, []int{2}, "20:00 2026-12-12", engine.StatusRescheduled},
		{"rescheduled on the primary platform, old date at the venue", []listing{
			{source: site, venue: "The Garage", start: "2026-12-05T20:00", title: "Fontaines D.C.", performer: "Fontaines D.C."},
			{source: tix, role: RolePrimary, venue: "The Garage", start: "2026-12-12T20:00", title: "Fontaines DC", prev: "2026-12-05T20:00", status: engine.StatusRescheduled},
		}, 1, []int{2}, "20:00 2026-12-12", engine.StatusRescheduled},
		{"a cancellation from a minor platform alone does not count", []listing{
			{source: site, venue: "The Garage", start: "2026-12-05T20:00", title: "Slowdive", performer: "Slowdive"},
			{source: seek, role: RolePlatform, venue: "The Garage", start: "2026-12-05T20:00", title: "Slowdive", status: engine.StatusCancelled},
		}, 1, []int{2}, "20:00 2026-12-05", engine.StatusScheduled},
		{"a cancellation from the primary platform wins", []listing{
			{source: site, venue: "The Garage", start: "2026-12-05T20:00", title: "Slowdive", performer: "Slowdive"},
			{source: tix, role: RolePrimary, venue: "The Garage", start: "2026-12-05T20:00", title: "CANCELLED: Slowdive", status: engine.StatusCancelled},
		}, 1, []int{2}, "20:00 2026-12-05", engine.StatusCancelled},
		{"different venues stay apart", []listing{
			{source: site, venue: "The Garage", start: "2026-12-05T20:00", title: "Slowdive", performer: "Slowdive"},
			{source: tix, venue: "Electric Ballroom", start: "2026-12-05T20:00", title: "Slowdive"},
		}, 2, []int{1, 1}, "20:00 2026-12-05", ""},
		{"one source lists two shows a day apart", []listing{
			{source: site, venue: "The Garage", start: "2026-12-05T20:00", title: "Slowdive", performer: "Slowdive"},
			{source: site, venue: "The Garage", start: "2026-12-06T20:00", title: "Slowdive", performer: "Slowdive"},
			{source: tix, venue: "The Garage", start: "2026-12-06", title: "Slowdive"},
		}, 2, []int{1, 2}, "20:00 2026-12-05", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds := merged(t, NewIDStore(), tt.listings...)
			if len(ds.Gigs) != tt.gigs {
				t.Fatalf("%d gigs, want %d: %+v", len(ds.Gigs), tt.gigs, titles(ds))
			}
			gigs := slices.Clone(ds.Gigs)
			slices.SortStableFunc(gigs, func(a, b engine.Gig) int { return a.Start.Compare(b.Start) })
			for i, g := range gigs {
				if len(g.Sources) != tt.sources[i] {
					t.Errorf("gig %d (%s) has %d sources, want %d", i, g.Title, len(g.Sources), tt.sources[i])
				}
				if len(g.Tickets) != len(g.Sources) {
					t.Errorf("gig %d has %d tickets, want one per source (%d)", i, len(g.Tickets), len(g.Sources))
				}
			}
			loc, _ := time.LoadLocation("Europe/London")
			if got := gigs[0].Start.In(loc).Format("15:04 2006-01-02"); got != tt.start {
				t.Errorf("first gig starts %s, want %s", got, tt.start)
			}
			if tt.status != "" && gigs[0].Status != tt.status {
				t.Errorf("status %q, want %q", gigs[0].Status, tt.status)
			}
			if len(ds.Venues) != len(uniqueVenues(gigs)) {
				t.Errorf("%d venues for gigs at %v", len(ds.Venues), uniqueVenues(gigs))
			}
		})
	}
}

func titles(ds engine.Dataset) []string {
	var out []string
	for _, g := range ds.Gigs {
		out = append(out, g.Title+" @ "+g.Start.Format(time.RFC3339))
	}
	return out
}

func uniqueVenues(gigs []engine.Gig) []string {
	var out []string
	for _, g := range gigs {
		if !slices.Contains(out, g.Venue) {
			out = append(out, g.Venue)
		}
	}
	return out
}

func TestMergedArtistsAndVenue(t *testing.T) {
	ds := merged(t, NewIDStore(),
		listing{source: "tix", role: RolePrimary, venue: "Garage (London)", start: "2026-12-05T20:00", title: "SOLD OUT: The Kills"},
		listing{source: "site", venue: "The Garage", start: "2026-12-05T20:00", title: "The Kills + Support", performer: "The Kills"},
	)
	if len(ds.Artists) != 1 || ds.Artists[0].Name != "The Kills" || ds.Artists[0].Slug != "the-kills" {
		t.Errorf("artists %+v, want one named by the venue site", ds.Artists)
	}
	if len(ds.Venues) != 1 || ds.Venues[0].Name != "The Garage" || ds.Venues[0].Slug != "the-garage-london-gb" {
		t.Errorf("venues %+v, want one named by the venue site", ds.Venues)
	}
	if g := ds.Gigs[0]; g.Title != "The Kills + Support" || g.Sources[0].Name != "site" {
		t.Errorf("gig %q from %v, want the venue's title first", g.Title, g.Sources)
	}
}

func TestNameKeys(t *testing.T) {
	tests := []struct {
		in, artist, title string
	}{
		{"The Beatles", "beatles", "beatles"},
		{"SOLD OUT: Sigur Rós", "sigur ros", "sigur ros"},
		{"CANCELLED: MØ", "mo", "mo"},
		{"Mumford & Sons", "mumford and sons", "mumford and sons"},
		{"Four Tet (DJ set)", "four tet", "four tet"},
		{"Łona feat. Webber", "lona", "lona"},
		{"Straßenjungs [DE] - SOLD OUT", "strassenjungs", "strassenjungs"},
		{"Kraftwerk: World Tour 2027", "kraftwerk world tour 2027", "kraftwerk"},
		{"Club Ø presents: Bonobo + Guests", "club o presents bonobo guests", "bonobo"},
		{"Cœur de pirate w/ Friends", "coeur de pirate w friends", "coeur de pirate"},
		{"Idles – Live", "idles live", "idles"},
		{"Archive Meadow Live", "archive meadow live", "archive meadow"},
		{"Live", "live", "live"},
		{"Alive", "alive", "alive"},
		{"The The", "the", "the"},
		{"R.E.M.", "rem", "rem"},
		{"Fontaines D.C.", "fontaines dc", "fontaines dc"},
		{"Wet Leg at The Garage", "wet leg at the garage", "wet leg"},
		{"Wet Leg @ Garage", "wet leg garage", "wet leg"},
		{"Wet Leg live in London", "wet leg live in london", "wet leg"},
		{"Wet Leg Live in Concert at the Garage", "wet leg live in concert at the garage", "wet leg"},
		{"Wet Leg in London", "wet leg in london", "wet leg"},
		{"Wet Leg – The Moisturizer Tour", "wet leg the moisturizer tour", "wet leg"},
		{"Wet Leg: Moisturizer Tour 2026", "wet leg moisturizer tour 2026", "wet leg"},
		{"Wet Leg + Idles", "wet leg idles", "wet leg"},
		{"Wet Leg w/ Idles", "wet leg w idles", "wet leg"},
		{"Panic! at the Disco", "panic at the disco", "panic at the disco"},
		{"Death in Vegas", "death in vegas", "death in vegas"},
	}
	for _, tt := range tests {
		if got := artistKey(tt.in); got != tt.artist {
			t.Errorf("artistKey(%q) = %q, want %q", tt.in, got, tt.artist)
		}
		if got := titleKey(tt.in, "The Garage", "London"); got != tt.title {
			t.Errorf("titleKey(%q) = %q, want %q", tt.in, got, tt.title)
		}
	}
	for in, want := range map[string]bool{"Oasish – a tribute to Oasis": true, "The Music of Queen": true, "Oasis": false, "Tribute": false} {
		if got := isTribute(in); got != want {
			t.Errorf("isTribute(%q) = %v", in, got)
		}
	}
	for _, c := range [][3]string{{"The Garage London", "London", "garage"}, {"Garage (London)", "London", "garage"}, {"London Palladium", "London", "london palladium"}} {
		if got := venueKey(c[0], c[1]); got != c[2] {
			t.Errorf("venueKey(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

func TestTypoApart(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"radiohead", "radiohaed", true},
		{"radiohead", "radiohed", true},
		{"daughter", "daughters", false},
		{"blink 182", "blonk 183", false},
		{"yes", "yet", false},
		{"the national", "the nationals", false},
		{"godspeed you black emperor", "godspeed you blak emperer", true},
	} {
		if got := typoApart(c.a, c.b); got != c.want {
			t.Errorf("typoApart(%q, %q) = %v", c.a, c.b, got)
		}
	}
}

func TestImageOnSaleAndAgeReachTheGig(t *testing.T) {
	n := newNormalizer(noon, 2)
	venue := event("The Xs", "Hall", "Berlin", "DE", "2026-12-05T20:00")
	platform := event("The Xs", "Hall", "Berlin", "DE", "2026-12-05T20:00")
	platform.Image, platform.MinAge, platform.HasMinAge = "https://img.example/xs.jpg", 0, true
	platform.OnSale, _ = source.ParseISO("2026-10-01T10:00")
	late := event("The Xs", "Hall", "Berlin", "DE", "2026-12-05T20:00")
	late.OnSale, _ = source.ParseISO("2026-12-06T10:00") // after the show: not an on-sale time
	for i, ev := range []*source.Event{&venue, &platform, &late} {
		if err := n.add(ev, i, []Role{RoleVenue, RolePlatform, RolePlatform}[i]); err != nil {
			t.Fatal(err)
		}
	}
	ds := n.dataset(NewIDStore().begin(), n.clusters())
	if len(ds.Gigs) != 1 {
		t.Fatalf("%d gigs", len(ds.Gigs))
	}
	g := ds.Gigs[0]
	if g.Image != "https://img.example/xs.jpg" || !g.HasMinAge || g.MinAge != 0 || g.OnSale.Format("2006-01-02T15:04") != "2026-10-01T10:00" {
		t.Errorf("image %q, age %d %v, on sale %v", g.Image, g.MinAge, g.HasMinAge, g.OnSale)
	}
}

// TestOnSalePlaceholders checks that an on-sale time years before the show (Ticketmaster's
// 1900-01-01 for "unknown") is not the gig's, and gives way to the next source's.
func TestOnSalePlaceholders(t *testing.T) {
	for _, tt := range []struct{ first, want string }{
		{"1900-01-01T11:00", "2026-10-01T10:00"},
		{"2020-06-01T10:00", "2026-10-01T10:00"},
		{"2024-12-06T10:00", "2024-12-06T10:00"}, // two years ahead: a festival's early sale
	} {
		n := newNormalizer(noon, 2)
		venue := event("The Xs", "Hall", "Berlin", "DE", "2026-12-05T20:00")
		venue.OnSale, _ = source.ParseISO(tt.first)
		platform := event("The Xs", "Hall", "Berlin", "DE", "2026-12-05T20:00")
		platform.OnSale, _ = source.ParseISO("2026-10-01T10:00")
		for i, ev := range []*source.Event{&venue, &platform} {
			if err := n.add(ev, i, []Role{RoleVenue, RolePlatform}[i]); err != nil {
				t.Fatal(err)
			}
		}
		ds := n.dataset(NewIDStore().begin(), n.clusters())
		if len(ds.Gigs) != 1 || ds.Gigs[0].OnSale.Format("2006-01-02T15:04") != tt.want {
			t.Errorf("on sale %s first: %v, want %s", tt.first, ds.Gigs, tt.want)
		}
	}
}

// TestHeadlinersOfRealTitles reads titles as the real corpus's pages and feeds write them
// (testdata/real): the headliner is the act, not the place, the tour or the support.
func TestHeadlinersOfRealTitles(t *testing.T) {
	for _, c := range []struct{ title, venue, city, want string }{
		{"Saywecanfly @ Planet Trog with 7 Minutes In Heaven", "Planet Trog", "Whitehall", "Saywecanfly"},
		{"Senses Fail at The Zoo (August 7, 2013)", "The Zoo", "Brisbane", "Senses Fail"},
		{"Shakira - EL Dorado World Tour", "LA Forum", "Inglewood", "Shakira"},
		{"Nine Inch Nails: Cold and Black and Infinite North America 2018", "Hollywood Palladium", "Los Angeles", "Nine Inch Nails"},
		{"Hundredth and Counterparts with Handguns", "Firebird", "St. Louis", "Hundredth and Counterparts"},
		{"Big Time Rush with Victoria Justice and Jake Miller", "Target Center", "Minneapolis", "Big Time Rush"},
		{"Zu + The New Earth Group at Burgerweeshuis", "Burgerweeshuis", "Deventer", "Zu"},
		{"Jack and Eliza with Plume Giant", "Rough Trade NYC", "Brooklyn", "Jack and Eliza"},
		{"Weezer & Pixies", "LA Forum", "Inglewood", "Weezer & Pixies"},
		{"Clock live@ Kajak", "Kajak", "Deventer", "Clock"},
		{"Maxïmo Park live in Leeds", "O2 Academy Leeds", "Leeds", "Maxïmo Park"},
		// R5 Productions' calendar (amandakreider/Concert-Calendars, r5_events.ics): the
		// occasion, then the act.
		{"Penelope Tour: Small Crush", "Foto Club", "Philadelphia", "Small Crush"},
		{"WXPN 88.5 Welcomes: Waxahatchee", "The Fillmore", "Philadelphia", "Waxahatchee"},
		{"WXPN 88.5 Welcomes | Album Release Celebration: Restorations", "The First Unitarian Church", "Philadelphia", "Restorations"},
		{"'Forgot About Me' Record Release Show!: Pouty", "Johnny Brenda’s", "Philadelphia", "Pouty"},
		{"'Of Course You Did' 10 Year Anniversary: Slothrust", "The First Unitarian Church", "Philadelphia", "Slothrust"},
		{"SOMETHING TO TALK ABOUT VOL. 3: Reek Minds & Quarantine", "Foto Club", "Philadelphia", "Reek Minds & Quarantine"},
		{"WXPN 88.5 Welcomes: Ron Gallo (solo)", "The Side Chapel of the First Unitarian Church", "Philadelphia", "Ron Gallo"},
		{"Kraftwerk: World Tour 2027", "Hall", "Berlin", "Kraftwerk"},
		{"Tour: ", "Hall", "Berlin", "Tour"},
		{"Tour: The Band", "Hall", "Berlin", "The Band"},
		{"15th Anniversary Tour: The Head and The Heart", "Hall", "Berlin", "The Head and The Heart"},
		{"Album Release Show: w/ Pouty, Slothrust", "Hall", "Berlin", "Pouty"},
		{"Record Release Party: with Pouty", "Hall", "Berlin", "Pouty"},
		// The act before the colon (a review of the occasion rule).
		{"Bloc Party: Silent Alarm 20th Anniversary Tour", "Hall", "Berlin", "Bloc Party"},
		{"Old Crow Medicine Show: Jubilee Tour", "Hall", "Berlin", "Old Crow Medicine Show"},
		{"The Tea Party: Live", "Hall", "Berlin", "The Tea Party"},
		{"The Anniversary: Your Majesty", "Hall", "Berlin", "The Anniversary"},
		{"Metallica: M72 World Tour: Night 1", "Hall", "Berlin", "Metallica"},
		{"Muse - Simulation Theory World Tour: Special Guests Walk The Moon", "Hall", "Berlin", "Muse"},
		{"Slothrust – 10 Year Anniversary Show: All Ages", "Hall", "Berlin", "Slothrust"},
		{"Pouty | Record Release Show: Doors 7pm", "Hall", "Berlin", "Pouty"},
		{"Lost in the Trees", "Trees", "Dallas", "Lost in the Trees"},
		// A third round: single-word occasions, dates before them, a band named like one,
		// venues named without their "The".
		{"EP Release: Pouty", "Hall", "Berlin", "Pouty"},
		{"Listening Party: Phoebe Bridgers", "Hall", "Berlin", "Phoebe Bridgers"},
		{"January Residency: Pom Pom Squad", "Hall", "Berlin", "Pom Pom Squad"},
		{"Songwriter Series: Molly Tuttle", "Hall", "Berlin", "Molly Tuttle"},
		{"10th Anniversary: Slothrust", "Hall", "Berlin", "Slothrust"},
		{"Farewell Show: Slothrust", "Hall", "Berlin", "Slothrust"},
		{"Thursday, March 5 - Album Release Show: Pouty", "Hall", "Berlin", "Pouty"},
		{"WXPN Welcomes: Celebration", "Hall", "Berlin", "Celebration"},
		{"Waxahatchee at The Troubadour", "Troubadour", "Los Angeles", "Waxahatchee"},
		{"Waxahatchee @ The Echo", "Echo", "Los Angeles", "Waxahatchee"},
		// A fourth round: a number or a weekday alone is an act, and so is what an
		// occasion-looking act is followed by when that is no act.
		{"311 - Unity Tour: with special guests", "Hall", "Berlin", "311"},
		{"Thursday - Full Collapse Anniversary: w/ Touché Amoré", "Hall", "Berlin", "Thursday"},
		{"Celebration: Album Release Show", "Hall", "Berlin", "Celebration"},
		{"Pom Pom Squad Residency: Week 1", "Hall", "Berlin", "Pom Pom Squad Residency"},
		{"Sat 12th March - Album Release Show: Pouty", "Hall", "Berlin", "Pouty"},
		// The trade for "Waxahatchee at The Troubadour": an act called Panic! at the Disco
		// at a venue called Disco is cut (docs/sources.md).
		{"Panic! at the Disco", "Disco", "Berlin", "Panic!"},
		// A fifth round: years, days without their month and numeric dates; an act whose
		// name ends in an occasion's word.
		{"Thursday, March 5, 2026 - Album Release Show: Pouty", "Hall", "Berlin", "Pouty"},
		{"Sat 12th - Farewell Show: Slothrust", "Hall", "Berlin", "Slothrust"},
		{"Thu 3/5 - Album Release Show: Pouty", "Hall", "Berlin", "Pouty"},
		{"Friday - Album Release Show: Pouty", "Hall", "Berlin", "Friday"}, // the trade for Thursday the band
		{"WXPN Welcomes: The Anniversary", "Union Transfer", "Philadelphia", "The Anniversary"},
		{"Record Release: Sweet Release", "Hall", "Berlin", "Sweet Release"},
		{"WXPN Welcomes: Waxahatchee Album Release Show", "Union Transfer", "Philadelphia", "Waxahatchee Album Release Show"},
		{"Pom Pom Squad Residency: Day 2", "Hall", "Berlin", "Pom Pom Squad Residency"},
		{"Album Release Show: Set 1", "Hall", "Berlin", "Album Release Show"},
		{"WXPN Welcomes: Record Release Celebration", "Union Transfer", "Philadelphia", "WXPN Welcomes"},
		// riebeekn/musiclistings' Junction Underground page, hinted without its "The".
		{"RUUTED AT THE JUNCTION UNDERGROUND", "Junction Underground", "Toronto", "RUUTED"},
		// A Ticketmaster event without attractions (ash-kick/event-pop-app, tmEventsSF.js).
		{"Leer/ Fever/ Secret Society/ Lich Gawd/ Armed and Dangerous", "Bottom of the Hill", "San Francisco", "Leer"},
		{"AC/DC", "Hall", "Berlin", "AC/DC"},
	} {
		if got := titleHeadliner(c.title, c.venue, c.city); got != c.want {
			t.Errorf("titleHeadliner(%q) = %q, want %q", c.title, got, c.want)
		}
	}
}

// TestLineup reads performer lists as Ticketmaster's event pages give them (listings of
// 2024 seen in a public scrape): a festival named as its own first performer, before its
// lineup, is not an act; a show named after its headliner keeps it, four supports or not.
func TestLineup(t *testing.T) {
	acts := func(names ...string) []source.Performer {
		var out []source.Performer
		for _, n := range names {
			out = append(out, source.Performer{Name: n})
		}
		return out
	}
	for _, tt := range []struct {
		title      string
		performers []source.Performer
		first      string
	}{
		{"Soundside Music Festival", acts("Soundside Music Festival", "Foo Fighters", "Noah Kahan", "Goo Goo Dolls", "Cage The Elephant"), "Foo Fighters"},
		{"Palm Tree Music Festival Dana Point", acts("Palm Tree Music Festival", "Martin Garrix", "OneRepublic", "Calvin Harris", "Kygo"), "Martin Garrix"},
		{"EDC Orlando", acts(append([]string{"EDC Orlando", "4B", "JSTJR", "Ahmed Spins", "Alison Wonderland", "Cloonee", "Dom Dolla", "Eli Brown", "Fisher"},
			strings.Split("a b c d e f g h i j k l m n", " ")...)...), "4B"}, // 97 acts in the listing
		{"EDC Orlando", acts("EDC Orlando", "4B", "JSTJR", "Ahmed Spins", "Alison Wonderland"), "EDC Orlando"}, // not named like a festival, a short bill
		{"Foo Fighters", acts("Foo Fighters", "Wet Leg", "Mannequin Pussy", "Shame", "Idles"), "Foo Fighters"},
		{"Slipknot", acts("Slipknot", "Knocked Loose", "Orbit Culture", "Vended", "Jinjer"), "Slipknot"},
		{"Metallica M72 World Tour", acts("Metallica", "Pantera", "Mammoth WVH", "Ice Nine Kills", "Five Finger Death Punch"), "Metallica"},
		{"Riot Fest", acts("Riot Fest", "Fall Out Boy", "Beck", "Slayer", "Pixies"), "Fall Out Boy"},
		// From a review: bands whose names read like festivals', and a band with its members.
		{"Manifest", acts("Manifest", "Leprous", "Soen", "Vola", "Ihlo"), "Manifest"},
		{"Infest", acts("Infest", "Despise You", "Weekend Nachos", "Magnum Force", "Spazz"), "Infest"},
		{"Carnival Youth", acts("Carnival Youth", "A", "B", "C", "D"), "Carnival Youth"},
		{"Wu-Tang Clan", acts("Wu-Tang Clan", "RZA", "GZA", "Method Man", "Raekwon", "Ghostface Killah", "Inspectah Deck", "U-God", "Masta Killa"), "Wu-Tang Clan"},
		{"Modest Mouse", acts("Modest Mouse"), "Modest Mouse"},
		{"Don Toliver - Psycho Tour", acts("Don Toliver", "Teezo Touchdown", "Monaleo"), "Don Toliver"},
		{"Foo Fighters", acts("Foo Fighters", "Wet Leg", "Mannequin Pussy", "Shame"), "Foo Fighters"}, // three supports
		{"Summer Nights", acts("The Xs", "A", "B", "C", "D"), "The Xs"},
		// Songkick names a festival day by its first acts (smorgan1/oit_u's Sigrid calendar:
		// TRNSMT 2019, 38 performers, Stormzy billed first as headline).
		{"Stormzy, Catfish and the Bottlemen, George Ezra, Snow Patrol, and 34 more… at Glasgow Green (July 12, 2019)",
			acts(append([]string{"Stormzy", "Catfish and the Bottlemen", "George Ezra", "Snow Patrol"}, strings.Split("a b c d e f g h i j k l m n o p q r", " ")...)...), "Stormzy"},
		{"Mumford & Sons and The Blaze at Rock Werchter", acts(append([]string{"Mumford & Sons", "The Blaze"}, strings.Split("a b c d e f g h i j k l m n o p q r s t u", " ")...)...), "Mumford & Sons"},
	} {
		if got := lineup(tt.performers, tt.title); got[0].Name != tt.first {
			t.Errorf("%q: first act %q, want %q", tt.title, got[0].Name, tt.first)
		}
	}
}

// TestUntagged: status words a gig's title begins or ends with go when the gig's status or
// tickets say the same (schema.org's examples #eg-0171 and #eg-0173 name their shows
// "CANCELLED - Typhoon with Radiation City" and "SOLD OUT! Typhoon with Radiation City").
func TestUntagged(t *testing.T) {
	for _, tc := range []struct {
		title   string
		status  engine.Status
		soldOut bool
		want    string
	}{
		{"CANCELLED - Typhoon with Radiation City", engine.StatusCancelled, false, "Typhoon with Radiation City"},
		{"SOLD OUT! Typhoon with Radiation City", engine.StatusScheduled, true, "Typhoon with Radiation City"},
		{"Typhoon (Cancelled)", engine.StatusCancelled, false, "Typhoon (Cancelled)"}, // brackets are the title's
		{"Typhoon – Postponed", engine.StatusPostponed, false, "Typhoon"},
		{"Sold out: Cancelled: Typhoon", engine.StatusCancelled, true, "Typhoon"},
		{"CANCELLED - Typhoon", engine.StatusScheduled, false, "CANCELLED - Typhoon"}, // not borne out
		{"SOLD OUT! Typhoon", engine.StatusScheduled, false, "SOLD OUT! Typhoon"},
		{"Sold Out", engine.StatusScheduled, true, "Sold Out"}, // nothing else: an act's name
		{"Cancelled Plans", engine.StatusCancelled, false, "Cancelled Plans"},
		{"Wet Leg!", engine.StatusScheduled, true, "Wet Leg!"},
		// Only the marks between word and title go (a review's cases).
		{"CANCELLED - Wham!", engine.StatusCancelled, false, "Wham!"},
		{"SOLD OUT: Panic! At The Disco!", engine.StatusScheduled, true, "Panic! At The Disco!"},
		{"*NSYNC - Sold Out", engine.StatusScheduled, true, "*NSYNC"},
		// Two words and nothing else: the same every time.
		{"RESCHEDULED: NEW DATE", engine.StatusRescheduled, false, "NEW DATE"},
		{"SOLD OUT! CANCELLED", engine.StatusCancelled, true, "CANCELLED"},
		// The act's own marks beside the separator stay (a review's cases).
		{"Wham! - CANCELLED", engine.StatusCancelled, false, "Wham!"},
		{"Panic! At The Disco! | SOLD OUT", engine.StatusScheduled, true, "Panic! At The Disco!"},
		{"CANCELLED - *NSYNC", engine.StatusCancelled, false, "*NSYNC"},
		{"Sold Out: !!!", engine.StatusScheduled, true, "!!!"},
		{"SOLD OUT!Typhoon", engine.StatusScheduled, true, "SOLD OUT!Typhoon"}, // no space: not a separator
		{"Sold out – ", engine.StatusScheduled, true, "Sold out –"},
		{"Typhoon - - CANCELLED", engine.StatusCancelled, false, "Typhoon"},
		{"CANCELLED -- | Typhoon", engine.StatusCancelled, false, "Typhoon"},
	} {
		if got := untagged(tc.title, tc.status, tc.soldOut); got != tc.want {
			t.Errorf("untagged(%q, %s, sold out %v) = %q, want %q", tc.title, tc.status, tc.soldOut, got, tc.want)
		}
	}
}

// FuzzUntagged: a title loses at most status words and their separators: what is left is
// a part of it, and never empty when the title was not.
func FuzzUntagged(f *testing.F) {
	for _, s := range []string{"CANCELLED - Typhoon", "Wham! - CANCELLED", "SOLD OUT! CANCELLED", "Sold out – ", "–", "sold outsold out"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, title string, soldOut bool) {
		for _, st := range []engine.Status{engine.StatusCancelled, engine.StatusPostponed, engine.StatusRescheduled, engine.StatusScheduled} {
			got := untagged(title, st, soldOut)
			if !strings.Contains(title, got) || got == "" && strings.TrimSpace(title) != "" {
				t.Fatalf("untagged(%q, %s, %v) = %q", title, st, soldOut, got)
			}
		}
	})
}

// TestActsOnlyKeepsTheFirstAct: a platform whose performers are all acts (Bandsintown's
// lineup) keeps its first act even when its title is that act's name and more than
// bigLineup acts follow (azra-l/festival-fanatic's Kygo feed: Life is Beautiful, no title,
// 22 acts, Kygo first). Without the mark, the same record's first performer is taken for
// the event, as Ticketmaster's "EDC Orlando" is.
func TestActsOnlyKeepsTheFirstAct(t *testing.T) {
	for _, actsOnly := range []bool{true, false} {
		ev := event("Kygo", "Downtown Las Vegas", "Las Vegas", "US", "2026-12-17T18:00")
		ev.Ref, ev.ActsOnly = "bit/1", actsOnly
		for _, n := range append([]string{"Kygo", "Gorillaz", "Billie Eilish"}, strings.Split("a b c d e f g h i j k l m n o p q r s", " ")...) {
			ev.Performers = append(ev.Performers, source.Performer{Name: n})
		}
		ds := readInOrder([]sourceRead{{Source{Role: RolePrimary}, ev}})
		want := map[bool]string{true: "kygo", false: "gorillaz"}[actsOnly]
		if len(ds.Gigs) != 1 || ds.Gigs[0].Artists[0].Artist != want || !ds.Gigs[0].Artists[0].Headliner {
			t.Errorf("acts only %v: %+v, want %s headlining", actsOnly, ds.Gigs, want)
		}
	}
}
