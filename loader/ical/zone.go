package ical

import (
	_ "embed"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // zones must resolve on machines without a zoneinfo database
)

// windowsZonesTSV maps Windows time zone names to IANA zones; see its header for the source.
//
//go:embed windowszones.tsv
var windowsZonesTSV string

// windowsZones returns the Windows zone names, lower-cased, with their IANA zones.
var windowsZones = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for line := range strings.Lines(windowsZonesTSV) {
		name, zone, ok := strings.Cut(strings.TrimRight(line, "\r\n"), "\t")
		if ok && !strings.HasPrefix(name, "#") {
			m[strings.ToLower(name)] = zone
		}
	}
	return m
})

// zones resolves the TZIDs of one document. Not safe for concurrent use.
type zones struct {
	lic   map[string]string         // TZID → X-LIC-LOCATION of the document's VTIMEZONEs
	rules map[string]rules          // TZID → the rules of the document's VTIMEZONE for it
	cache map[string]*time.Location // TZID → its zone, nil when it names none
	year  int                       // the year whose rules decide a zone by rules
	tries int                       // zones resolved by rules so far: at most maxRuleZones
}

// lookup returns the zone a TZID names, or nil when it names none the adapter knows: the
// time is then floating. A TZID is read as an IANA name, a Windows name, the trailing IANA
// part of a prefixed name ("/mozilla.org/20050126_1/Europe/Berlin"), and failing those
// through the X-LIC-LOCATION of the document's VTIMEZONE for it, or by its rules (see
// vtimezone.go). Only the first maxZones distinct TZIDs of a document are looked up.
func (z *zones) lookup(tzid string) *time.Location {
	if loc, ok := z.cache[tzid]; ok {
		return loc
	}
	if len(z.cache) == maxZones {
		return nil
	}
	loc := resolveZone(tzid)
	if loc == nil && z.lic[tzid] != "" {
		loc = resolveZone(z.lic[tzid])
	}
	if loc == nil && z.rules[tzid] != nil && z.tries < maxRuleZones {
		z.tries++
		loc = z.rules[tzid].zoneFor(z.year)
	}
	z.cache[tzid] = loc
	return loc
}

// resolveZone reads name as an IANA name, a Windows name, a Windows display name (see
// displayZone) or a prefixed IANA name.
func resolveZone(name string) *time.Location {
	name = strings.TrimSpace(name)
	if len(name) > maxZoneName {
		return nil
	}
	if loc := ianaZone(name); loc != nil {
		return loc
	}
	if iana, ok := windowsZones()[strings.ToLower(name)]; ok {
		return ianaZone(iana)
	}
	if loc := displayZone(name); loc != nil {
		return loc
	}
	// IANA names have at most three segments ("America/Argentina/Salta"); the whole name
	// is tried too, for "/Europe/Stockholm".
	parts := strings.Split(strings.Trim(name, "/"), "/")
	for i := max(0, len(parts)-3); i < len(parts); i++ {
		if loc := ianaZone(strings.Join(parts[i:], "/")); loc != nil {
			return loc
		}
	}
	return nil
}

// ianaZone loads an IANA zone. Names with characters no zone name has are not looked up,
// and neither is "Local", which time.LoadLocation reads as the machine's zone.
func ianaZone(name string) *time.Location {
	if name == "" || name == "Local" || strings.HasPrefix(name, "/") {
		return nil
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("/_-+", c) >= 0) {
			return nil
		}
	}
	loaded.Lock()
	loc := loaded.m[name]
	loaded.Unlock()
	if loc != nil {
		return loc
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil
	}
	loaded.Lock()
	if len(loaded.m) < maxLoaded {
		loaded.m[name] = loc
	}
	loaded.Unlock()
	return loc
}

// maxLoaded bounds the zones kept in loaded. There are some 600 zone names, but a
// case-insensitive file system would load every spelling of one.
const maxLoaded = 2000

// loaded keeps the zones time.LoadLocation found, by name, for all documents: loading one
// reads and parses a file.
var loaded = struct {
	sync.Mutex
	m map[string]*time.Location // protected by the mutex; at most maxLoaded entries
}{m: map[string]*time.Location{}}
