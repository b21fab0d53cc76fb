package ical

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/places"
	"github.com/gigs/gigs/loader/source"
)

// entry is a VEVENT read into values.
type entry struct {
	v        *vevent
	uid      string
	base     string // the ref of the event: its UID, or ref#index without one
	who      string // names the VEVENT in drop reasons
	start    stamp
	end      *stamp    // DTEND
	dur      *duration // DURATION, when there is no DTEND
	rid      *stamp    // RECURRENCE-ID: the VEVENT overrides one occurrence of a series
	ridStart bool      // the override has no DTSTART: it starts at its RECURRENCE-ID
	ridErr   error     // why rid's TZID cannot be read: rid is then its wall, floating
	future   bool      // RANGE=THISANDFUTURE: it overrides the later occurrences too
	seq      int       // SEQUENCE

	recur  bool // it has an RRULE or an RDATE
	rules  []*rule
	rdates []stamp // in start's form
	// periodEnd holds the ends of RDATE periods (start/end, start/duration), by the
	// wall of their start in start's form.
	periodEnd map[int64]stamp
	exdates   []stamp // as stated

	ev source.Event // what every occurrence shares: Line, Title, URL, Status, Venue, Genres

	// For a master (no RECURRENCE-ID): whether the refs of its occurrences carry their
	// dates, and its overrides in document order, by the wall of the occurrence they
	// replace. For an override: its master, when the document has it.
	dated      bool
	overrides  []*entry
	overrideAt map[int64]int
	master     *entry
}

// build reads the VEVENTs into entries, ties overrides to their series, and emits the
// events in document order.
func (p *parser) build() {
	var entries []*entry
	for _, v := range p.vevents {
		if e := p.entry(v); e != nil {
			entries = append(entries, e)
		}
	}
	masters := map[string]*entry{} // UID → the first master with a summary
	count := map[string]int{}      // UID → masters
	for _, e := range entries {
		if e.rid == nil && e.uid != "" {
			count[e.uid]++
			if masters[e.uid] == nil && e.ev.Title != "" {
				masters[e.uid] = e
			}
		}
	}
	placed := entries[:0]
	for _, e := range entries {
		m := masters[e.uid]
		if e.uid == "" {
			m = nil
		}
		if e.rid != nil && !e.placeable(m) {
			pr := e.v.recurrenceID
			p.drop(pr.line, fmt.Sprintf("vevent %s: cannot read recurrence-id %q: %v", e.who, clip(pr.value, maxQuote), e.ridErr))
			continue
		}
		placed = append(placed, e)
	}
	entries = placed
	for _, e := range entries {
		if e.rid == nil {
			// A UID that several masters share would give them all one ref.
			e.dated = e.recur || count[e.uid] > 1
		} else if m := masters[e.uid]; m != nil && e.uid != "" {
			e.master = m
			if e.ridStart {
				e.start = e.rid.in(m.start) // stated in the series' zone, as its occurrences are
			}
			e.inherit(m)
			m.attach(e)
		}
	}
	p.events = make([]source.Event, 0, min(len(entries), p.maxEvents)) // enough when none recurs
	for _, e := range entries {
		switch {
		case e.master != nil: // emitted with its master
		case e.ev.Title == "":
			p.drop(e.v.line, fmt.Sprintf("vevent %s: no summary", e.who))
		default:
			p.emit(e)
		}
	}
}

// placeable reports whether override e can be placed, m being its series (nil when the
// document has none): always, unless its RECURRENCE-ID's zone is unknown (ridErr). Then
// only its date is known, which names an occurrence of an all-day series, and names the
// ref of an override without a series; an override that would start at it has no start.
func (e *entry) placeable(m *entry) bool {
	switch {
	case e.ridErr == nil:
		return true
	case m != nil:
		return m.start.form == dateOnly
	}
	return !e.ridStart
}

