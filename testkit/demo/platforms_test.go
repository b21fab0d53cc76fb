package demo_test

import (
	"cmp"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/source"
	"github.com/gigs/gigs/testkit/emulator"
)

func TestPlatformListings(t *testing.T) {
	c := shared.files
	today := defaultOpts.Today.Format("2006-01-02")
	timeRE := regexp.MustCompile(`^([01]\d|2[0-3]):[0-5]\d:00$`)
	statuses := map[string]bool{"scheduled": true, "cancelled": true, "postponed": true, "rescheduled": true}
	seen := map[string]bool{}
	note := func(cond bool, what string) {
		if cond {
			seen[what] = true
		}
	}
	for _, p := range c.cfg.Platforms {
		ls := c.listings[p.Name]
		if least := map[string]int{"bandsintown": 250, "songkick": 250}[p.Kind]; len(ls) < cmp.Or(least, 500) {
			t.Errorf("%s: %d listings", p.Name, len(ls))
		}
		ids := map[string]bool{}
		for _, l := range ls {
			if l.ID == "" || ids[l.ID] {
				t.Errorf("%s: empty or repeated id %q", p.Name, l.ID)
			}
			ids[l.ID] = true
			if err := l.Check(); err != nil {
				t.Errorf("%s: %v", p.Name, err)
			}
			if l.TimeTBA && p.Kind == "continuation" {
				t.Errorf("%s %s: no time, which a continuation feed cannot state", p.Name, l.ID)
			}
			if _, err := time.LoadLocation(l.Zone); err != nil || l.Name == "" || l.VenueID == "" || l.VenueName == "" || l.City == "" || len(l.Country) != 2 || !strings.HasPrefix(l.URL, "http://") {
				t.Errorf("%s: incomplete listing %+v", p.Name, l)
			}
			if _, err := time.Parse("2006-01-02", l.LocalDate); err != nil || l.LocalDate < defaultOpts.Today.AddDate(0, 0, -1).Format("2006-01-02") {
				t.Errorf("%s %s: local date %q", p.Name, l.ID, l.LocalDate)
			}
			if l.TimeTBA != (l.LocalTime == "") || !l.TimeTBA && !timeRE.MatchString(l.LocalTime) || !statuses[l.Status] {
				t.Errorf("%s %s: time %q (TBA %v), status %q", p.Name, l.ID, l.LocalTime, l.TimeTBA, l.Status)
			}
			if l.HasPrice && (l.Currency == "" || l.PriceMin <= 0 || l.PriceMax < l.PriceMin) {
				t.Errorf("%s %s: prices %v–%v %s", p.Name, l.ID, l.PriceMin, l.PriceMax, l.Currency)
			}
			note(strings.HasPrefix(l.Name, "SOLD OUT: "), "SOLD OUT: X")
			note(strings.HasSuffix(l.Name, " (DJ set)"), "X (DJ set)")
			note(strings.HasSuffix(l.Name, " – Live"), "X – Live")
			note(strings.Contains(l.Name, " feat. "), "X feat. Y")
			note(strings.Contains(l.Name, ": World Tour 20"), "X: World Tour")
			note(l.Name == strings.ToUpper(l.Name) && strings.ToUpper(l.Name) != strings.ToLower(l.Name), "upper case")
			note(l.TimeTBA, "TBA")
			note(l.Status == "cancelled", "cancelled")
			note(l.Status == "rescheduled", "rescheduled")
			note(l.Status == "postponed", "postponed")
			note(l.LocalDate >= today, "upcoming")
		}
	}
	for _, want := range []string{"SOLD OUT: X", "X (DJ set)", "X – Live", "X feat. Y", "X: World Tour", "upper case", "TBA", "cancelled", "rescheduled", "postponed"} {
		if !seen[want] {
			t.Errorf("no listing shows %s", want)
		}
	}
}

