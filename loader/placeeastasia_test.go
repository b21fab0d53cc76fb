package loader

import (
	"testing"

	"github.com/gigs/gigs/loader/source"
)

// TestEastAsianLinesLargestFirst checks LOCATION lines of a K-pop singer's calendar,
// written in Chinese in an Asia/Seoul feed (testdata/real/ical/idolcal-evan-seoul-chinese.ics),
// and of a Japanese idol group's:
// the town first, the venue after it or glued to it, a country's name before the town.
func TestEastAsianLinesLargestFirst(t *testing.T) {
	for _, tt := range []struct {
		line, zone   string
		city, tz     string // "" when the event is dropped
		venue, byPre string
	}{
		{"首尔 YES24 Live Hall", "Asia/Seoul", "seoul", "Asia/Seoul", "YES24 Live Hall", byTownWithin},
		{"首尔 CJ ENM", "Asia/Seoul", "seoul", "Asia/Seoul", "CJ ENM", byTownWithin},
		{"首尔 KBS", "Asia/Seoul", "seoul", "Asia/Seoul", "KBS", byTownWithin},
		{"首尔奥林匹克大厅", "Asia/Seoul", "seoul", "Asia/Seoul", "奥林匹克大厅", byTownWithin},
		{"首尔圣水洞", "Asia/Seoul", "seoul", "Asia/Seoul", "圣水洞", byTownWithin},
		{"日本 大阪", "Asia/Seoul", "osaka", "Asia/Tokyo", "日本 大阪", byTownWithin}, // the line's country over the feed's zone
		{"韩国 首尔", "Asia/Seoul", "seoul", "Asia/Seoul", "韩国 首尔", ""},
		// A Japanese idol group's calendar (ical/saishumiraishoujo-tokyo-idol.ics): the
		// venue glued to its town holds digits.
		{"横浜1000CLUB", "Asia/Tokyo", "yokohama", "Asia/Tokyo", "1000CLUB", byTownWithin},
		{"1000CLUB", "Asia/Tokyo", "", "", "", ""},
		{"线上", "Asia/Seoul", "", "", "", ""},  // "online"
		{"全平台", "Asia/Seoul", "", "", "", ""}, // "every platform"
		{"Weverse 直播", "Asia/Seoul", "", "", "", ""},
	} {
		t.Run(tt.line, func(t *testing.T) {
			ev := event("EVAN", "", "", "", "2026-09-07T19:00")
			ev.Venue = orderPlace(tt.line, tt.zone, "", 0, 0)
			n := newNormalizer(noon, 1)
			var sr SourceReport
			n.addAll([]source.Event{ev}, 0, Source{}, &sr)
			if tt.city == "" {
				if sr.Events != 0 {
					t.Fatalf("%q placed in %+v; want it dropped", tt.line, sr.Places)
				}
				return
			}
			if sr.Events != 1 || len(sr.Places) != 1 {
				t.Fatalf("%q: %d events, places %+v, dropped %+v; want one in %s", tt.line, sr.Events, sr.Places, sr.Dropped, tt.city)
			}
			pr := sr.Places[0]
			if pr.City != tt.city || pr.Timezone != tt.tz {
				t.Errorf("%q placed in %s, %s (by %q); want %s, %s", tt.line, pr.City, pr.Timezone, pr.By, tt.city, tt.tz)
			}
			if tt.byPre != "" && (len(pr.By) < len(tt.byPre) || pr.By[:len(tt.byPre)] != tt.byPre) {
				t.Errorf("%q decided by %q; want it to start with %q", tt.line, pr.By, tt.byPre)
			}
			if got := n.recs[0].ev.Venue.Name; got != tt.venue {
				t.Errorf("%q: venue %q; want %q", tt.line, got, tt.venue)
			}
		})
	}
}

// TestEastAsianFirstBounds checks the candidates of a long glued word: at most
// maxGluedTown letters are looked up, and the venue's part keeps two letters at least.
func TestEastAsianFirstBounds(t *testing.T) {
	got := eastAsianFirst("首尔奥林匹克大厅")
	want := []string{"首尔奥林匹克大厅", "首尔奥林", "首尔奥", "首尔"}
	if len(got) != len(want) {
		t.Fatalf("eastAsianFirst gave %+v; want towns %q", got, want)
	}
	for i, c := range got {
		if c.town != want[i] || c.town+c.before != "首尔奥林匹克大厅" {
			t.Errorf("candidate %d: %+v; want town %q and the rest as the venue", i, c, want[i])
		}
	}
	if got := eastAsianFirst("Weverse 直播"); got != nil {
		t.Errorf("a Latin first word gave %+v; want none", got)
	}
}

// A glued East Asian line whose first two letters are a town elsewhere.
func TestGluedStreetIsNotATown(t *testing.T) {
	for _, line := range []string{"南京东路世纪广场", "北京东路剧场", "北京路步行街", "重庆南路剧院", "福州路上海书城", "南京西路", "大阪通り", "京都通りライブ"} {
		for _, zone := range []string{"Asia/Shanghai", "Asia/Tokyo"} {
			ev := event("Concert", "", "", "", "2026-09-07T19:30")
			ev.Venue = orderPlace(line, zone, "", 0, 0)
			n := newNormalizer(noon, 1)
			var sr SourceReport
			n.addAll([]source.Event{ev}, 0, Source{}, &sr)
			if sr.Events != 0 {
				t.Errorf("%s [%s]: a street named after a town placed in %+v; want it dropped", line, zone, sr.Places)
			}
		}
	}
}