// entry reads a VEVENT, or drops it and returns nil when it cannot be used.
func (p *parser) entry(v *vevent) *entry {
	e := &entry{v: v, ev: source.Event{Line: v.line}}
	if v.uid != nil && v.uid.err == nil {
		if e.uid = token(v.uid.value); len(e.uid) > maxLink {
			e.uid = ""
		}
	}
	e.base = cmp.Or(e.uid, p.ref+"#"+strconv.Itoa(v.index))
	if v.summary != nil && v.summary.err == nil {
		e.ev.Title = text(unescape(v.summary.value))
	}
	switch {
	case e.ev.Title != "":
		e.who = strconv.Quote(clip(e.ev.Title, maxQuote))
	case e.uid != "":
		e.who = strconv.Quote(clip(e.uid, maxQuote))
	default:
		e.who = "#" + strconv.Itoa(v.index)
	}
	fail := func(line int, format string, args ...any) *entry {
		p.drop(line, fmt.Sprintf("vevent %s: ", e.who)+fmt.Sprintf(format, args...))
		return nil
	}
	if !v.closed {
		return fail(v.line, "begin:vevent without end:vevent")
	}
	if pr := v.recurrenceID; pr != nil {
		if pr.err != nil {
			return fail(pr.line, "cannot read recurrence-id: %v", pr.err)
		}
		rid, err := p.stampOf(pr, pr.value)
		if err != nil && pr.param("TZID") != "" {
			// Exchange names an all-day series' occurrence by a date-time in a zone of
			// its own ("UTC+01"): its date is enough there (see placeable).
			if wall, werr := parseStamp(pr.value, pr.param("VALUE"), nil); werr == nil {
				rid, e.ridErr, err = wall, err, nil
			}
		}
		if err != nil {
			return fail(pr.line, "cannot read recurrence-id %q: %v", clip(pr.value, maxQuote), err)
		}
		e.rid, e.future = &rid, strings.EqualFold(pr.param("RANGE"), "THISANDFUTURE")
	}
	switch pr := v.dtstart; {
	case pr == nil && e.rid != nil:
		e.start, e.ridStart = *e.rid, true // an override that does not move its occurrence
	case pr == nil:
		return fail(v.line, "no dtstart")
	case pr.err != nil:
		return fail(pr.line, "cannot read dtstart: %v", pr.err)
	default:
		var err error
		if e.start, err = p.stampOf(pr, pr.value); err != nil {
			return fail(pr.line, "cannot read dtstart %q: %v", clip(pr.value, maxQuote), err)
		}
	}
	// Optional values that cannot be read are left out.
	if pr := v.dtend; pr != nil {
		if end, err := p.stampOf(pr, pr.value); err == nil {
			e.end = &end
		}
	} else if pr := v.duration; pr != nil && pr.err == nil {
		if d, err := parseDuration(pr.value); err == nil {
			e.dur = &d
		}
	}
	if v.sequence != nil {
		e.seq, _ = strconv.Atoi(strings.TrimSpace(v.sequence.value))
	}
	if v.status != nil && v.status.err == nil {
		switch strings.ToUpper(strings.TrimSpace(v.status.value)) {
		case "CANCELLED", "CANCELED":
			e.ev.Status = engine.StatusCancelled
		}
	}
	e.ev.Venue = place(v.location, cmp.Or(v.geo, v.appleLocation))
	if e.ev.Venue != (source.Place{}) { // an override without a place inherits its master's
		e.ev.Venue.FeedZone = feedZone(e.start.loc, p.calZone)
	}
	if v.url != nil && v.url.err == nil {
		e.ev.URL = link(v.url.value)
	}
	for _, pr := range v.categories {
		if pr.err != nil {
			continue
		}
		for _, g := range splitText(pr.value) {
			if g = text(g); g != "" && len(e.ev.Genres) < maxGenres {
				e.ev.Genres = append(e.ev.Genres, g)
			}
		}
	}
	return p.recurrence(e)
}

