package places

// ISO 3166-1 gives territories of their own codes (French Polynesia is PF, Saint Helena SH,
// Tokelau TK), and addresses name them with their sovereign's country ("98714 Papeete,
// Polynésie française, France", "Jamestown, Saint Helena, United Kingdom", "97150 Marigot,
// France"). A territory named before its sovereign's country is the line's country, and a
// town a country lacks that one of its territories has is that territory's: read in the
// country, the town was made on the sovereign's own clock, half a world away.

// sovereigns are the countries of ISO 3166-1's territories that addresses name with them:
// the overseas parts of France, the United Kingdom's, the Netherlands', New Zealand's,
// Australia's, Norway's, Denmark's, Finland's, China's and the United States'
// (ISO 3166-1's remarks on each code).
var sovereigns = map[string]string{
	"BL": "FR", "GF": "FR", "GP": "FR", "MF": "FR", "MQ": "FR", "NC": "FR", "PF": "FR", "PM": "FR",
	"RE": "FR", "TF": "FR", "WF": "FR", "YT": "FR",
	"AI": "GB", "BM": "GB", "FK": "GB", "GG": "GB", "GI": "GB", "GS": "GB", "IM": "GB", "IO": "GB",
	"JE": "GB", "KY": "GB", "MS": "GB", "PN": "GB", "SH": "GB", "TC": "GB", "VG": "GB",
	"AW": "NL", "BQ": "NL", "CW": "NL", "SX": "NL",
	"CK": "NZ", "NU": "NZ", "TK": "NZ",
	"CC": "AU", "CX": "AU", "HM": "AU", "NF": "AU",
	"BV": "NO", "SJ": "NO",
	"FO": "DK", "GL": "DK",
	"AX": "FI",
	"HK": "CN", "MO": "CN",
	"AS": "US", "GU": "US", "MP": "US", "PR": "US", "UM": "US", "VI": "US",
}

// territoryOf reports whether territory (an ISO code) is a territory of country's.
func territoryOf(territory, country string) bool {
	return territory != country && sovereigns[territory] == country
}

// inTerritory returns the one gazetteer town named name in the territories of country
// (by its code), towns before villages as CitiesNamed lists them; nil when none, or when
// several territories have one.
func (g *Gazetteer) inTerritory(name, country string) *City {
	var found *City
	for _, c := range g.CitiesNamed(name) {
		if !territoryOf(c.Country, country) {
			continue
		}
		if found != nil && found.Country != c.Country {
			return nil
		}
		if found == nil {
			found = c
		}
	}
	return found
}

// byTerritory is a Reading's By when the town was found in a territory of the country the
// place names.
const byTerritory = "a town of a territory of the country the place names"
