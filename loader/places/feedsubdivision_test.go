package places

import "testing"

// TestFeedSubdivision reads British venues' lines as their calendars write them (a town,
// its county, no country) in a feed whose zone is Europe/London, and lines the feed's
// country must not move.
func TestFeedSubdivision(t *testing.T) {
	g := Default()
	london := Context{Zone: "Europe/London", ZoneBy: "the calendar's X-WR-TIMEZONE"}
	newYork := Context{Zone: "America/New_York", ZoneBy: "the calendar's X-WR-TIMEZONE"}
	for _, tt := range []struct {
		line string
		ctx  Context
		want string // the city's slug; "" when dropped
	}{
		{"Canterbury, Kent, CT1 2RA", london, "canterbury"}, // not Kent, Washington
		{"Canterbury, Kent", london, "canterbury"},
		{"Colchester, Essex, CO1 1AA", london, "colchester-gb"},    // not Essex, Maryland
		{"Guildford, Surrey", london, "guildford"},                 // not Surrey, British Columbia
		{"Truro, Cornwall, TR1 2LL", london, "truro-gb"},           // not Cornwall, Ontario
		{"Norwich, Norfolk, NR2 4PG", london, "norwich-gb"},        // not Norfolk Island
		{"Canterbury, Kent", Context{Country: "GB"}, "canterbury"}, // the operator's hint
		{"Chester, Cheshire, CH1 3NZ", london, "chester-gb"},       // a county the table lacks: not Cheshire, Connecticut
		{"Chester, Cheshire", london, "chester-gb"},
		// Counties ISO 3166-2 lacks: ceremonial and metropolitan ones (gen/subdivisions/counties.tsv).
		{"Leeds, West Yorkshire", london, "leeds"},
		{"Wallasey, Merseyside", london, "wallasey"},
		{"Wolverhampton, West Midlands", london, "wolverhampton"},
		{"Doncaster, South Yorkshire", london, "doncaster-gb"},
		{"Bolton, Greater Manchester", london, "bolton"},
		{"Gateshead, Tyne and Wear", london, "gateshead"},
		{"Aberdeen, Aberdeen City", london, "aberdeen-gb"},
		// What the plain reading places in the feed's clock or country is kept.
		{"Exeter, Devon", london, "exeter"},
		// Not a subdivision of the feed's country: the plain reading stands.
		{"Perth, Western Australia", london, "perth"},
		{"London, Ontario", london, "london-ca"},
		{"Hamilton, Bermuda", london, "hamilton-bm"},
		{"Canterbury, Kent", newYork, "kent-wa-us"},
		// A country stated: context never overrides it.
		{"Kent, US", london, "kent-wa-us"},
	} {
		r, err := g.Read(Place{Locality: tt.line}, tt.ctx)
		got := ""
		if err == nil {
			got = r.City.Slug
		}
		if got != tt.want {
			t.Errorf("Read(%q, %s) = %q (%v, %q); want %q", tt.line, cmpOr(tt.ctx.Zone, tt.ctx.Country), got, err, r.By, tt.want)
		}
	}
}