// recurrence reads the RRULEs, RDATEs and EXDATEs of e. A series that cannot be expanded
// as written is dropped whole; an RDATE that cannot be read is left out.
func (p *parser) recurrence(e *entry) *entry {
	v := e.v
	e.recur = len(v.rrules) > 0 || len(v.rdates) > 0
	fail := func(line int, format string, args ...any) *entry {
		p.drop(line, fmt.Sprintf("vevent %s: ", e.who)+fmt.Sprintf(format, args...)+"; the series is dropped")
		return nil
	}
	switch {
	case v.tooMany == "rrule":
		return fail(v.line, "more than %d rrules", maxRules)
	case v.tooMany != "":
		return fail(v.line, "more than %d rdate and exdate values", maxDates)
	case v.exrule != nil:
		return fail(v.exrule.line, "exrule is not supported")
	}
	for _, pr := range v.rrules {
		if pr.err != nil {
			return fail(pr.line, "cannot read rrule: %v", pr.err)
		}
		r, err := parseRule(pr.value)
		if err != nil {
			return fail(pr.line, "rrule %v", err)
		}
		e.rules = append(e.rules, r)
	}
	if !e.recur {
		return e // EXDATE only applies to a series
	}
	for _, pr := range v.exdates {
		if pr.err != nil {
			return fail(pr.line, "cannot read exdate: %v", pr.err)
		}
		for val := range strings.SplitSeq(pr.value, ",") {
			s, err := p.stampOf(&pr, val)
			if err != nil {
				return fail(pr.line, "cannot read exdate %q: %v", clip(val, maxQuote), err)
			}
			e.exdates = append(e.exdates, s)
		}
	}
	for _, pr := range v.rdates {
		if pr.err != nil {
			p.drop(pr.line, fmt.Sprintf("vevent %s: cannot read rdate: %v; its dates are left out", e.who, pr.err))
			continue
		}
		for val := range strings.SplitSeq(pr.value, ",") {
			start, end, period := strings.Cut(val, "/")
			s, err := p.stampOf(&pr, start)
			if err != nil {
				p.drop(pr.line, fmt.Sprintf("vevent %s: cannot read rdate %q: %v; the date is left out", e.who, clip(val, maxQuote), err))
				continue
			}
			e.rdates = append(e.rdates, s.in(e.start))
			if !period {
				continue
			}
			if until, err := p.periodEnd(&pr, s, end); err != nil {
				p.drop(pr.line, fmt.Sprintf("vevent %s: cannot read the end of rdate period %q: %v; it ends as the series does", e.who, clip(val, maxQuote), err))
			} else {
				if e.periodEnd == nil {
					e.periodEnd = map[int64]stamp{}
				}
				e.periodEnd[s.in(e.start).wall.Unix()] = until
			}
		}
	}
	return e
}

// periodEnd reads the end of an RDATE period that starts at s: a date-time, or a duration
// after s. An end before the start is an error.
func (p *parser) periodEnd(pr *prop, s stamp, v string) (stamp, error) {
	var end stamp
	if t := strings.TrimLeft(strings.TrimSpace(v), "+-"); strings.HasPrefix(strings.ToUpper(t), "P") {
		d, err := parseDuration(v)
		if err != nil {
			return stamp{}, err
		}
		var ok bool
		if end, ok = d.after(s); !ok {
			return stamp{}, errors.New("the duration is out of range")
		}
	} else {
		var err error
		if end, err = p.stampOf(pr, v); err != nil {
			return stamp{}, err
		}
	}
	if end.instant().Before(s.instant()) {
		return stamp{}, errors.New("it ends before it starts")
	}
	return end, nil
}

