package ical

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gigs/gigs/loader/source"
)

// Limits that bound the work on hostile input.
const (
	maxLine        = 256 << 10  // bytes of an unfolded content line; longer lines are ignored
	maxDepth       = 8          // nesting of components; deeper ones are ignored
	maxEvents      = 100_000    // VEVENTs read from one document, and events returned, by default
	maxRules       = 8          // RRULEs of one VEVENT
	maxDates       = 2000       // RDATE and EXDATE values of one VEVENT
	maxGenres      = 20         // categories kept per event
	maxSteps       = 10_000_000 // days looked at while expanding all the rules of one document
	maxZones       = 100        // distinct TZIDs looked up in one document
	maxZoneName    = 256        // bytes of a TZID worth looking up
	maxObservances = 200        // STANDARD and DAYLIGHT components of one VTIMEZONE; more make it unusable
	maxRuleZones   = 10         // TZIDs of one document resolved by their VTIMEZONE's rules
	maxInterval    = 100_000    // of an RRULE
	maxCount       = 1 << 30    // of an RRULE
	maxText        = 500        // bytes kept of a text
	maxLink        = 2000       // bytes of a URL; longer ones are ignored
	maxQuote       = 64         // bytes of input quoted in a drop reason
)

// Options bound the expansion of recurring events.
type Options struct {
	// Now is the moment the window of expanded occurrences is measured from; zero means
	// time.Now().
	Now time.Time
	// Horizon is how far after Now occurrences are expanded; zero or less means 365 days.
	Horizon time.Duration
	// MaxOccurrences caps the occurrences one recurring event yields in the window, its
	// RRULEs and RDATEs together; zero or less means DefaultMaxOccurrences.
	MaxOccurrences int
	// MaxEvents caps the VEVENTs read and the events returned; zero or less means
	// 100000. A caller with a cap of its own passes one more, to tell a document over it.
	MaxEvents int
}

// DefaultMaxOccurrences is Options.MaxOccurrences when zero: a show every day for a year.
const DefaultMaxOccurrences = 366

// window is the span in which occurrences of recurring events are kept, both ends included.
type window struct{ from, to time.Time }

// pos tells whether s starts before (-1), in (0) or after (1) the window.
func (w window) pos(s stamp) int {
	t := s.instant()
	switch {
	case t.Before(w.from):
		return -1
	case t.After(w.to):
		return 1
	}
	return 0
}

// Parse reads the events of an iCalendar document. ref names the document (its URL) in
// drops and in the refs of events without a UID. It never panics, on any input, never
// modifies data, and is safe for concurrent use. See the package documentation for what it
// returns.
func Parse(data []byte, ref string, o Options) ([]source.Event, []source.Drop) {
	return newParser(ref, o).parse(data)
}

// newParser applies the defaults of o.
func newParser(ref string, o Options) *parser {
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	if o.Horizon <= 0 {
		o.Horizon = 365 * 24 * time.Hour
	}
	if o.MaxOccurrences <= 0 {
		o.MaxOccurrences = DefaultMaxOccurrences
	}
	if o.MaxEvents <= 0 {
		o.MaxEvents = maxEvents
	}
	return &parser{
		ref:       ref,
		limit:     o.MaxOccurrences,
		win:       window{from: o.Now.Add(-24 * time.Hour), to: o.Now.Add(o.Horizon)},
		zones:     zones{lic: map[string]string{}, rules: map[string]rules{}, cache: map[string]*time.Location{}, year: o.Now.Year()},
		budget:    maxSteps,
		maxEvents: o.MaxEvents,
	}
}

// parse reads data; a parser reads one document.
func (p *parser) parse(data []byte) ([]source.Event, []source.Drop) {
	p.scan(data)
	p.build()
	slices.SortStableFunc(p.drops, func(a, b source.Drop) int { return cmp.Compare(a.Line, b.Line) })
	return p.events, p.drops
}

