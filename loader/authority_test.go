package loader

import (
	"slices"
	"testing"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/source"
)

// TestVenueSiteSpeaksForItsVenueOnly lets a hostile venue site list the gigs of another
// venue as cancelled, moved, renamed, with its own ticket links and bill: the other
// venue's gigs stay as their own site and the platforms say. Its home is its hint's venue,
// and without a hint naming one, nowhere.
func TestVenueSiteSpeaksForItsVenueOnly(t *testing.T) {
	at := func(title, venue, start string) source.Event {
		ev := event(title, venue, "London", "GB", start)
		ev.Ref = venue + "/" + title + "/" + start
		ev.Performers = []source.Performer{{Name: title}}
		return ev
	}
	// The Garage's own site, and a platform listing the same show.
	garage := []source.Event{at("Wet Leg", "The Garage", "2026-12-05T20:00")}
	garage[0].Offers = []source.Offer{{URL: "https://thegarage.example/tickets/wet-leg"}}
	platform := []source.Event{at("Wet Leg", "The Garage", "2026-12-05T19:30")}
	// The hostile site's forgery of that show: cancelled, moved, another venue name
	// spelling, its own tickets and a support act.
	forged := func() source.Event {
		ev := at("Wet Leg", "The Garage", "2026-12-05T20:00")
		ev.Ref = "evil/forged"
		ev.Status = engine.StatusCancelled
		ev.PreviousStart = ev.Start
		ev.Start.Wall = ev.Start.Wall.Add(30 * 60 * 1e9)
		ev.Venue.Street = "1 Fake Street"
		ev.Offers = []source.Offer{{URL: "https://evil.example/phish"}}
		ev.Performers = append(ev.Performers, source.Performer{Name: "Spam Act"})
		return ev
	}
	own := func(n int) []source.Event {
		var evs []source.Event
		for i := range n {
			evs = append(evs, at("Own Show "+string(rune('A'+i)), "Evil Bar", "2026-12-1"+string(rune('0'+i))+"T21:00"))
		}
		return evs
	}
	tests := []struct {
		name string
		evil []source.Event
		home *VenueHint
	}{
		{"no hint: home nowhere", append(own(3), forged()), nil},
		{"a hint naming no venue: home nowhere", append(own(3), forged()), &VenueHint{City: "London", Country: "GB"}},
		{"home by hint, though most events are elsewhere", append(own(1), forged(), at("Fake 1", "The Garage", "2026-12-20T20:00"),
			at("Fake 2", "The Garage", "2026-12-21T20:00")), &VenueHint{Name: "Evil Bar", City: "London", Country: "GB"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for name, evs := range map[string][]source.Event{"garage": garage, "evil": tt.evil, "tixhub": platform} {
				for i := range evs {
					evs[i].Source = name
				}
			}
			n := newNormalizer(noon, 8)
			var sr SourceReport
			n.addAll(garage, 0, Source{Role: RoleVenue, Home: &VenueHint{Name: "The Garage", City: "London", Country: "GB"}}, &sr)
			n.addAll(tt.evil, 1, Source{Role: RoleVenue, Home: tt.home}, &sr)
			n.addAll(platform, 2, Source{Role: RolePlatform}, &sr)
			if len(sr.Dropped) > 0 {
				t.Fatalf("dropped %+v", sr.Dropped)
			}
			ds := n.dataset(NewIDStore().begin(), n.clusters())
			var show *engine.Gig
			for i := range ds.Gigs {
				if ds.Gigs[i].Title == "Wet Leg" {
					if show != nil {
						t.Fatalf("the forgery made a second gig: %+v", ds.Gigs[i])
					}
					show = &ds.Gigs[i]
				}
			}
			if show == nil {
				t.Fatal("no Wet Leg gig")
			}
			if show.Status != engine.StatusScheduled || show.Start.Format("15:04") != "20:00" || !show.PreviousStart.IsZero() {
				t.Errorf("status %s, start %s, previous %s: the forgery spoke", show.Status, show.Start, show.PreviousStart)
			}
			for _, tk := range show.Tickets {
				if tk.Source != "" && tk.URL == "https://evil.example/phish" {
					t.Errorf("the forgery added its ticket link")
				}
			}
			if len(show.Artists) != 1 || len(show.Sources) != 2 {
				t.Errorf("bill %v, sources %v", show.Artists, show.Sources)
			}
			for _, v := range ds.Venues {
				if v.Name == "The Garage" && v.Address != "London" {
					t.Errorf("the forgery gave The Garage the address %q", v.Address)
				}
			}
			// What the hostile site lists at its own venue, and at others where nobody
			// else lists a show, are gigs.
			if want := len(tt.evil) - 1 + 1; len(ds.Gigs) != want {
				t.Errorf("%d gigs, want %d", len(ds.Gigs), want)
			}
		})
	}
}