// stampOf reads one date or date-time value of property pr, with its TZID and VALUE.
func (p *parser) stampOf(pr *prop, v string) (stamp, error) {
	if pr.err != nil {
		return stamp{}, pr.err
	}
	var loc *time.Location
	if tzid := pr.param("TZID"); tzid != "" {
		if loc = p.zones.lookup(tzid); loc == nil {
			if p.zones.rules[tzid] != nil {
				return stamp{}, fmt.Errorf("time zone %q is unknown, and the rules of its vtimezone could not be matched to a zone", clip(tzid, maxQuote))
			}
			return stamp{}, fmt.Errorf("time zone %q is unknown, and no vtimezone of the document defines it", clip(tzid, maxQuote))
		}
	} else if p.calZone != nil && !strings.HasSuffix(strings.ToUpper(strings.TrimSpace(v)), "Z") {
		loc = p.calZone // X-WR-TIMEZONE: the calendar's zone for its floating times
	}
	vt := pr.param("VALUE")
	if strings.EqualFold(vt, "PERIOD") {
		vt = ""
	}
	return parseStamp(v, vt, loc)
}

// inherit gives an override what it leaves out and its master states. Overrides should
// repeat everything, but the ones that only cancel an occurrence often do not.
func (e *entry) inherit(m *entry) {
	e.ev.Title = cmp.Or(e.ev.Title, m.ev.Title)
	e.ev.URL = cmp.Or(e.ev.URL, m.ev.URL)
	if e.ev.Venue == (source.Place{}) {
		e.ev.Venue = m.ev.Venue
	}
	if e.ev.Genres == nil {
		e.ev.Genres = m.ev.Genres
	}
}

// attach records override o of one of e's occurrences. Of two overrides of one occurrence
// the one with the higher SEQUENCE wins, and of equals the later one.
func (e *entry) attach(o *entry) {
	if e.overrideAt == nil {
		e.overrideAt = map[int64]int{}
	}
	k := o.rid.in(e.start).wall.Unix()
	if i, ok := e.overrideAt[k]; ok {
		if o.seq >= e.overrides[i].seq {
			e.overrides[i] = o
		}
		return
	}
	e.overrideAt[k] = len(e.overrides)
	e.overrides = append(e.overrides, o)
}

// emit adds the events of e: an event, or the occurrences of a series in the window
// with their overrides, in order of start.
func (p *parser) emit(e *entry) {
	switch {
	case e.rid != nil: // an override whose master is not in the document
		p.add(e.occurrence(e.start, e.base+"/"+e.rid.wall.Format(time.DateOnly)))
		return
	case !e.recur && len(e.overrides) == 0:
		p.add(e.occurrence(e.start, e.occRef(e.start.wall)))
		return
	}
	walls, ok := p.occurrences(e)
	if !ok {
		return
	}
	type item struct {
		at    time.Time // instant, for the order
		src   *entry    // the series or an override
		start stamp
		ref   string
		end   *stamp // an RDATE period's end
	}
	var items []item
	futures := e.futures()
	for _, w := range walls {
		if _, ok := e.overrideAt[w.Unix()]; ok {
			continue
		}
		s := stamp{wall: w, form: e.start.form, loc: e.start.loc}
		src := e
		// The last THISANDFUTURE override before it moves it as it moved its own
		// occurrence, and gives it its fields.
		if i, _ := slices.BinarySearchFunc(futures, w, func(o *entry, w time.Time) int {
			return o.rid.in(e.start).wall.Compare(w)
		}); i > 0 {
			o := futures[i-1]
			s = s.in(o.start)
			s.wall = s.wall.Add(o.start.wall.Sub(o.rid.in(o.start).wall))
			src = o
		}
		it := item{s.instant(), src, s, e.occRef(w), nil}
		if end, ok := e.periodEnd[w.Unix()]; ok && src == e {
			it.end = &end
		}
		items = append(items, it)
	}
	for _, o := range e.overrides {
		orig := o.rid.in(e.start)
		if e.recur && p.win.pos(o.start) != 0 && p.win.pos(orig) != 0 {
			continue
		}
		items = append(items, item{o.start.instant(), o, o.start, e.occRef(orig.wall), nil})
	}
	slices.SortStableFunc(items, func(a, b item) int { return a.at.Compare(b.at) })
	for _, it := range items {
		ev := it.src.occurrence(it.start, it.ref)
		if it.end != nil {
			ev.End = it.end.when()
		}
		p.add(ev)
	}
}