// parser holds the state of one Parse call.
type parser struct {
	ref    string
	limit  int // occurrences per recurring event
	win    window
	zones  zones
	budget int // expansion steps left

	maxEvents int // VEVENTs read, and events returned

	vevents   []*vevent
	vtzs      []*vtimezone
	calZone   *time.Location // X-WR-TIMEZONE of the calendar, when it names a zone
	calendars int            // BEGIN:VCALENDAR lines seen
	full      bool           // p.maxEvents events were returned

	events []source.Event
	drops  []source.Drop
}

// drop records that something at line could not be used, and why.
func (p *parser) drop(line int, reason string) {
	p.drops = append(p.drops, source.Drop{Ref: p.ref, Line: line, Reason: reason})
}

// vevent holds the properties of one VEVENT that the adapter reads, as written. A property
// that may occur once keeps its first occurrence.
type vevent struct {
	index  int // 1-based position among the document's VEVENTs
	line   int // of BEGIN:VEVENT
	closed bool

	uid, summary, location, geo, url, status, sequence *prop
	appleLocation                                      *prop // X-APPLE-STRUCTURED-LOCATION: coordinates where GEO is missing
	dtstart, dtend, duration, recurrenceID, exrule     *prop

	rrules, rdates, exdates, categories []prop
	dates                               int    // RDATE and EXDATE values kept
	tooMany                             string // the property that exceeded its limit
}

// add keeps p when the adapter reads it.
func (v *vevent) add(p prop) {
	one := func(dst **prop) {
		if *dst == nil {
			*dst = &p
		}
	}
	switch p.name {
	case "UID":
		one(&v.uid)
	case "SUMMARY":
		one(&v.summary)
	case "LOCATION":
		one(&v.location)
	case "GEO":
		one(&v.geo)
	case "X-APPLE-STRUCTURED-LOCATION":
		one(&v.appleLocation)
	case "URL":
		one(&v.url)
	case "STATUS":
		one(&v.status)
	case "SEQUENCE":
		one(&v.sequence)
	case "DTSTART":
		one(&v.dtstart)
	case "DTEND":
		one(&v.dtend)
	case "DURATION":
		one(&v.duration)
	case "RECURRENCE-ID":
		one(&v.recurrenceID)
	case "EXRULE":
		one(&v.exrule)
	case "RRULE":
		if len(v.rrules) == maxRules {
			v.tooMany = "rrule"
			return
		}
		v.rrules = append(v.rrules, p)
	case "RDATE", "EXDATE":
		n := strings.Count(p.value, ",") + 1
		if v.dates+n > maxDates {
			v.tooMany = strings.ToLower(p.name)
			return
		}
		v.dates += n
		if p.name == "RDATE" {
			v.rdates = append(v.rdates, p)
		} else {
			v.exdates = append(v.exdates, p)
		}
	case "CATEGORIES":
		if len(v.categories) < maxGenres {
			v.categories = append(v.categories, p)
		}
	}
}

// vtimezone holds what the adapter reads of a VTIMEZONE.
type vtimezone struct {
	tzid, location string // TZID and X-LIC-LOCATION
	rules          rules  // its STANDARD and DAYLIGHT observances
}

// frame is an open component.
type frame struct {
	name string
	line int
	ev   *vevent
	tz   *vtimezone
	obs  *observance // a STANDARD or DAYLIGHT of a VTIMEZONE
}

var bom = []byte("\xEF\xBB\xBF")