// TestGuestsNeverJoinOrSplitGigs lets a hostile venue site list shows between and on top
// of other sources' listings at another venue: the gigs the others' records make stay as
// they are, neither joined nor split.
func TestGuestsNeverJoinOrSplitGigs(t *testing.T) {
	at := func(src, title, start string) source.Event {
		ev := event(title, "The Garage", "London", "GB", start)
		ev.Source, ev.Ref = src, src+"/"+start
		return ev
	}
	own := func() []source.Event {
		return []source.Event{at("evil", "Own A", "2026-12-20T21:00"), at("evil", "Own B", "2026-12-21T21:00"),
			at("evil", "Own C", "2026-12-22T21:00")}
	}
	tests := []struct {
		name      string
		platforms [][]source.Event // one source each
		guests    []source.Event   // the hostile site's records at The Garage
		wetLegs   int              // gigs titled Wet Leg
	}{
		{"joining two shows", [][]source.Event{{at("tixhub", "Wet Leg", "2026-12-05T19:00")}, {at("gigseek", "Wet Leg", "2026-12-05T21:00")}},
			[]source.Event{at("evil", "Wet Leg", "2026-12-05T20:00")}, 2},
		{"splitting one show", [][]source.Event{{at("tixhub", "Wet Leg", "2026-12-05T20:00")}, {at("gigseek", "Wet Leg", "2026-12-05T20:30")}},
			[]source.Event{at("evil", "Wet Leg", "2026-12-05T20:00"), at("evil", "Wet Leg", "2026-12-05T20:30")}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := newNormalizer(noon, 8)
			var sr SourceReport
			for i, evs := range tt.platforms {
				n.addAll(evs, i, Source{Role: RolePlatform}, &sr)
			}
			evil := append(own(), tt.guests...)
			for i := range evil {
				evil[i].Venue.Name = map[bool]string{true: "Evil Bar", false: "The Garage"}[evil[i].Title != "Wet Leg"]
			}
			n.addAll(evil, len(tt.platforms), Source{Role: RoleVenue}, &sr)
			ds := n.dataset(NewIDStore().begin(), n.clusters())
			got := 0
			for _, g := range ds.Gigs {
				if g.Title == "Wet Leg" {
					got++
					for _, s := range g.Sources {
						if s.Name == "evil" {
							t.Errorf("the guest is in a gig: %+v", g)
						}
					}
				}
			}
			if got != tt.wetLegs {
				t.Errorf("%d Wet Leg gigs, want %d", got, tt.wetLegs)
			}
		})
	}
}

