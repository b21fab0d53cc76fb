package places

import "testing"

// TestTownBeforeNoTown checks "Town, Region" with the region in a language the gazetteer
// does not know (townregion.go): the town, never a town made from the region's name.
func TestTownBeforeNoTown(t *testing.T) {
	checkReadings(t, byTownBeforeNoTown, []readingCase{
		{"a German state in German, its region (subdivisions.go)", Place{Locality: "Haßfurt, Bayern", Country: "Deutschland"}, "hassfurt", byTownBeforePlace, ""},
		{"a Danish region in Danish", Place{Locality: "Ribe, Syddanmark", Country: "DK"}, "ribe", byTownBeforeNoTown, ""},
		{"a postcode before the town", Place{Locality: "97437 Haßfurt, Bayern", Country: "DE"}, "hassfurt", "", ""},
		// Not this rule's.
		{"the region the gazetteer knows", Place{Locality: "Haßfurt, Bavaria", Country: "DE"}, "hassfurt", byTownBeforePlace, ""},
		{"a street before the town", Place{Locality: "Hauptstraße 5, Haßfurt", Country: "DE"}, "hassfurt", "", ""},
		{"a district before its city", Place{Locality: "Kreuzberg, Berlin", Country: "DE"}, "berlin", "", ""},
		{"no country stated, the region tells it", Place{Locality: "Haßfurt, Bayern"}, "hassfurt", byTownBeforePlace, ""},
		{"a town of several, and a region not known", Place{Locality: "Springfield, Zzyzx County", Country: "US"}, "", "", ""},
	})
}