// scan reads the components of the document: VEVENTs with their properties and the
// locations of VTIMEZONEs. The properties of other components, such as a VALARM within a
// VEVENT, are skipped. Structural faults become drops.
func (p *parser) scan(data []byte) {
	lx := lexer{data: bytes.TrimPrefix(data, bom)}
	var stack []frame
	skip := 0       // depth within components that are ignored
	capped := false // p.maxEvents VEVENTs were read
	for {
		line, text, long, ok := lx.next()
		if !ok {
			break
		}
		if long {
			p.drop(line, fmt.Sprintf("content line longer than %d bytes: ignored", maxLine))
			continue
		}
		pr, err := parseProp(text)
		if pr.name == "" {
			continue // not a content line
		}
		pr.line = line
		switch pr.name {
		case "BEGIN":
			name := strings.ToUpper(strings.TrimSpace(pr.value))
			if err != nil || !isName(name) {
				continue
			}
			switch {
			case skip > 0:
				skip++
				continue
			case len(stack) == maxDepth:
				p.drop(line, fmt.Sprintf("components nested deeper than %d: begin:%s and what it holds are ignored", maxDepth, clip(strings.ToLower(name), maxQuote)))
				skip++
				continue
			case name == "VEVENT" && len(p.vevents) == p.maxEvents:
				if !capped {
					p.drop(line, fmt.Sprintf("more than %d vevents: the rest are ignored", p.maxEvents))
					capped = true
				}
				skip++
				continue
			}
			f := frame{name: name, line: line}
			switch name {
			case "VCALENDAR":
				p.calendars++
			case "VEVENT":
				f.ev = &vevent{index: len(p.vevents) + 1, line: line}
				p.vevents = append(p.vevents, f.ev)
			case "VTIMEZONE":
				f.tz = &vtimezone{}
				p.vtzs = append(p.vtzs, f.tz)
			case "STANDARD", "DAYLIGHT":
				if n := len(stack); n > 0 && stack[n-1].tz != nil {
					switch tz := stack[n-1].tz; {
					case len(tz.rules) < maxObservances:
						f.obs = &observance{daylight: name == "DAYLIGHT"}
						tz.rules = append(tz.rules, f.obs)
					case len(tz.rules) == maxObservances:
						// One more, never read: a history cut short would give wrong offsets.
						tz.rules = append(tz.rules, &observance{})
					}
				}
			}
			stack = append(stack, f)
		case "END":
			name := strings.ToUpper(strings.TrimSpace(pr.value))
			if err != nil || !isName(name) {
				continue
			}
			if skip > 0 {
				skip--
				continue
			}
			i := len(stack) - 1
			for i >= 0 && stack[i].name != name {
				i--
			}
			if i < 0 {
				n := clip(strings.ToLower(name), maxQuote)
				p.drop(line, fmt.Sprintf("end:%s without begin:%s", n, n))
				continue
			}
			// Components left open inside this one end with it; a VEVENT among them is
			// not closed and is dropped later.
			if stack[i].ev != nil {
				stack[i].ev.closed = true
			}
			stack = stack[:i]
		default:
			if skip > 0 || len(stack) == 0 {
				continue
			}
			switch top := stack[len(stack)-1]; {
			case top.name == "VCALENDAR" && pr.name == "X-WR-TIMEZONE" && err == nil && p.calZone == nil:
				if p.calZone = resolveZone(pr.value); p.calZone == nil {
					p.drop(line, fmt.Sprintf("x-wr-timezone %q is not a time zone: floating times stay venue-local", clip(pr.value, maxQuote)))
				}
			case top.ev != nil:
				pr.err = err
				top.ev.add(pr)
			case top.obs != nil && err == nil:
				top.obs.add(pr.name, pr.value)
			case top.tz != nil && err == nil:
				switch pr.name {
				case "TZID": // a TEXT value, escaped where a TZID parameter is quoted
					top.tz.tzid = cmp.Or(top.tz.tzid, strings.TrimSpace(unescape(pr.value)))
				case "X-LIC-LOCATION":
					top.tz.location = cmp.Or(top.tz.location, strings.TrimSpace(unescape(pr.value)))
				}
			}
		}
	}
	for _, f := range stack {
		if f.name == "VCALENDAR" {
			p.drop(f.line, "begin:vcalendar without end:vcalendar: the document may be truncated")
		}
	}
	if p.calendars == 0 && len(p.vevents) == 0 {
		p.drop(0, "no begin:vcalendar: not an icalendar document")
	}
	for _, tz := range p.vtzs {
		if tz.tzid != "" && tz.location != "" && p.zones.lic[tz.tzid] == "" {
			p.zones.lic[tz.tzid] = tz.location
		}
		if tz.tzid != "" && p.zones.rules[tz.tzid] == nil {
			p.zones.rules[tz.tzid] = tz.rules
		}
	}
}
