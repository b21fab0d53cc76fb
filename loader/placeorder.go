package loader

import (
	"slices"
	"strings"

	"github.com/gigs/gigs/loader/places"
	"github.com/gigs/gigs/loader/source"
)

// A calendar's LOCATION is one line of text, which places.Split reads venue first ("venue,
// street, town, region, country"). Small venues', bands' and towns' calendars write it in
// other orders too, and the venue-first reading then names no town, or the wrong one:
//
//   - "Pittsburgh, PA", "Toronto, Ontario", "Livingston, LA" in a Louisiana band's
//     calendar: a town and its state, where Split reads "PA" as Panama, "Ontario" as the
//     town (Ontario, California) and "LA" as Laos;
//   - "Obfelden", "Москва": the town alone, no venue, where the venue-first reading has no
//     town and, with coordinates, takes the nearest large city (Adliswil for Obfelden);
//   - "Москва, ул. Старая Басманная 21/4, корпус А, Актовый Зал": the town first and the
//     hall last, as Russian addresses run;
//   - "Hovedscenen, Kulturhuset Tromsø", "48157 Münster-Coerde", "Münster, Münster-Coerde",
//     "Jazzclub Unterfahrt (München)", "50122 Firenze FI": the town inside a longer part (a
//     venue's name before it, a district after a hyphen or after it, a province's code).
//
// A place is read in such an order only when the gazetteer confirms it: the town is a
// gazetteer city (never a made one) of the country the place or its source states, or
// else in the feed's zone or in its country keeping its clock (a country of several zones:
// "Home" in an America/New_York feed is no town of Washington), never a village for a word
// alone ("Arena") unless the coordinates confirm it, and within townKm of the place's coordinates when it has them. The
// first two orders are read before the feed's context is (restate: a country misread
// would otherwise be the feed's), the last two only when the venue-first reading fails or
// makes a town the gazetteer lacks (reorder). The reading's decided_by names the order.

// townKm is how far from a place's coordinates the town a line names in another order may
// lie: farther, the coordinates say it is another place of that name.
const townKm = 50

// maxTownName bounds the bytes of a part of a line worth looking up as a town.
const maxTownName = 80

// Orders of a line other than venue first, as decided_by names them.
const (
	byTownAndRegion = "the line names a town and its region"
	byTownAlone     = "the line names a town alone"
	byTownFirst     = "the line names its town first"
	byTownWithin    = "the line names its town within a part"
)

// restate reads a place named by a town and its region, or by a town alone, as that town
// (see the comment above), and returns the order it read it in; "" leaves p as it is.
func (n *normalizer) restate(p *source.Place) string {
	name := strings.TrimSpace(p.Name)
	if by := n.townAndRegion(p, name); by != "" {
		return by
	}
	if p.Street != "" || strings.TrimSpace(p.Locality) != "" {
		return ""
	}
	if c, ok := n.townNamed(name, *p, false, ""); ok && (p.HasGeo || !c.Village() || strings.ContainsRune(name, ' ')) {
		// A village's one word alone is a venue's name ("Arena") as often, unless the
		// event's coordinates lie near it ("Zwillikon").
		p.Locality = name
		return byTownAlone
	}
	return ""
}

// townAndRegion reads a line of two parts, a town and its region ("Pittsburgh, PA",
// "Hamilton, ON", "Toronto, Ontario", "Austin, TX 78701"), which the venue-first reading
// takes for a venue and its country, town or street, as the town in its region: when the
// line, read as an address on one line, names a gazetteer town or village of that region.
// A name the gazetteer lacks is no town ("The Stone Pony, NJ", "TBA, TX": a venue before
// its state), and the line keeps the venue-first reading's reason. It returns the order it
// read it in; "" leaves p as it is.
func (n *normalizer) townAndRegion(p *source.Place, name string) string {
	region, country, street := strings.TrimSpace(p.Locality), strings.TrimSpace(p.Country), strings.TrimSpace(p.Street)
	line := region
	switch {
	case street != "":
		// "Austin, TX 78701": Split takes the part with a digit for a street.
		if region != "" || country != "" || !hasDigit(street) {
			return ""
		}
		region, _, _ = strings.Cut(street, " ")
		line = street
	case region == "" && len(country) == 2:
		region, line = country, country // "PA": Panama's code, Pennsylvania's too
	case country != "" || strings.Contains(region, ","):
		return ""
	}
	if region == "" || !townLike(name) || len(n.places.RegionCountries(region)) == 0 {
		return ""
	}
	q := places.Place{Locality: name + ", " + line}
	r, err := n.places.Read(q, places.Context{Zone: p.FeedZone})
	if err != nil || r.Made || !slices.Contains(n.places.RegionCountries(region), r.City.Country) ||
		!slices.Contains(n.places.CitiesNamed(name), r.City) {
		// "The Fillmore, New York": a venue in the city named after its state; "The Stone
		// Pony, NJ", "TBA, TX": a venue named before a state, no town of it.
		return ""
	}
	p.Locality, p.Country, p.Street = q.Locality, "", ""
	return byTownAndRegion
}