// TestHomeByHint: a hint that names a venue without a city it can place makes home the
// city most of the events at that name are in, never a namesake elsewhere; a name hidden
// behind invisible characters is still home.
func TestHomeByHint(t *testing.T) {
	ev := func(venue, city string) source.Event {
		return event("Show", venue, city, "GB", "2026-12-05T20:00")
	}
	tests := []struct {
		name   string
		hint   *VenueHint
		events []source.Event
		home   []bool
	}{
		{"name only", &VenueHint{Name: "The Garage"},
			[]source.Event{ev("The Garage", "London"), ev("The Garage", "London"), ev("The Garage", "Glasgow"), ev("Evil Bar", "London")},
			[]bool{true, true, false, false}},
		{"name and city", &VenueHint{Name: "The Garage", City: "Glasgow", Country: "GB"},
			[]source.Event{ev("The Garage", "London"), ev("The Garage", "Glasgow"), ev("the garage", "glasgow")},
			[]bool{false, true, true}},
		{"invisible characters", &VenueHint{Name: "The Garage", City: "London", Country: "GB"},
			[]source.Event{ev("The\u00ad Gar\u200bage", "Lon\u200ddon")}, []bool{true}},
		// Which venue a site is, is the operator's word: without a name, none is home.
		{"no hint", nil,
			[]source.Event{ev("Evil Bar", "London"), ev("The Garage", "London"), ev("Evil Bar", "London")},
			[]bool{false, false, false}},
		{"a hint without a name", &VenueHint{City: "London", Country: "GB"},
			[]source.Event{ev("Evil Bar", "London"), ev("Evil Bar", "London")},
			[]bool{false, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := newNormalizer(noon, len(tt.events))
			for i := range tt.events {
				scrub(&tt.events[i])
			}
			atHome := n.home(tt.events, tt.hint)
			for i := range tt.events {
				if got := atHome(&tt.events[i]); got != tt.home[i] {
					t.Errorf("event %d at %s, %s: home %v, want %v", i, tt.events[i].Venue.Name, tt.events[i].Venue.Locality, got, tt.home[i])
				}
			}
		})
	}
}

// atHighbury is src's record of Wet Leg at venue, giving The Garage's street.
func atHighbury(src, venue string) source.Event {
	ev := event("Wet Leg", venue, "London", "GB", "2026-12-05T20:00")
	ev.Source, ev.Ref = src, src+"/wet-leg"
	ev.Venue.Street = "20-22 Highbury Corner"
	ev.Performers = []source.Performer{{Name: "Wet Leg"}}
	return ev
}

// evilSite is a hostile venue site, hinted as its own venue, Evil Bar.
var evilSite = Source{Role: RoleVenue, Home: &VenueHint{Name: "Evil Bar", City: "London", Country: "GB"}}

// sourceRead is one source's record, read in a test's order.
type sourceRead struct {
	src Source
	ev  source.Event
}

// readInOrder normalizes the records in order and returns the dataset they make.
func readInOrder(reads []sourceRead) engine.Dataset {
	n := newNormalizer(noon, len(reads))
	var sr SourceReport
	for i, r := range reads {
		n.addAll([]source.Event{r.ev}, i, r.src, &sr)
	}
	return n.dataset(NewIDStore().begin(), n.clusters())
}

// TestStreetCarriesNoAuthority: a hostile venue site, hinted as its own venue, lists a
// forgery of another venue's show at its own venue's name but with the other venue's
// street. Whichever is read first, and though its name may hold the other's ("Garage Bar"
// and The Garage, a review's case), the other venue keeps its name, and its show its status
// and tickets: the forgery is a gig at the hostile site's venue.
func TestStreetCarriesNoAuthority(t *testing.T) {
	garageSite := Source{Role: RoleVenue, Home: &VenueHint{Name: "The Garage", City: "London", Country: "GB"}}
	platform := sourceRead{Source{Role: RolePrimary}, atHighbury("tixhub", "The Garage")}
	own := sourceRead{garageSite, atHighbury("garage", "The Garage")}
	for _, hostile := range []string{"Evil Bar", "Garage Bar"} {
		forged := atHighbury("evil", hostile)
		forged.Status = engine.StatusCancelled
		forged.Offers = []source.Offer{{URL: "https://evil.example/phish"}}
		evil := sourceRead{Source{Role: RoleVenue, Home: &VenueHint{Name: hostile, City: "London", Country: "GB"}}, forged}
		for _, tc := range []struct {
			name  string
			reads []sourceRead
		}{
			{"platform first", []sourceRead{platform, evil}},
			{"hostile site first", []sourceRead{evil, platform}},
			{"the venue's own site first", []sourceRead{own, evil}},
			{"hostile site before the venue's own", []sourceRead{evil, own}},
		} {
			t.Run(hostile+"/"+tc.name, func(t *testing.T) {
				ds := readInOrder(tc.reads)
				venues := map[string]string{}
				for _, v := range ds.Venues {
					venues[v.Slug] = v.Name
				}
				if len(ds.Gigs) != 2 {
					t.Fatalf("%d gigs, want the show and the forgery apart: %+v", len(ds.Gigs), ds.Gigs)
				}
				for _, g := range ds.Gigs {
					evil := g.Sources[0].Name == "evil"
					if want := map[bool]string{false: "The Garage", true: hostile}[evil]; venues[g.Venue] != want || len(g.Sources) != 1 {
						t.Errorf("gig of %v at %q, want only %s's record at %q", g.Sources, venues[g.Venue], g.Sources[0].Name, want)
					}
					if !evil && (g.Status != engine.StatusScheduled || len(g.Tickets) > 0) {
						t.Errorf("The Garage's show: status %s, tickets %+v", g.Status, g.Tickets)
					}
				}
			})
		}
	}
}