// TestPlatformVariation compares listings with the JSON-LD events they list.
func TestPlatformVariation(t *testing.T) {
	c := shared.files
	byRef := map[mergeRecord]record{}
	for src, recs := range c.records {
		for _, r := range recs {
			byRef[mergeRecord{src, r.ref}] = r
		}
	}
	listing := map[mergeRecord]emulator.Listing{}
	for p, ls := range c.listings {
		for _, l := range ls {
			listing[mergeRecord{p, l.ID}] = l
		}
	}
	hint := map[string]string{}
	for _, v := range c.cfg.Venues {
		if v.Venue != nil {
			hint[v.Name] = v.Venue.Name
		}
	}
	seen := map[string]int{}
	for _, k := range c.concerts {
		r, ok := byRef[k.Records[0]]
		if !ok || r.m == nil {
			continue // not JSON-LD
		}
		ve, err := source.ParseISO(r.start)
		if err != nil {
			continue
		}
		offers := r.m["offers"] != nil
		prev, _ := source.ParseISO(strings.TrimSpace(stringOf(r.m["previousStartDate"])))
		for _, rec := range k.Records[1:] {
			l := listing[rec]
			date := ve.Wall.Format("2006-01-02")
			if name := hint[r.source]; name != "" {
				if l.VenueName == name {
					seen["venue name as the venue writes it"]++
				} else {
					seen["venue name variant"]++
				}
			}
			if len(l.Performers) < len(r.performers) {
				seen["support acts missing"]++
			}
			if len(r.performers) > 0 {
				head := r.performers[0]
				switch {
				case l.Name == "The "+head || "The "+l.Name == head:
					seen["The X for X"]++
				case strings.Contains(head, " & ") && strings.HasPrefix(l.Name, strings.Replace(head, " & ", " and ", 1)),
					strings.Contains(head, " and ") && strings.HasPrefix(l.Name, strings.Replace(head, " and ", " & ", 1)):
					seen["X & Y for X and Y"]++
				case !isASCII(head) && isASCII(l.Name) && engine.Fold(l.Name) == engine.Fold(head):
					seen["accents dropped"]++
				}
			}
			if !offers && l.HasPrice {
				seen["prices only on the platform"]++
			}
			switch {
			case r.status == "EventCancelled" && l.Status == "scheduled":
				seen["cancelled on the venue only"]++
			case r.status != "EventCancelled" && l.Status == "cancelled" && rec.Source == "tixhub":
				seen["cancelled on the primary platform only"]++
			case r.status == "EventRescheduled" && !prev.IsZero() && l.LocalDate == prev.Wall.Format("2006-01-02"):
				seen["the platform keeps the old date"]++
			case r.status != "EventRescheduled" && l.Status == "rescheduled" && l.LocalDate != date:
				seen["the platform has a new date the venue lacks"]++
			}
			if ve.DateOnly || l.TimeTBA {
				if ve.DateOnly != l.TimeTBA && l.TimeTBA {
					seen["TBA on the platform only"]++
				}
				continue
			}
			lt, err := time.Parse("2006-01-02 15:04:05", l.LocalDate+" "+l.LocalTime)
			if err != nil {
				t.Fatal(err)
			}
			switch d := ve.Wall.Sub(lt); {
			case d >= 30*time.Minute && d <= 60*time.Minute:
				seen["doors time"]++
			case ve.Wall.Hour() < 2 && d >= 23*time.Hour && d <= 25*time.Hour || ve.Wall.Hour() < 2 && d > 0 && d < 2*time.Hour && l.LocalDate < date:
				seen["after midnight dated to the evening before"]++
			}
		}
	}
	t.Log(seen)
	for _, want := range []string{"venue name as the venue writes it", "venue name variant", "support acts missing",
		"prices only on the platform", "cancelled on the venue only", "cancelled on the primary platform only",
		"the platform keeps the old date", "the platform has a new date the venue lacks", "TBA on the platform only",
		"doors time", "after midnight dated to the evening before", "The X for X", "X & Y for X and Y", "accents dropped"} {
		if seen[want] == 0 {
			t.Errorf("no listing shows %s", want)
		}
	}
	if seen["venue name as the venue writes it"] < seen["venue name variant"] {
		t.Errorf("most listings should name the venue as it does: %v", seen)
	}
}

func stringOf(x any) string { s, _ := x.(string); return s }

func isASCII(s string) bool {
	for _, c := range s {
		if c >= 0x80 {
			return false
		}
	}
	return true
}