// futures returns e's THISANDFUTURE overrides in the order of the occurrences they
// override.
func (e *entry) futures() []*entry {
	var out []*entry
	for _, o := range e.overrides {
		if o.future {
			out = append(out, o)
		}
	}
	slices.SortFunc(out, func(a, b *entry) int { return a.rid.in(e.start).wall.Compare(b.rid.in(e.start).wall) })
	return out
}

// occurrences returns the walls of e's occurrences, in e.start's form and in order: its
// start alone, or for a series the starts in the window that its rules and RDATEs give
// and its EXDATEs do not take away. ok is false when the series was dropped.
func (p *parser) occurrences(e *entry) (walls []time.Time, ok bool) {
	if !e.recur {
		return []time.Time{e.start.wall}, true
	}
	if p.budget <= 0 {
		p.drop(e.v.line, fmt.Sprintf("vevent %s: recurrence not expanded: the document needs more than %d expansion steps", e.who, maxSteps))
		return nil, false
	}
	ex := map[int64]bool{}    // excluded walls
	exDay := map[int64]bool{} // excluded dates, for EXDATE;VALUE=DATE on a date-time series
	for _, x := range e.exdates {
		if x.form == dateOnly && e.start.form != dateOnly {
			exDay[x.wall.Unix()] = true
		} else {
			ex[x.in(e.start).wall.Unix()] = true
		}
	}
	excluded := func(w time.Time) bool { return ex[w.Unix()] || exDay[day(w).Unix()] }
	capped := false // a rule had more occurrences than the limit
	if len(e.rules) == 0 && p.win.pos(e.start) == 0 {
		walls = append(walls, e.start.wall) // DTSTART is the first occurrence of an RDATE series too
	}
	for i, r := range e.rules {
		x := r.expand(e.start, p.win, p.limit, excluded, &p.budget)
		line := e.v.rrules[i].line
		if x.exhausted {
			p.drop(line, fmt.Sprintf("vevent %s: recurrence not expanded: the document needs more than %d expansion steps", e.who, maxSteps))
			return nil, false
		}
		capped = capped || x.capped
		walls = append(walls, x.walls...)
	}
	for _, s := range e.rdates {
		if p.win.pos(s) == 0 {
			walls = append(walls, s.wall)
		}
	}
	walls = slices.DeleteFunc(walls, excluded)
	slices.SortFunc(walls, time.Time.Compare)
	walls = slices.CompactFunc(walls, time.Time.Equal)
	if capped || len(walls) > p.limit {
		p.drop(e.v.line, fmt.Sprintf("vevent %s: recurs more than %d times in the window; the later occurrences are left out", e.who, p.limit))
		walls = walls[:min(len(walls), p.limit)]
	}
	return walls, true
}

// occRef returns the ref of e's occurrence at wall: e's base alone for a lone event, else
// followed by "/" and the occurrence's date, and its clock when that differs from
// DTSTART's (an RDATE for a second show on one day).
func (e *entry) occRef(wall time.Time) string {
	if !e.dated && wall.Equal(e.start.wall) {
		return e.base
	}
	ref := e.base + "/" + wall.Format(time.DateOnly)
	if e.start.form != dateOnly && wall.Sub(day(wall)) != e.start.wall.Sub(day(e.start.wall)) {
		ref += wall.Format("T15:04")
	}
	return ref
}

// occurrence returns e's event for the occurrence that starts at s.
func (e *entry) occurrence(s stamp, ref string) source.Event {
	ev := e.ev
	ev.Ref = ref
	ev.Start = s.when()
	if end, ok := e.endFor(s); ok {
		ev.End = end.when()
	}
	ev.Genres = slices.Clone(ev.Genres) // the events' slices must not share arrays
	ev.Kinds = slices.Clone(ev.Genres)  // categories say what an event is, too
	return ev
}