// TestStreetJoinsPlatformsBesideASite: two platforms name one building differently, at one
// street: they are one venue whether or not a venue site giving the same street was read
// before them, as venue sites are: another venue's site (a review's case: its venue held the
// street, and the platforms' records made two gigs) or the building's own, under a name the
// second platform's does not hold ("Islington Assembly Hall", "Assembly Hall Islington").
func TestStreetJoinsPlatformsBesideASite(t *testing.T) {
	other := func(r sourceRead) sourceRead {
		r.ev.Title, r.ev.Performers = "Other Act", []source.Performer{{Name: "Other Act"}}
		r.ev.Start, _ = source.ParseISO("2026-12-06T20:00")
		return r
	}
	site := other(sourceRead{evilSite, atHighbury("site", "Evil Bar")})
	tm := sourceRead{Source{Role: RolePrimary}, atHighbury("tixhub", "The Garage")}
	sk := sourceRead{Source{Role: RolePlatform}, atHighbury("songkick", "Garage Highbury")}
	inIslington := func(src, venue string, role Role, home *VenueHint) sourceRead {
		r := sourceRead{Source{Role: role, Home: home}, atHighbury(src, venue)}
		r.ev.Venue.Street = "44 Parkhurst Road"
		return r
	}
	iah := other(inIslington("site", "Islington Assembly Hall", RoleVenue, &VenueHint{Name: "Islington Assembly Hall", City: "London", Country: "GB"}))
	tmI := inIslington("tixhub", "Islington Assembly Hall", RolePrimary, nil)
	skI := inIslington("songkick", "Assembly Hall Islington", RolePlatform, nil)
	for _, tc := range []struct {
		name  string
		reads []sourceRead
	}{
		{"platforms alone", []sourceRead{tm, sk}},
		{"platforms, then a site at their street", []sourceRead{tm, sk, site}},
		{"a site at their street first", []sourceRead{site, tm, sk}},
		{"the building's own site first", []sourceRead{iah, tmI, skI}},
		{"the building's own site last", []sourceRead{tmI, skI, iah}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := readInOrder(tc.reads)
			wetLeg := 0
			for _, g := range ds.Gigs {
				if g.Sources[0].Name != "site" {
					wetLeg++
				}
			}
			if wetLeg != 1 {
				t.Errorf("%d Wet Leg gigs (venues %+v), want the two platforms' records as one", wetLeg, ds.Venues)
			}
		})
	}
}

// TestStreetPrefersNamesThatAgree: of the venues at one street, a record joins the one its
// name agrees with in part ("Evil Bar Highbury" is Evil Bar's, not The Garage's), whatever
// came first (a review's case).
func TestStreetPrefersNamesThatAgree(t *testing.T) {
	site := sourceRead{evilSite, atHighbury("evil", "Evil Bar")}
	site.ev.Title, site.ev.Performers = "Other Act", []source.Performer{{Name: "Other Act"}}
	sk := sourceRead{Source{Role: RolePlatform}, atHighbury("songkick", "Evil Bar Highbury")}
	sk.ev.Start, _ = source.ParseISO("2026-12-06T20:00")
	tm := sourceRead{Source{Role: RolePrimary}, atHighbury("tixhub", "The Garage")}
	for _, reads := range [][]sourceRead{{site, sk}, {tm, site, sk}} {
		ds := readInOrder(reads)
		venues := map[string]string{}
		for _, v := range ds.Venues {
			venues[v.Slug] = v.Name
		}
		for _, g := range ds.Gigs {
			if g.Sources[0].Name == "songkick" && venues[g.Venue] != "Evil Bar" {
				t.Errorf("%d reads: songkick's 'Evil Bar Highbury' show filed at %q", len(reads), venues[g.Venue])
			}
		}
	}
}

