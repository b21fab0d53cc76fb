package loader

import (
	"os"
	"strings"
	"testing"
)

// TestAddRemoveSource adds a venue to sources files laid out in different ways and takes
// it out again: the file reads, every other byte stays, and removing gives back the file.
func TestAddRemoveSource(t *testing.T) {
	real, err := os.ReadFile("../testdata/real/sources.json")
	if err != nil {
		t.Fatal(err)
	}
	v := VenueConfig{Name: "venue-new", Format: "ical", URL: "https://new.example/a&b.ics", Venue: &VenueHint{Name: "New", City: "Oslo", Country: "NO"}}
	for _, tc := range []struct {
		name, file string
		want       string // a substring of the result
	}{
		{"indented", string(real), "\n    {\n      \"name\": \"venue-new\",\n      \"format\": \"ical\",\n      \"url\": \"https://new.example/a&b.ics\",\n      \"venue\": {\n        \"name\": \"New\","},
		{"one a line", "{\n  \"venues\": [\n    {\"name\": \"a\", \"format\": \"jsonld\", \"url\": \"https://a.example/\"}\n  ]\n}\n",
			"\"},\n    {\"name\": \"venue-new\", \"format\": \"ical\", \"url\": \"https://new.example/a&b.ics\", \"venue\": {\"name\": \"New\", \"city\": \"Oslo\", \"country\": \"NO\"}}\n  ]\n}"},
		{"one line", `{"venues": [{"name": "a", "format": "jsonld", "url": "https://a.example/"}]}`,
			`, {"name": "venue-new", "format": "ical", "url": "https://new.example/a&b.ics", "venue": {"name": "New", "city": "Oslo", "country": "NO"}}]}`},
		{"empty list", "{\n  \"platforms\": [],\n  \"venues\": []\n}\n", "\"venues\": [\n    {\n      \"name\": \"venue-new\""},
		{"no venues", "{\"platforms\": [{\"name\": \"p\", \"kind\": \"hal\", \"url\": \"https://p.example/\"}]}", "\"venues\": [\n    {"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := AddVenue([]byte(tc.file), v)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(out), tc.want) {
				t.Errorf("result lacks %q:\n%s", tc.want, out)
			}
			cfg, err := ParseConfig("/srv/sources.json", out)
			if err != nil {
				t.Fatalf("result does not read: %v\n%s", err, out)
			}
			if last := cfg.Venues[len(cfg.Venues)-1]; last.Name != "venue-new" || last.URL != v.URL || *last.Venue != *v.Venue {
				t.Errorf("last venue = %+v", last)
			}
			back, err := RemoveSource(out, "venue-new")
			if err != nil {
				t.Fatal(err)
			}
			if tc.name != "no venues" && string(back) != tc.file {
				t.Errorf("removed, the file is not as it was:\n%s\nwant\n%s", back, tc.file)
			}
		})
	}
	// The first and the only entry, and a platform.
	for _, tc := range []struct{ file, name, want string }{
		{`{"venues": [{"name": "a"}, {"name": "b"}]}`, "a", `{"venues": [{"name": "b"}]}`},
		{"{\"venues\": [\n  {\"name\": \"a\"}\n]}", "a", "{\"venues\": []}"},
		{`{"platforms": [{"name": "p"}], "venues": []}`, "p", `{"platforms": [], "venues": []}`},
	} {
		out, err := RemoveSource([]byte(tc.file), tc.name)
		if err != nil || string(out) != tc.want {
			t.Errorf("remove %s from %s = %s, %v; want %s", tc.name, tc.file, out, err, tc.want)
		}
	}
	if _, err := RemoveSource([]byte(`{"venues": []}`), "x"); err == nil {
		t.Error("removing an unknown source: no error")
	}
	if _, err := AddVenue([]byte(`[1]`), v); err == nil {
		t.Error("adding to a file that is not an object: no error")
	}
}