// endFor returns the end of e's occurrence that starts at s: DTEND moved as far as the
// occurrence is from DTSTART, or the start plus DURATION. An end before the start is none.
func (e *entry) endFor(s stamp) (stamp, bool) {
	var end stamp
	switch {
	case e.end != nil:
		end = *e.end
		end.wall = time.Unix(end.wall.Unix()+s.wall.Unix()-e.start.wall.Unix(), 0).UTC()
	case e.dur != nil:
		var ok bool
		if end, ok = e.dur.after(s); !ok {
			return stamp{}, false
		}
	default:
		return stamp{}, false
	}
	return end, !end.instant().Before(s.instant())
}

// add appends ev to the events, up to p.maxEvents.
func (p *parser) add(ev source.Event) {
	if len(p.events) == p.maxEvents {
		if !p.full {
			p.full = true
			p.drop(ev.Line, fmt.Sprintf("more than %d events: the rest are left out", p.maxEvents))
		}
		return
	}
	p.events = append(p.events, ev)
}

// place reads LOCATION and GEO (or, where GEO is missing, the coordinates of Apple's
// X-APPLE-STRUCTURED-LOCATION, a geo URI: "geo:48.309978,14.283197"). LOCATION's line breaks
// and semicolons are commas ("Hauptstraße 1-5\; 4041 Linz"), and the line is split by
// places.Split: the first part is the venue's name ("name (address)" read as "name,
// address"); a last part that names a country by its name (or three letters: "USA") is the
// country, and postal codes written on their own at the end go ("…\, London\, SW9 9SL").
// Of three parts or more, the rest is the locality, an address on one line from whose end
// the loader takes the town, its region and its country ("venue, town, ST", "venue,
// neighbourhood, city"); when the second part holds a digit it is the street, and the
// locality what follows ("venue, street 12, 10115 Berlin, DE"). Of two, the second is the
// country when it names one ("Burgerweeshuis\, NL", by name or code, so that a venue hint
// gives the city), else the street when it holds a digit ("venue, street 12"), else the
// city. The postal codes dropped are not kept: the town is what places the venue.
// Coordinates are kept when both are in range and not 0,0.
func place(location, geo *prop) source.Place {
	var pl source.Place
	if location != nil && location.err == nil {
		a := places.Split(text(lineBreaks.Replace(unescape(location.value))))
		pl.Name, pl.Street, pl.Locality, pl.Country = a.Name, a.Street, a.Locality, a.Country
	}
	if geo != nil && geo.err == nil {
		v := geo.value
		if len(v) > 4 && strings.EqualFold(v[:4], "geo:") { // a geo URI (RFC 5870): "geo:lat,lon;u=35"
			v, _, _ = strings.Cut(v[4:], ";")
		}
		a, b, ok := strings.Cut(v, ";")
		if !ok {
			a, b, _ = strings.Cut(v, ",")
		}
		lat, errLat := strconv.ParseFloat(strings.TrimSpace(a), 64)
		lon, errLon := strconv.ParseFloat(strings.TrimSpace(b), 64)
		if errLat == nil && errLon == nil && math.Abs(lat) <= 90 && math.Abs(lon) <= 180 && (lat != 0 || lon != 0) {
			pl.Lat, pl.Lon, pl.HasGeo = lat, lon, true
		}
	}
	return pl
}

// lineBreaks are the separators LOCATION writes between the parts of an address, read as
// commas.
var lineBreaks = strings.NewReplacer("\n", ",", ";", ",")

// link returns v as an absolute http or https URL, or "".
func link(v string) string {
	v = strings.TrimSpace(v)
	if v == "" || len(v) > maxLink {
		return ""
	}
	u, err := url.Parse(v)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return ""
	}
	return u.String()
}

// token returns an unescaped TEXT value without control characters, trimmed.
func token(v string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\uFEFF' {
			return -1
		}
		return r
	}, unescape(v)))
}