// reorder reads a place whose venue-first reading failed, or made a town (made), with its
// town first, or its town within a part of its locality (or of its name, when it has no
// locality), and returns the order it read it in; "" leaves p as it is. Read first, the
// town ends the venue's name and the street; the venue's name is then the line's last part
// that holds no digit ("Актовый Зал"), and the street what lies between. Read within a
// part, the words before the town join the venue's name ("Hovedscenen, Kulturhuset"). Of
// a line whose venue-first reading made a town, only its last part is read again, for a
// town within it: a venue named like a town elsewhere stays where the line puts it.
//
// A town is read first only when the line confirms it: the town is a city of MajorCity
// people or more, or the place's coordinates lie near it; no part after it names a town
// or a region of its country ("Hope, 12 Queens Road, Brighton, East Sussex": a venue, its
// street, its town); and the venue's name so read is no region or region's code ("Milano,
// MI"). Only the line's last lastParts parts are read for a town within, and lines longer
// than maxOrderLine bytes are left as the venue-first reading has them: what a line costs
// to read does not grow with it.
func (n *normalizer) reorder(p *source.Place, made bool) string {
	if len(p.Name)+len(p.Street)+len(p.Locality) > maxOrderLine {
		return ""
	}
	rest := lineParts(p.Street, p.Locality)
	if len(rest) > 0 && !made {
		if town, ok := n.townNamed(p.Name, *p, false, ""); ok && (town.Major() || p.HasGeo) {
			venue := len(rest) - 1
			for i := len(rest) - 1; i >= 0; i-- {
				if !hasDigit(rest[i]) {
					venue = i
					break
				}
			}
			if !n.placesAfter(rest, town.Country) && !n.regionLike(rest[venue]) {
				p.Name, p.Locality = rest[venue], strings.TrimSpace(p.Name)
				p.Street = strings.Join(append(rest[:venue:venue], rest[venue+1:]...), ", ")
				return byTownFirst
			}
		}
	}
	parts := lineParts(p.Locality)
	if made && len(parts) > 1 {
		parts = parts[len(parts)-1:]
	}
	nameOnly := len(parts) == 0 && p.Street == ""
	if nameOnly {
		parts = []string{p.Name} // "Jazzclub Unterfahrt (München)"
	}
	for i := len(parts) - 1; i >= 0 && i >= len(parts)-lastParts; i-- {
		for _, c := range townsWithin(parts[i], nameOnly) {
			if nameOnly && c.before == "" && c.region == "" && c.province == "" && c.country == "" {
				continue // a name that is a town alone: restate's
			}
			if c.bare && !venueBefore(c.before) {
				continue // "Hamburger Hof", "Muri bei Bern", "Hotel Bristol": no town after a venue's word
			}
			q := *p
			if c.country != "" {
				q.Country = c.country // "日本 大阪": the line's country, not the feed's
			}
			if c.region != "" && strings.TrimSpace(p.Country) != "" {
				q.Region = c.region // a region's code means nothing without its country: "MI", Michigan
			}
			doubt := "" // a part after the town's that may tell its namesakes apart
			if next := parts[i+1:]; len(next) > 0 && !(len(next[0]) >= len(c.town) && strings.EqualFold(next[0][:len(c.town)], c.town)) {
				doubt = next[0] // "Newport, Isle of Wight"; not "Münster, Münster-Coerde"
			}
			loose := c.bare || c.glued // a word's end or start: a town of 15,000 people or more
			if city, ok := n.townNamed(c.town, q, !loose, doubt); ok && (!loose || city.Major()) {
				switch {
				case c.before == "": // "Muri AG": the venue is named by its town
				case nameOnly:
					p.Name = c.before
				default:
					p.Name = strings.TrimSpace(p.Name) + ", " + c.before
				}
				p.Locality, p.Region, p.Country = c.town, q.Region, q.Country
				return byTownWithin
			}
		}
	}
	return ""
}

// maxOrderLine bounds the bytes of a line reorder reads in other orders; lastParts, the
// parts at its end it reads for a town within, or for a town or region after a town
// read first.
const (
	maxOrderLine = 1024
	lastParts    = 4
)

// placesAfter reports whether one of the last lastParts of parts names a town or a region
// of the country: the line then names its town after the venue, as venue-first lines do.
func (n *normalizer) placesAfter(parts []string, country string) bool {
	for _, s := range parts[max(0, len(parts)-lastParts):] {
		if n.regionLike(s) && slices.Contains(n.places.RegionCountries(s), country) {
			return true
		}
		if _, ok := n.townNamed(s, source.Place{Country: country}, true, ""); ok {
			return true
		}
	}
	return false
}

