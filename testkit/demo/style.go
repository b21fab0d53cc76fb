package demo

import (
	"math/rand/v2"
	"time"
)

// shape is how a page arranges its JSON-LD.
type shape int

const (
	perEventScripts shape = iota // one <script> per event, after a WebSite block
	eventArray                   // one <script> holding an array of events
	graph                        // one @graph: the venue, then its events
	webPage                      // a WebPage whose mainEntity is an ItemList of ListItems
	shapeCount
)

// performerForm is how a page writes its performers.
type performerForm int

const (
	performerObjects performerForm = iota // always an array of objects
	performerCompact                      // one object alone, an array for a bill
	performerText                         // names as plain text: a string, or an array of them
	performerFormCount
)

// offerForm is how a page writes its offers.
type offerForm int

const (
	singleOffer    offerForm = iota // one Offer
	offerPair                       // an array of two Offers: advance and door
	aggregateOffer                  // an AggregateOffer with lowPrice and highPrice
	offerFormCount
)

// countryForm is how a page writes addressCountry.
type countryForm int

const (
	countryCode    countryForm = iota // "GB"
	countryEnglish                    // "United Kingdom"
	countryLocal                      // "Deutschland", or the English name without a local one
	countryObject                     // {"@type":"Country","name":"Japan"}
	countryFormCount
)

// titleForm is how a page names its events.
type titleForm int

const (
	titleHeadliner titleForm = iota // "Headliner"
	titlePlus                       // "Headliner + Support + Support"
	titleWith                       // "Headliner with Support and Support"
	titleTour                       // "Headliner: The … Tour" for touring acts
	titleFormCount
)

// Time layouts pages use for startDate, doorTime, endDate and previousStartDate.
var (
	offsetLayouts = []string{"2006-01-02T15:04:05Z07:00", "2006-01-02T15:04:05-07:00", "2006-01-02T15:04-07:00", "2006-01-02T15:04:05-0700"}
	localLayouts  = []string{"2006-01-02T15:04:05", "2006-01-02T15:04"}
)

// dateLayout writes a date-only start: the time is to be announced.
const dateLayout = "2006-01-02"

// Start tags of JSON-LD blocks, each with its end tag; some reorder attributes or shout.
var scriptTags = [][2]string{
	{`<script type="application/ld+json">`, `</script>`},
	{`<script data-rh="true" type="application/ld+json">`, `</script>`},
	{`<SCRIPT TYPE="application/ld+json">`, `</SCRIPT>`},
	{`<script type="application/ld+json" data-cfasync="false">`, `</script>`},
	{`<script class="schema" type='application/ld+json'>`, `</script>`},
}

// clubSeries are names of club nights; each club runs one.
var clubSeries = []string{
	"Tiefgang", "Low Frequency", "Nachtschicht", "Warehouse Sessions", "Deep Cuts",
	"Afterglow", "Bassline Society", "Noite Longa", "Static Bloom", "Red Light Room",
}

// style is everything a venue's page does its own way. It never changes within a page.
// The JSON-LD fields also shape microdata pages where they apply.
type style struct {
	shape       shape
	scriptTag   int
	context     string // @context value
	eventType   any    // "MusicEvent", "Event" or ["Event","MusicEvent"]
	placeType   string // location @type
	layout      string // time layout, from offsetLayouts or localLayouts
	doors       time.Duration
	ends        bool
	status      bool // scheduled events carry eventStatus EventScheduled
	performers  performerForm
	eventGenre  bool // events carry their own "genre"
	spelling    int  // rotates genre spellings
	offers      offerForm
	priceText   bool // prices as strings
	geoText     bool // coordinates as strings
	country     countryForm
	locality    string
	escapeHTML  bool // encoding/json's \u003c \u0026 escaping, rather than raw text
	indent      bool
	title       titleForm
	shout       bool   // "SOLD OUT:" and "CANCELLED:" prefixes in titles
	usual       int    // usual start, minutes after midnight
	series      string // club night series, "" for venues without club nights
	firstID     int    // number of the page's first event
	images      bool
	breadcrumbs bool // the page carries a BreadcrumbList block too
	inHead      bool // JSON-LD blocks go in <head> rather than at the end of <body>

	md  mdStyle
	ics icsStyle
}