// TestNoWayRoundToAnotherVenue: a hostile site hinted "Garage Bar" reaches The Garage's
// show neither by coordinates beside it once a platform lists the real Garage Bar elsewhere,
// nor by its name once another site's guest record at The Garage's street gave that name
// (reviews of this stop: its forgery cancelled the show both ways).
func TestNoWayRoundToAnotherVenue(t *testing.T) {
	forged := atHighbury("evil", "Garage Bar")
	forged.Venue.Street = ""
	forged.Status = engine.StatusCancelled
	forged.Offers = []source.Offer{{URL: "https://evil.example/phish"}}
	evil := sourceRead{Source{Role: RoleVenue, Home: &VenueHint{Name: "Garage Bar", City: "London", Country: "GB"}}, forged}
	near := evil
	near.ev.Venue.Lat, near.ev.Venue.Lon, near.ev.Venue.HasGeo = 51.5465, -0.1035, true
	elsewhere := event("Someone Else", "Garage Bar", "London", "GB", "2026-12-09T20:00")
	elsewhere.Source, elsewhere.Ref, elsewhere.Venue.Street = "songkick", "songkick/x", "1 Elsewhere Road"
	tmNear := sourceRead{Source{Role: RolePrimary}, atHighbury("tixhub", "The Garage")}
	tmNear.ev.Venue.Street = ""
	tmNear.ev.Venue.Lat, tmNear.ev.Venue.Lon, tmNear.ev.Venue.HasGeo = 51.5466, -0.1036, true

	guest := atHighbury("promoter", "Garage Bar")
	guest.Title, guest.Performers = "Other Act", []source.Performer{{Name: "Other Act"}}
	guest.Start, _ = source.ParseISO("2026-12-07T20:00")
	own := sourceRead{Source{Role: RoleVenue, Home: &VenueHint{Name: "The Garage", City: "London", Country: "GB"}}, atHighbury("garage", "The Garage")}
	promoter := sourceRead{Source{Role: RoleVenue, Home: &VenueHint{Name: "Promoter Hall", City: "London", Country: "GB"}}, guest}
	tm := sourceRead{Source{Role: RolePrimary}, atHighbury("tixhub", "The Garage")}
	for name, reads := range map[string][]sourceRead{
		"coordinates":           {near, {Source{Role: RolePlatform}, elsewhere}, tmNear},
		"a guest's name for it": {own, promoter, evil, tm},
	} {
		for _, g := range readInOrder(reads).Gigs {
			if !slices.ContainsFunc(g.Sources, func(a engine.Attribution) bool { return a.Name == "tixhub" }) {
				continue
			}
			if g.Status != engine.StatusScheduled || slices.ContainsFunc(g.Sources, func(a engine.Attribution) bool { return a.Name == "evil" }) {
				t.Errorf("%s: The Garage's show: status %s, sources %v", name, g.Status, g.Sources)
			}
		}
	}
}

// TestGuestsShareTheirVenue: a site without a hint (all its records guests) lists several
// shows at one venue: one venue, which its name finds (the previous commit made a venue per
// record, and the build refused their equal slugs: TestRealCorpus lost five documents).
func TestGuestsShareTheirVenue(t *testing.T) {
	var reads []sourceRead
	for _, day := range []string{"05", "06", "07"} {
		ev := event("Act "+day, "Kontoret", "Stockholm", "SE", "2026-12-"+day+"T20:00")
		ev.Source, ev.Ref = "calendar", "calendar/"+day
		reads = append(reads, sourceRead{Source{Role: RoleVenue}, ev})
	}
	if ds := readInOrder(reads); len(ds.Venues) != 1 || len(ds.Gigs) != 3 {
		t.Errorf("%d venues, %d gigs; want 1 and 3", len(ds.Venues), len(ds.Gigs))
	}
}