// regionLike reports whether s may name a region rather than a venue: a region's code
// ("MI", "NSW") or a region the gazetteer knows ("Ontario").
func (n *normalizer) regionLike(s string) bool {
	return regionCodeLike(s) || len(n.places.RegionCountries(s)) > 0
}

// townNamed returns the gazetteer city that name, read alone as a town, is, when the
// place's context confirms it (see the comment above); a part of a line ending in one the
// gazetteer cannot read (own: "Hull" of "Hull, East Yorkshire, HU5 3AB") needs none, and
// is read as the line's last part would be. doubt, when not "", is such a part after the
// name: it may be what tells the name's namesakes apart, so the most populous of them is
// not taken for want of it ("Newport, Isle of Wight" is not Newport, Wales).
func (n *normalizer) townNamed(name string, p source.Place, own bool, doubt string) (*places.City, bool) {
	name = strings.TrimSpace(name)
	if !townLike(name) {
		return nil, false
	}
	want, zone := "", strings.TrimSpace(p.FeedZone)
	if s := strings.TrimSpace(p.Country); s != "" {
		code, ok := places.Country(s)
		if !ok {
			return nil, false
		}
		want = code
	}
	if want == "" && zone == "" && !p.HasGeo && !own || len(name) <= 3 && len(n.places.RegionCountries(name)) > 0 {
		return nil, false // "LA" alone is Louisiana, no town
	}
	r, err := n.places.Read(places.Place{Locality: name, Region: p.Region, Country: want, Lat: p.Lat, Lon: p.Lon, HasGeo: p.HasGeo}, places.Context{Zone: zone})
	switch {
	case err != nil || r.Made, doubt != "" && r.ByPopulation():
		return nil, false
	case want != "" && r.City.Country != want:
		return nil, false
	case want == "" && zone != "" && (!r.City.KeepsClock(zone) || r.City.Timezone != zone && n.places.ZoneCountry(zone) != r.City.Country):
		// The feed's zone is the town's, or its country's and keeps the town's clock: a
		// town of another of the country's zones is no town of the feed.
		return nil, false
	case p.HasGeo && r.City.HasGeo && places.Distance(p.Lat, p.Lon, r.City.Lat, r.City.Lon) > townKm:
		return nil, false
	}
	return r.City, true
}

// townLike reports whether s may be a town's name: a few words, no digit.
func townLike(s string) bool {
	return s != "" && len(s) <= maxTownName && !hasDigit(s) && !strings.Contains(s, ",")
}

