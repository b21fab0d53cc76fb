package demo

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gigs/gigs/engine"
)

// format is how a venue website publishes its listings.
type format int

const (
	jsonLD format = iota
	microdata
	iCal
	formatCount
)

// formatNames are the formats as sources.json names them.
var formatNames = [...]string{jsonLD: "jsonld", microdata: "microdata", iCal: "ical"}

// fault is how a broken website fails.
type fault int

const (
	noFault     fault = iota
	notFound          // the listing answers 404
	serverErr         // 500
	unavailable       // 503 with Retry-After
	stall             // the server stalls longer than any sane timeout
	badCharset        // Latin-1 bytes served as charset=utf-8
	oversized         // the page is larger than 8 MiB
	robotsDeny        // robots.txt refuses the gigs agent
	flaky             // the first request fails with 500, later ones work
	faultCount
)

// faultNames name faults in faults.json.
var faultNames = [...]string{
	noFault: "", notFound: "not-found", serverErr: "server-error", unavailable: "unavailable",
	stall: "stall", badCharset: "wrong-charset", oversized: "oversized", robotsDeny: "robots",
	flaky: "flaky",
}

// faultQuota is how many sites fail each way: 32 of siteCount, about 10%.
var faultQuota = [faultCount]int{notFound: 5, serverErr: 4, unavailable: 4, stall: 4, badCharset: 4, oversized: 1, robotsDeny: 5, flaky: 5}

// formatQuota is how many working sites publish each format: about 55% JSON-LD, 20%
// microdata and 15% iCal of siteCount; broken sites take the rest, spread over formats.
var formatQuota = [formatCount]int{jsonLD: 176, microdata: 64, iCal: 48}

// robotsForm is what a site's robots.txt says.
type robotsForm int

const (
	robotsAllow     robotsForm = iota // "User-agent: *" with an empty Disallow
	robotsUnrelated                   // disallows admin and cart paths, names a sitemap
	robotsOtherBots                   // shuts out some crawlers by name, not gigs
	robotsNone                        // no robots.txt: 404
	robotsRefuse                      // "User-agent: gigs / Disallow: /"
)

// idForm is how a page identifies its events.
type idForm int

const (
	idAbsolute idForm = iota // "@id"/itemid "http://host/events/123"
	idRelative               // "/events/123", resolved against the page URL
	idFragment               // "#event-123"
	idNone                   // no identifier: the ref is the page URL and the event's position
)

// site is a venue's website.
type site struct {
	host   string // lower-case host name under .test
	path   string // the listing's path, from "/"
	format format
	fault  fault
	robots robotsForm
	ids    idForm
	hint   bool // sources.json gives the venue's city, country and zone with its name (see sourcesJSON)
}

// url returns the listing's URL, as sources.json names it and refs are resolved against.
func (s *site) url() string { return "http://" + s.host + s.path }

// file returns the listing's file path under the corpus's sites directory.
func (s *site) file() string {
	p := s.host + s.path
	if strings.HasSuffix(p, "/") {
		p += "index.html"
	}
	return p
}

// Listing paths by format.
var (
	htmlPaths = []string{"/", "/whats-on/", "/events/", "/programme/", "/programm/", "/agenda/", "/concerts.html", "/live/index.html", "/calendar/", "/shows/"}
	icalPaths = []string{"/events.ics", "/calendar.ics", "/feeds/gigs.ics", "/ical/events.ics", "/whats-on/calendar.ics"}
)

