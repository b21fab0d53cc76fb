package places

import (
	"strings"
	"testing"
)

// TestEastAsianUnits checks localities written with East Asian units (eastasia.go): a ward
// in the city named before it or in the city its region is, read as that city; a ward that
// names no city dropped, never made as a town.
func TestEastAsianUnits(t *testing.T) {
	checkReadings(t, byUnits, []readingCase{
		{"a Tokyo ward, the metropolis as region", Place{Locality: "渋谷区", Region: "東京都", Country: "JP"}, "tokyo", byUnits, ""},
		{"prefecture and ward on one line", Place{Locality: "東京都渋谷区", Country: "JP"}, "tokyo", byUnits, ""},
		{"no country: the units tell it", Place{Locality: "東京都港区"}, "tokyo", byUnits, ""},
		{"city and ward", Place{Locality: "大阪市北区", Region: "大阪府", Country: "JP"}, "osaka", byUnits, ""},
		{"city and ward in Hokkaido", Place{Locality: "札幌市中央区", Region: "北海道", Country: "JP"}, "sapporo", byUnits, ""},
		{"Korean, spaced", Place{Locality: "서울특별시 마포구", Country: "KR"}, "seoul", byUnits, ""},
		{"a Korean ward, the special city as region", Place{Locality: "마포구", Region: "서울특별시", Country: "KR"}, "seoul", byUnits, ""},
		{"Chinese city and district", Place{Locality: "北京市朝阳区", Country: "CN"}, "beijing", byUnits, ""},
		{"province, city and district", Place{Locality: "广东省广州市天河区", Country: "CN"}, "guangzhou", byUnits, ""},
		{"a Chinese district, the municipality as region", Place{Locality: "朝阳区", Region: "北京市", Country: "CN"}, "beijing", byUnits, ""},
		{"romanized ward, the city as region", Place{Locality: "Shibuya-ku", Region: "Tokyo", Country: "JP"}, "tokyo", byUnits, ""},
		{"romanized city", Place{Locality: "Osaka-shi", Region: "Osaka", Country: "JP"}, "osaka", byUnits, ""},
		// A ward no city is named for: never made.
		{"a ward in a prefecture of several cities", Place{Locality: "北区", Region: "大阪府", Country: "JP"}, "", "", "a ward"},
		{"a romanized ward alone", Place{Locality: "Kita-ku", Country: "JP"}, "", "", "a ward"},
	})
}

func TestUnitParts(t *testing.T) {
	tests := map[string]string{
		"東京都渋谷区":     "東京都|渋谷区",
		"大阪市北区":      "大阪市|北区",
		"广东省广州市天河区":  "广东省|广州市|天河区",
		"神奈川県横浜市中区":  "神奈川県|横浜市|中区",
		"서울특별시 마포구":  "서울특별시|마포구",
		"京都市":        "京都市",
		"北海道札幌市中央区":  "北海道|札幌市|中央区",
		"Shibuya-ku": "Shibuya-ku",
	}
	for in, want := range tests {
		if got := strings.Join(unitParts(nil, in), "|"); got != want {
			t.Errorf("unitParts(%q) = %q, want %q", in, got, want)
		}
	}
}