// lineParts returns the comma-separated parts of lines, trimmed, without empty ones.
func lineParts(lines ...string) []string {
	var out []string
	for _, l := range lines {
		for _, s := range strings.Split(l, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// townWithin is a town a part of a locality may name, the words before it, and whether
// only a space parts them (a bare word after a venue's name is taken for a town only when
// it names a city of 15,000 people or more and the words before hold a venue's word:
// "Kulturhuset Tromsø", not "Hotel California", "Hamburger Hof" or "Muri bei Bern").
type townWithin struct {
	town, before string
	region       string // a region's code after the town ("Muri AG", "Milano MI"), which chooses between namesakes
	province     string // a province's name in brackets after the town ("Getafe (Madrid)"), which the gazetteer's regions do not name
	bare         bool
	// A Chinese, Japanese or Korean part read largest unit first (placeeastasia.go): the
	// country it names first, as an ISO code; whether the town is glued to the venue's name.
	country string
	glued   bool
}

// townsWithin returns the towns a part of a locality may name, most likely first: with
// its words that hold digits (postal codes) left out, the part itself ("48157 Münster" of
// "Münster, 48157 Münster-Coerde"); what brackets close it when the part is the venue's
// name (nameOnly: "Jazzclub Unterfahrt (München)"), else the words before the brackets
// ("Getafe (Madrid)": a town and its province); what a dash parts from the rest
// ("Jazzclub Unterfahrt - München"); the words
// before a region's code ("Muri AG", "Muri (AG)", "20121 Milano MI"); the words before a
// hyphen ("Münster-Coerde": a district of Münster); then its last word and its last two
// words after a venue's name ("Kulturhuset Tromsø").
func townsWithin(part string, nameOnly bool) []townWithin {
	var words []string
	for _, w := range strings.Fields(part) {
		if !hasDigit(w) {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		// "横浜1000CLUB": a town glued to a venue's name that holds digits, Yokohama's
		// 1000 Club (a Japanese idol group's calendar, testdata/real/ical).
		return eastAsianFirst(part)
	}
	s := strings.Join(words, " ")
	out := []townWithin{{town: s}}
	if ea := eastAsianFirst(part); len(ea) > 0 {
		return append(out, ea...) // "首尔 YES24 Live Hall": largest unit first
	}
	if i := strings.LastIndexByte(s, '('); i > 0 && strings.HasSuffix(s, ")") && !regionCodeLike(s[i+1:len(s)-1]) {
		inner, before := strings.TrimSpace(s[i+1:len(s)-1]), strings.TrimSpace(s[:i])
		if !nameOnly {
			// "Alcalá de Henares (Madrid)": a town and its province, never the province's
			// capital; the province's name is no region of the gazetteer's to choose by.
			return append(out, townWithin{town: before, province: inner})
		}
		// The venue's name: the town and its province ("Getafe (Madrid)"), else the
		// venue's name and its town.
		return append(out, townWithin{town: before, province: inner}, townWithin{town: inner, before: before})
	}
	for _, dash := range []string{" - ", " – ", " — "} {
		if i := strings.LastIndex(s, dash); i > 0 {
			return append(out, townWithin{town: strings.TrimSpace(s[i+len(dash):]), before: strings.TrimSpace(s[:i])})
		}
	}
	if n := len(words); n > 1 && regionCodeLike(strings.Trim(words[n-1], "()")) {
		out = append(out, townWithin{town: strings.Join(words[:n-1], " "), region: strings.Trim(words[n-1], "()")})
	}
	if head, _, ok := strings.Cut(s, "-"); ok && strings.TrimSpace(head) != "" {
		out = append(out, townWithin{town: strings.TrimSpace(head)})
	}
	for k := 1; k <= 2 && k < len(words); k++ {
		out = append(out, townWithin{town: strings.Join(words[len(words)-k:], " "), before: strings.Join(words[:len(words)-k], " "), bare: true})
	}
	return out
}

// regionCodeLike reports whether s may be a region's code written after its town: two or
// three capital letters (a Swiss canton's, an Italian province's).
func regionCodeLike(s string) bool {
	if len(s) < 2 || len(s) > 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// placeEvent places an event's venue (lookupCity), read in another order when its source
// wrote the line so: restate's order, read before; else, when the venue-first reading
// fails or makes a town the gazetteer lacks ("Firenze FI", of "50122 Firenze FI, Italia"),
// reorder's, when it names a gazetteer town. The reading's decided_by then names the order
// first.
func (n *normalizer) placeEvent(ev *source.Event) (*places.City, places.Reading, error) {
	c, r, err := n.lookupCity(ev.Venue)
	by := n.orders[ev]
	if by == "" && (err != nil || r.Made) { // a restated place is read in its order only
		q := ev.Venue
		if order := n.reorder(&q, err == nil); order != "" {
			if cq, rq, errq := n.lookupCity(q); errq == nil && !rq.Made {
				ev.Venue, c, r, err, by = q, cq, rq, nil, order
			}
		}
	}
	if err != nil {
		return nil, r, err // the venue-first reading's reason: the line's as written
	}
	if strings.HasPrefix(r.By, byStreetTown) && statedPlace(ev.Venue).Locality == ev.Venue.Name {
		streetOutOfName(&ev.Venue, c.Name)
	}
	switch {
	case by != "" && r.By != "":
		r.By = by + "; " + r.By
	case by != "":
		r.By = by
	}
	return c, r, nil
}

// venueWords are parts of words that name a kind of venue, in the languages of the
// gazetteer's countries, lower case: words before a town's name that hold one make it the
// venue's town ("Kulturhuset Tromsø", "Jazzclub Unterfahrt München"). A hotel's, an inn's
// or a café's name is no venue's word: such houses are named after towns elsewhere
// ("Hotel Bristol", "Hamburger Hof", "Le Petit Paris").
var venueWords = []string{
	"arena", "aula", "bar", "bühne", "center", "centre", "church", "cinema", "club", "forum",
	"hall", "haus", "hus", "jazz", "keller", "kino", "kirche", "kirke", "klub", "kultur",
	"kyrka", "lounge", "music", "musik", "oper", "pub", "saal", "sala", "salle", "scen",
	"scène", "stage", "studio", "talo", "teat", "theat", "théâtre", "zentrum",
}

// connectors are words that tie a place's name to a town's, which then names where the
// place lies, not the venue's town: "Muri bei Bern", "Newcastle upon Tyne".
var connectors = []string{"am", "an", "auf", "b.", "bei", "im", "near", "nr", "ob", "on", "sous", "sur", "upon"}

// venueBefore reports whether the words before a town's name after a space name a venue
// (they hold a venueWords word) and end in no connector.
func venueBefore(before string) bool {
	fields := strings.Fields(strings.ToLower(before))
	if len(fields) == 0 || slices.Contains(connectors, fields[len(fields)-1]) {
		return false
	}
	for _, f := range fields {
		for _, w := range venueWords {
			if strings.Contains(f, w) {
				return true
			}
		}
	}
	return false
}