var hostRE = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.test$`)

// assignSites decides which venues have a website and gives each website its format,
// fault, host, path, robots.txt, identifier form and hint. The hand-written venues all have
// websites; the busy ones and those in cities that must show +05:30, +05:45 and −03:30
// offsets publish working JSON-LD.
func assignSites(r *rand.Rand, vs []*venue) {
	generated := len(vs) - len(venueRows)
	noSite := map[int]bool{} // lookups only
	for _, i := range r.Perm(generated)[:len(vs)-siteCount] {
		noSite[len(venueRows)+i] = true
	}
	var forced, free []*venue
	for _, v := range vs {
		switch {
		case noSite[v.index]:
		case v.index < len(venueRows) && (v.city.offsets || v.size == big || v.entities):
			forced = append(forced, v)
		default:
			free = append(free, v)
		}
	}
	type slot struct {
		f      format
		broken bool
	}
	var slots []slot
	for f, n := range formatQuota {
		for range n {
			slots = append(slots, slot{format(f), false})
		}
	}
	broken := 0
	for _, n := range faultQuota {
		broken += n
	}
	for i := range broken {
		slots = append(slots, slot{[]format{jsonLD, jsonLD, microdata, iCal}[i%4], true})
	}
	for _, v := range forced {
		v.site = &site{format: jsonLD}
		slots = slots[1:] // the first slots are working JSON-LD ones
	}
	r.Shuffle(len(slots), func(i, j int) { slots[i], slots[j] = slots[j], slots[i] })
	var brokenSites []*venue
	for i, v := range free {
		v.site = &site{format: slots[i].f}
		if slots[i].broken {
			brokenSites = append(brokenSites, v)
		}
	}
	assignFaults(r, brokenSites)
	hosts := map[string]bool{} // lookups only
	var bySite []*venue
	for _, v := range vs {
		if v.site == nil {
			continue
		}
		bySite = append(bySite, v)
		s := v.site
		s.host = hostName(r, v, hosts)
		if s.format == iCal {
			s.path = pick(r, icalPaths)
		} else {
			s.path = pick(r, htmlPaths)
		}
		s.robots = pickWeighted(r, []robotsForm{robotsAllow, robotsUnrelated, robotsOtherBots, robotsNone}, []int{50, 25, 10, 15})
		if s.fault == robotsDeny {
			s.robots = robotsRefuse
		}
	}
	var jl, md []*venue
	for _, v := range bySite {
		switch v.site.format {
		case jsonLD:
			jl = append(jl, v)
		case microdata:
			md = append(md, v)
		}
	}
	for i, x := range spread(r, len(jl), 7) {
		jl[i].site.ids = []idForm{idAbsolute, idAbsolute, idAbsolute, idRelative, idRelative, idFragment, idNone}[x]
	}
	for i, x := range spread(r, len(md), 4) {
		md[i].site.ids = []idForm{idAbsolute, idRelative, idNone, idNone}[x]
	}
	hints := spread(r, len(bySite), 2)
	for i, v := range bySite {
		v.site.hint = v.site.format == iCal || hints[i] == 0
	}
}

// assignFaults gives broken sites their faults by faultQuota: the wrong charset to sites
// whose own name or address has letters Latin-1 encodes differently from UTF-8, the
// oversized page to an HTML site.
func assignFaults(r *rand.Rand, vs []*venue) {
	var want []fault
	for f, n := range faultQuota {
		for range n {
			want = append(want, fault(f))
		}
	}
	taken := make([]bool, len(vs))
	take := func(f fault, ok func(*venue) bool) {
		for _, i := range r.Perm(len(vs)) {
			if !taken[i] && ok(vs[i]) {
				taken[i], vs[i].site.fault = true, f
				return
			}
		}
		for i := range vs { // nothing fits: any free site
			if !taken[i] {
				taken[i], vs[i].site.fault = true, f
				return
			}
		}
	}
	for _, f := range want {
		switch f {
		case badCharset:
			take(f, func(v *venue) bool { return latin1Only(v.name+v.street) && !isASCII(v.name+v.street) })
		case oversized:
			take(f, func(v *venue) bool { return v.site.format != iCal })
		}
	}
	for _, f := range want {
		if f != badCharset && f != oversized {
			take(f, func(*venue) bool { return true })
		}
	}
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// latin1Only reports whether every rune of s is in Latin-1.
func latin1Only(s string) bool {
	for _, c := range s {
		if c > 0xff {
			return false
		}
	}
	return true
}

// hostName gives a venue website a host name under .test, in one of the forms venues use,
// unique among hosts.
func hostName(r *rand.Rand, v *venue, hosts map[string]bool) string {
	slug := engine.Slugify(v.name)
	bare := strings.TrimPrefix(slug, "the-")
	join := func(s string) string { return strings.ReplaceAll(s, "-", "") }
	citySlug := strings.TrimSuffix(strings.TrimSuffix(v.city.key, "-gb"), "-ca")
	cc := strings.ToLower(v.city.country)
	forms := []string{
		"www." + slug + ".test",
		join(slug) + ".test",
		join(slug) + join(citySlug) + ".test",
		bare + "-" + citySlug + ".test",
		"www." + join(bare) + "." + cc + ".test",
		bare + "-live.test",
	}
	first := r.IntN(len(forms))
	for i := range forms {
		h := forms[(first+i)%len(forms)]
		if hostRE.MatchString(h) && !hosts[h] {
			hosts[h] = true
			return h
		}
	}
	for n := 2; ; n++ {
		h := join(bare) + join(citySlug) + strconv.Itoa(n) + ".test"
		if hostRE.MatchString(h) && !hosts[h] {
			hosts[h] = true
			return h
		}
	}
}