// mdStyle is how a microdata page marks its events up.
type mdStyle struct {
	timeTag bool   // startDate in <time datetime>, else in <meta content>
	wrap    int    // events as 0 <article>, 1 <li> of a <ul>, 2 <div> rows
	scheme  string // "https://schema.org/" or "http://schema.org/"
}

// icsStyle is how an iCalendar feed writes its events.
type icsStyle struct {
	tz          tzMode
	bom         bool // the feed starts with a UTF-8 byte order mark
	lf          bool // lines end in LF alone, not CRLF
	naiveFold   bool // long lines fold at 75 octets even inside a UTF-8 character
	uid         int  // UID form, see uidOf
	prodid      string
	fullAddress bool // LOCATION holds the address too, not only the venue name
	categories  bool
	description bool
	calName     bool // X-WR-CALNAME and X-WR-CALDESC
	wrTimezone  bool // X-WR-TIMEZONE names the venue's zone
	quoteTZID   bool // TZID="W. Europe Standard Time"
	dtend       bool
}

// tzMode is how a feed writes DTSTART.
type tzMode int

const (
	tzIANA        tzMode = iota // TZID=Europe/Berlin with a VTIMEZONE
	tzIANABare                  // TZID=Europe/Berlin without a VTIMEZONE
	tzWindows                   // TZID="W. Europe Standard Time" with a VTIMEZONE
	tzWindowsBare               // a Windows zone name without a VTIMEZONE
	tzUTC                       // UTC times with "Z"
	tzFloating                  // local times without a zone
	tzModeCount
)

// prodIDs are PRODID values of the programs venues export their calendars with.
var prodIDs = []string{
	"-//Google Inc//Google Calendar 70.9054//EN",
	"-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN",
	"-//The Events Calendar//NONSGML v6.8//EN",
	"-//Apple Inc.//macOS 15.1//EN",
	"-//gigs demo//Venue CMS 2.3//EN",
}

// assignStyles gives every venue a style. Each choice with few options is spread evenly
// over the venues it applies to in random order, so every option appears whatever the
// seed; choices whose share of gigs matters are spread evenly within each venue size.
// Sites must be assigned first: format-specific choices are spread within each format.
func assignStyles(r *rand.Rand, vs []*venue) {
	n := len(vs)
	offsets := spreadBySize(r, vs, 2)
	doors := spreadBySize(r, vs, 2)
	ends := spread(r, n, 3)
	status := spread(r, n, 2)
	titles := spread(r, n, int(titleFormCount))
	for i, v := range vs {
		s := &v.style
		if v.city.offsets || offsets[i] == 0 {
			s.layout = pick(r, offsetLayouts)
		} else {
			s.layout = pick(r, localLayouts)
		}
		if doors[i] == 0 {
			s.doors = time.Duration(30+15*r.IntN(3)) * time.Minute
		}
		s.ends = ends[i] == 0
		s.status = status[i] == 0
		s.title = titleForm(titles[i])
		s.shout = r.IntN(3) == 0
		s.usual = usualStart(r, v.kind)
		if v.kind == club {
			s.series = pick(r, clubSeries)
		}
		s.firstID = 1000 + 10*r.IntN(800)
		s.spelling = r.IntN(12)
		s.locality = v.city.name
		if len(v.city.aka) > 0 && r.IntN(5) < 2 {
			s.locality = pick(r, v.city.aka)
		}
	}
	var byFormat [formatCount][]*venue
	for _, v := range vs {
		if v.site != nil {
			byFormat[v.site.format] = append(byFormat[v.site.format], v)
		}
	}
	jsonLDStyles(r, byFormat[jsonLD])
	microdataStyles(r, byFormat[microdata])
	icalStyles(r, byFormat[iCal])
}

// jsonLDStyles makes the choices only JSON-LD pages have.
func jsonLDStyles(r *rand.Rand, vs []*venue) {
	n := len(vs)
	shapes := spread(r, n, int(shapeCount))
	tags := spread(r, n, len(scriptTags))
	types := spread(r, n, 3)
	performers := spread(r, n, int(performerFormCount))
	offers := spread(r, n, int(offerFormCount))
	prices := spread(r, n, 2)
	geos := spread(r, n, 2)
	countryForms := spread(r, n, int(countryFormCount))
	escapes := spread(r, n, 2)
	for i, v := range vs {
		s := &v.style
		s.shape = shape(shapes[i])
		s.scriptTag = tags[i]
		s.context = pick(r, []string{"https://schema.org", "https://schema.org", "http://schema.org", "https://schema.org/"})
		s.eventType = []any{"MusicEvent", "Event", []string{"Event", "MusicEvent"}}[types[i]]
		s.placeType = pick(r, []string{"Place", "MusicVenue"})
		s.performers = performerForm(performers[i])
		s.eventGenre = r.IntN(3) == 0
		s.offers = offerForm(offers[i])
		s.priceText = prices[i] == 0
		s.geoText = geos[i] == 0
		s.country = countryForm(countryForms[i])
		s.escapeHTML = escapes[i] == 0 && !v.entities // entities show as written: &amp;
		s.indent = r.IntN(4) == 0
		s.images = r.IntN(2) == 0
		s.breadcrumbs = r.IntN(4) == 0
		s.inHead = r.IntN(2) == 0
	}
}

// microdataStyles makes the choices of microdata pages.
func microdataStyles(r *rand.Rand, vs []*venue) {
	n := len(vs)
	types := spread(r, n, 2)
	performers := spread(r, n, 2)
	offers := spread(r, n, 2)
	prices := spread(r, n, 2)
	countryForms := spread(r, n, int(countryFormCount))
	times := spread(r, n, 2)
	wraps := spread(r, n, 3)
	for i, v := range vs {
		s := &v.style
		s.eventType = []string{"MusicEvent", "Event"}[types[i]]
		s.placeType = pick(r, []string{"Place", "MusicVenue"})
		s.performers = []performerForm{performerObjects, performerText}[performers[i]]
		s.offers = []offerForm{singleOffer, aggregateOffer}[offers[i]]
		s.priceText = prices[i] == 0
		s.country = countryForm(countryForms[i])
		s.md = mdStyle{timeTag: times[i] == 0, wrap: wraps[i], scheme: pick(r, []string{"https://schema.org/", "https://schema.org/", "http://schema.org/"})}
		s.images = r.IntN(2) == 0
	}
}

// icalStyles makes the choices of iCalendar feeds.
func icalStyles(r *rand.Rand, vs []*venue) {
	n := len(vs)
	zones := spread(r, n, int(tzModeCount))
	boms := spread(r, n, 4)
	lfs := spread(r, n, 4)
	folds := spread(r, n, 2)
	for i, v := range vs {
		s := &v.style
		if s.title != titlePlus {
			s.title = titleHeadliner // SUMMARY is "Headliner + Support" or "Headliner"
		}
		s.ics = icsStyle{
			tz:          tzMode(zones[i]),
			bom:         boms[i] == 0,
			lf:          lfs[i] == 0,
			naiveFold:   folds[i] == 0,
			uid:         r.IntN(4),
			prodid:      pick(r, prodIDs),
			fullAddress: r.IntN(2) == 0,
			categories:  r.IntN(3) > 0,
			description: r.IntN(2) == 0,
			calName:     r.IntN(3) > 0,
			wrTimezone:  r.IntN(2) == 0,
			quoteTZID:   r.IntN(4) == 0,
			dtend:       s.ends,
		}
		if s.ics.tz == tzFloating {
			s.ics.wrTimezone = r.IntN(3) > 0
		}
	}
}

// usualStart returns a typical first start time for a kind of venue, in minutes.
func usualStart(r *rand.Rand, k venueKind) int {
	switch k {
	case bar:
		return pick(r, []int{20 * 60, 20*60 + 30, 21 * 60})
	case club:
		return pick(r, []int{20 * 60, 21 * 60})
	default:
		return pick(r, []int{19 * 60, 19*60 + 30, 20 * 60})
	}
}

// spread returns n values in [0, k), each appearing n/k or n/k+1 times, in random order.
func spread(r *rand.Rand, n, k int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i % k
	}
	r.Shuffle(n, func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// spreadBySize is spread within each venue size, so that each value also gets about the
// same share of gigs.
func spreadBySize(r *rand.Rand, vs []*venue, k int) []int {
	out := make([]int, len(vs))
	for _, size := range []venueSize{small, mid, big} {
		var idx []int
		for i, v := range vs {
			if v.size == size {
				idx = append(idx, i)
			}
		}
		for j, x := range spread(r, len(idx), k) {
			out[idx[j]] = x
		}
	}
	return out
}
