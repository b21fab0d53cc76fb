package demo

// area is a part of the world; touring acts need a few days to travel between areas.
type area int

const (
	europe area = iota
	northAmerica
	latinAmerica
	asia
	oceania
	africa
)

// city is a gazetteer city the corpus uses. name and country must resolve with
// places.LookupCity; aka lists other names of it from the gazetteer that pages may use.
type city struct {
	key      string // the gazetteer slug; venue tables refer to cities by it
	name     string
	country  string // ISO 3166-1 alpha-2
	region   string // addressRegion, "" when pages leave it out
	aka      []string
	area     area
	offsets  bool    // venues here always state UTC offsets (+05:30, +05:45, −03:30 must appear)
	lat, lon float64 // the centre; generated venues lie within a few kilometres of it
	weight   int     // how many generated venues the city draws, relatively
}

var cities = []city{
	{key: "london-gb", name: "London", country: "GB", area: europe, lat: 51.5074, lon: -0.1278, weight: 4},
	{key: "manchester", name: "Manchester", country: "GB", area: europe, lat: 53.4808, lon: -2.2426, weight: 2},
	{key: "glasgow", name: "Glasgow", country: "GB", area: europe, lat: 55.8642, lon: -4.2518, weight: 2},
	{key: "edinburgh", name: "Edinburgh", country: "GB", area: europe, lat: 55.9533, lon: -3.1883, weight: 1},
	{key: "bristol", name: "Bristol", country: "GB", area: europe, lat: 51.4545, lon: -2.5879, weight: 2},
	{key: "leeds", name: "Leeds", country: "GB", area: europe, lat: 53.8008, lon: -1.5491, weight: 1},
	{key: "dublin", name: "Dublin", country: "IE", area: europe, lat: 53.3498, lon: -6.2603, weight: 2},
	{key: "berlin", name: "Berlin", country: "DE", area: europe, lat: 52.5200, lon: 13.4050, weight: 4},
	{key: "hamburg", name: "Hamburg", country: "DE", area: europe, lat: 53.5511, lon: 9.9937, weight: 2},
	{key: "munich", name: "Munich", country: "DE", region: "Bayern", aka: []string{"München"}, area: europe, lat: 48.1351, lon: 11.5820, weight: 2},
	{key: "cologne", name: "Cologne", country: "DE", region: "NRW", aka: []string{"Köln"}, area: europe, lat: 50.9375, lon: 6.9603, weight: 2},
	{key: "leipzig", name: "Leipzig", country: "DE", region: "Sachsen", area: europe, lat: 51.3397, lon: 12.3731, weight: 1},
	{key: "amsterdam", name: "Amsterdam", country: "NL", area: europe, lat: 52.3676, lon: 4.9041, weight: 3},
	{key: "rotterdam", name: "Rotterdam", country: "NL", area: europe, lat: 51.9244, lon: 4.4777, weight: 1},
	{key: "utrecht", name: "Utrecht", country: "NL", area: europe, lat: 52.0907, lon: 5.1214, weight: 1},
	{key: "brussels", name: "Brussels", country: "BE", aka: []string{"Bruxelles", "Brussel"}, area: europe, lat: 50.8503, lon: 4.3517, weight: 2},
	{key: "luxembourg", name: "Luxembourg", country: "LU", aka: []string{"Luxemburg"}, area: europe, lat: 49.6116, lon: 6.1319, weight: 1},
	{key: "paris", name: "Paris", country: "FR", area: europe, lat: 48.8566, lon: 2.3522, weight: 4},
	{key: "lyon", name: "Lyon", country: "FR", area: europe, lat: 45.7640, lon: 4.8357, weight: 1},
	{key: "marseille", name: "Marseille", country: "FR", area: europe, lat: 43.2965, lon: 5.3698, weight: 1},
	{key: "barcelona", name: "Barcelona", country: "ES", region: "Catalunya", area: europe, lat: 41.3874, lon: 2.1686, weight: 3},
	{key: "madrid", name: "Madrid", country: "ES", area: europe, lat: 40.4168, lon: -3.7038, weight: 3},
	{key: "valencia", name: "Valencia", country: "ES", aka: []string{"València"}, area: europe, lat: 39.4699, lon: -0.3763, weight: 1},
	{key: "seville", name: "Seville", country: "ES", aka: []string{"Sevilla"}, area: europe, lat: 37.3891, lon: -5.9845, weight: 1},
	{key: "lisbon", name: "Lisbon", country: "PT", aka: []string{"Lisboa"}, area: europe, lat: 38.7223, lon: -9.1393, weight: 2},
	{key: "porto", name: "Porto", country: "PT", aka: []string{"Oporto"}, area: europe, lat: 41.1579, lon: -8.6291, weight: 1},
	{key: "rome", name: "Rome", country: "IT", aka: []string{"Roma"}, area: europe, lat: 41.9028, lon: 12.4964, weight: 2},
	{key: "milan", name: "Milan", country: "IT", aka: []string{"Milano"}, area: europe, lat: 45.4642, lon: 9.1900, weight: 2},
	{key: "copenhagen", name: "Copenhagen", country: "DK", aka: []string{"København"}, area: europe, lat: 55.6761, lon: 12.5683, weight: 2},
	{key: "aarhus", name: "Aarhus", country: "DK", aka: []string{"Århus"}, area: europe, lat: 56.1629, lon: 10.2039, weight: 1},
	{key: "stockholm", name: "Stockholm", country: "SE", area: europe, lat: 59.3293, lon: 18.0686, weight: 2},
	{key: "gothenburg", name: "Gothenburg", country: "SE", aka: []string{"Göteborg"}, area: europe, lat: 57.7089, lon: 11.9746, weight: 1},
	{key: "oslo", name: "Oslo", country: "NO", area: europe, lat: 59.9139, lon: 10.7522, weight: 2},
	{key: "bergen", name: "Bergen", country: "NO", area: europe, lat: 60.3913, lon: 5.3221, weight: 1},
	{key: "helsinki", name: "Helsinki", country: "FI", area: europe, lat: 60.1699, lon: 24.9384, weight: 1},
	{key: "reykjavik", name: "Reykjavík", country: "IS", aka: []string{"Reykjavik"}, area: europe, lat: 64.1466, lon: -21.9426, weight: 1},
	{key: "tallinn", name: "Tallinn", country: "EE", area: europe, lat: 59.4370, lon: 24.7536, weight: 1},
	{key: "riga", name: "Riga", country: "LV", aka: []string{"Rīga"}, area: europe, lat: 56.9496, lon: 24.1052, weight: 1},
	{key: "vilnius", name: "Vilnius", country: "LT", area: europe, lat: 54.6872, lon: 25.2797, weight: 1},
	{key: "warsaw", name: "Warsaw", country: "PL", aka: []string{"Warszawa"}, area: europe, lat: 52.2297, lon: 21.0122, weight: 2},
	{key: "krakow", name: "Kraków", country: "PL", aka: []string{"Krakow", "Cracow"}, area: europe, lat: 50.0647, lon: 19.9450, weight: 1},
	{key: "prague", name: "Prague", country: "CZ", aka: []string{"Praha"}, area: europe, lat: 50.0755, lon: 14.4378, weight: 2},
	{key: "bratislava", name: "Bratislava", country: "SK", area: europe, lat: 48.1486, lon: 17.1077, weight: 1},
	{key: "vienna", name: "Vienna", country: "AT", aka: []string{"Wien"}, area: europe, lat: 48.2082, lon: 16.3738, weight: 2},
	{key: "budapest", name: "Budapest", country: "HU", area: europe, lat: 47.4979, lon: 19.0402, weight: 2},
	{key: "ljubljana", name: "Ljubljana", country: "SI", area: europe, lat: 46.0569, lon: 14.5058, weight: 1},
	{key: "zagreb", name: "Zagreb", country: "HR", area: europe, lat: 45.8150, lon: 15.9819, weight: 1},
	{key: "belgrade", name: "Belgrade", country: "RS", aka: []string{"Beograd"}, area: europe, lat: 44.7866, lon: 20.4489, weight: 1},
	{key: "bucharest", name: "Bucharest", country: "RO", aka: []string{"București"}, area: europe, lat: 44.4268, lon: 26.1025, weight: 1},
	{key: "athens", name: "Athens", country: "GR", aka: []string{"Athina"}, area: europe, lat: 37.9838, lon: 23.7275, weight: 1},
	{key: "istanbul", name: "Istanbul", country: "TR", aka: []string{"İstanbul"}, area: europe, lat: 41.0082, lon: 28.9784, weight: 2},
	{key: "zurich", name: "Zürich", country: "CH", aka: []string{"Zurich", "Zuerich"}, area: europe, lat: 47.3769, lon: 8.5417, weight: 1},

	{key: "new-york", name: "New York", country: "US", region: "NY", aka: []string{"New York City", "NYC"}, area: northAmerica, lat: 40.7128, lon: -74.0060, weight: 4},
	{key: "boston", name: "Boston", country: "US", region: "MA", area: northAmerica, lat: 42.3601, lon: -71.0589, weight: 1},
	{key: "philadelphia", name: "Philadelphia", country: "US", region: "PA", aka: []string{"Philly"}, area: northAmerica, lat: 39.9526, lon: -75.1652, weight: 1},
	{key: "atlanta", name: "Atlanta", country: "US", region: "GA", area: northAmerica, lat: 33.7490, lon: -84.3880, weight: 1},
	{key: "chicago", name: "Chicago", country: "US", region: "IL", area: northAmerica, lat: 41.8781, lon: -87.6298, weight: 3},
	{key: "minneapolis", name: "Minneapolis", country: "US", region: "MN", area: northAmerica, lat: 44.9778, lon: -93.2650, weight: 1},
	{key: "nashville", name: "Nashville", country: "US", region: "TN", area: northAmerica, lat: 36.1627, lon: -86.7816, weight: 2},
	{key: "new-orleans", name: "New Orleans", country: "US", region: "LA", aka: []string{"NOLA"}, area: northAmerica, lat: 29.9511, lon: -90.0715, weight: 2},
	{key: "austin", name: "Austin", country: "US", region: "TX", area: northAmerica, lat: 30.2672, lon: -97.7431, weight: 2},
	{key: "denver", name: "Denver", country: "US", region: "CO", area: northAmerica, lat: 39.7392, lon: -104.9903, weight: 1},
	{key: "phoenix", name: "Phoenix", country: "US", region: "AZ", area: northAmerica, lat: 33.4484, lon: -112.0740, weight: 1},
	{key: "los-angeles", name: "Los Angeles", country: "US", region: "CA", aka: []string{"LA"}, area: northAmerica, lat: 34.0522, lon: -118.2437, weight: 3},
	{key: "san-francisco", name: "San Francisco", country: "US", region: "CA", area: northAmerica, lat: 37.7749, lon: -122.4194, weight: 2},
	{key: "seattle", name: "Seattle", country: "US", region: "WA", area: northAmerica, lat: 47.6062, lon: -122.3321, weight: 2},
	{key: "honolulu", name: "Honolulu", country: "US", region: "HI", area: oceania, lat: 21.3069, lon: -157.8583, weight: 1},
	{key: "toronto", name: "Toronto", country: "CA", region: "ON", area: northAmerica, lat: 43.6532, lon: -79.3832, weight: 2},
	{key: "montreal", name: "Montréal", country: "CA", region: "QC", aka: []string{"Montreal"}, area: northAmerica, lat: 45.5019, lon: -73.5674, weight: 2},
	{key: "london-ca", name: "London", country: "CA", region: "ON", area: northAmerica, lat: 42.9849, lon: -81.2453, weight: 1},
	{key: "vancouver", name: "Vancouver", country: "CA", region: "BC", area: northAmerica, lat: 49.2827, lon: -123.1207, weight: 1},
	{key: "halifax", name: "Halifax", country: "CA", region: "NS", area: northAmerica, lat: 44.6488, lon: -63.5752, weight: 1},
	{key: "st-johns", name: "St. John's", country: "CA", region: "NL", aka: []string{"St Johns", "Saint John's"}, area: northAmerica, offsets: true, lat: 47.5615, lon: -52.7126, weight: 2},

	{key: "mexico-city", name: "Mexico City", country: "MX", aka: []string{"Ciudad de México", "CDMX"}, area: latinAmerica, lat: 19.4326, lon: -99.1332, weight: 2},
	{key: "guadalajara", name: "Guadalajara", country: "MX", region: "Jalisco", area: latinAmerica, lat: 20.6597, lon: -103.3496, weight: 1},
	{key: "bogota", name: "Bogotá", country: "CO", aka: []string{"Bogota"}, area: latinAmerica, lat: 4.7110, lon: -74.0721, weight: 1},
	{key: "lima", name: "Lima", country: "PE", area: latinAmerica, lat: -12.0464, lon: -77.0428, weight: 1},
	{key: "santiago", name: "Santiago", country: "CL", aka: []string{"Santiago de Chile"}, area: latinAmerica, lat: -33.4489, lon: -70.6693, weight: 1},
	{key: "sao-paulo", name: "São Paulo", country: "BR", region: "SP", aka: []string{"Sao Paulo"}, area: latinAmerica, lat: -23.5505, lon: -46.6333, weight: 2},
	{key: "rio-de-janeiro", name: "Rio de Janeiro", country: "BR", region: "RJ", aka: []string{"Rio"}, area: latinAmerica, lat: -22.9068, lon: -43.1729, weight: 1},
	{key: "buenos-aires", name: "Buenos Aires", country: "AR", area: latinAmerica, lat: -34.6037, lon: -58.3816, weight: 2},
	{key: "montevideo", name: "Montevideo", country: "UY", area: latinAmerica, lat: -34.9011, lon: -56.1645, weight: 1},

	{key: "tokyo", name: "Tokyo", country: "JP", aka: []string{"東京"}, area: asia, lat: 35.6762, lon: 139.6503, weight: 3},
	{key: "osaka", name: "Osaka", country: "JP", aka: []string{"大阪"}, area: asia, lat: 34.6937, lon: 135.5023, weight: 1},
	{key: "seoul", name: "Seoul", country: "KR", area: asia, lat: 37.5665, lon: 126.9780, weight: 2},
	{key: "taipei", name: "Taipei", country: "TW", area: asia, lat: 25.0330, lon: 121.5654, weight: 1},
	{key: "bangkok", name: "Bangkok", country: "TH", area: asia, lat: 13.7563, lon: 100.5018, weight: 1},
	{key: "singapore", name: "Singapore", country: "SG", area: asia, lat: 1.3521, lon: 103.8198, weight: 1},
	{key: "mumbai", name: "Mumbai", country: "IN", region: "Maharashtra", aka: []string{"Bombay"}, area: asia, offsets: true, lat: 19.0760, lon: 72.8777, weight: 2},
	{key: "pune", name: "Pune", country: "IN", region: "Maharashtra", aka: []string{"Poona"}, area: asia, lat: 18.5204, lon: 73.8567, weight: 1},
	{key: "bengaluru", name: "Bengaluru", country: "IN", region: "Karnataka", aka: []string{"Bangalore"}, area: asia, offsets: true, lat: 12.9716, lon: 77.5946, weight: 2},
	{key: "chennai", name: "Chennai", country: "IN", region: "Tamil Nadu", aka: []string{"Madras"}, area: asia, lat: 13.0827, lon: 80.2707, weight: 1},
	{key: "delhi", name: "New Delhi", country: "IN", region: "Delhi", aka: []string{"Delhi"}, area: asia, lat: 28.6139, lon: 77.2090, weight: 1},
	{key: "kolkata", name: "Kolkata", country: "IN", region: "West Bengal", aka: []string{"Calcutta"}, area: asia, lat: 22.5726, lon: 88.3639, weight: 1},
	{key: "kathmandu", name: "Kathmandu", country: "NP", region: "Bagmati", area: asia, offsets: true, lat: 27.7172, lon: 85.3240, weight: 2},
	{key: "pokhara", name: "Pokhara", country: "NP", region: "Gandaki", area: asia, lat: 28.2096, lon: 83.9856, weight: 1},

	{key: "sydney", name: "Sydney", country: "AU", region: "NSW", area: oceania, lat: -33.8688, lon: 151.2093, weight: 3},
	{key: "melbourne", name: "Melbourne", country: "AU", region: "VIC", area: oceania, lat: -37.8136, lon: 144.9631, weight: 3},
	{key: "brisbane", name: "Brisbane", country: "AU", region: "QLD", area: oceania, lat: -27.4698, lon: 153.0251, weight: 1},
	{key: "adelaide", name: "Adelaide", country: "AU", region: "SA", area: oceania, lat: -34.9285, lon: 138.6007, weight: 1},
	{key: "perth", name: "Perth", country: "AU", region: "WA", area: oceania, lat: -31.9505, lon: 115.8605, weight: 1},
	{key: "auckland", name: "Auckland", country: "NZ", area: oceania, lat: -36.8485, lon: 174.7633, weight: 1},
	{key: "wellington", name: "Wellington", country: "NZ", area: oceania, lat: -41.2865, lon: 174.7762, weight: 1},

	{key: "cape-town", name: "Cape Town", country: "ZA", aka: []string{"Kaapstad"}, area: africa, lat: -33.9249, lon: 18.4241, weight: 1},
	{key: "johannesburg", name: "Johannesburg", country: "ZA", aka: []string{"Joburg"}, area: africa, lat: -26.2041, lon: 28.0473, weight: 1},
}

// country holds what pages need about a country besides its code.
type country struct {
	local    string  // a local name listed in countries.tsv, "" when there is none
	currency string  // ISO 4217
	perEuro  float64 // rough exchange rate, to make prices look local
	step     float64 // prices are rounded to multiples of it
	lang     string  // the pages' lang attribute
	words    string  // the naming style of its venues and streets, a key of localWords
	postal   string  // postal code pattern: '#' a digit, 'A' a capital letter, else as is
}

var countries = map[string]country{
	"GB": {currency: "GBP", perEuro: 0.85, step: 0.5, lang: "en-GB", words: "en", postal: "A# #AA"},
	"IE": {local: "Éire", currency: "EUR", perEuro: 1, step: 0.5, lang: "en-IE", words: "en", postal: "D## A#A#"},
	"DE": {local: "Deutschland", currency: "EUR", perEuro: 1, step: 1, lang: "de", words: "de", postal: "#####"},
	"AT": {local: "Österreich", currency: "EUR", perEuro: 1, step: 1, lang: "de-AT", words: "de", postal: "1###"},
	"CH": {local: "Schweiz", currency: "CHF", perEuro: 0.95, step: 1, lang: "de-CH", words: "ch", postal: "8###"},
	"NL": {local: "Nederland", currency: "EUR", perEuro: 1, step: 0.5, lang: "nl", words: "nl", postal: "#### AA"},
	"BE": {local: "Belgique", currency: "EUR", perEuro: 1, step: 1, lang: "fr-BE", words: "fr", postal: "1###"},
	"LU": {currency: "EUR", perEuro: 1, step: 1, lang: "fr-LU", words: "fr", postal: "L-1###"},
	"FR": {currency: "EUR", perEuro: 1, step: 1, lang: "fr", words: "fr", postal: "#####"},
	"ES": {local: "España", currency: "EUR", perEuro: 1, step: 1, lang: "es", words: "es", postal: "#####"},
	"PT": {currency: "EUR", perEuro: 1, step: 1, lang: "pt", words: "pt", postal: "####-###"},
	"IT": {local: "Italia", currency: "EUR", perEuro: 1, step: 1, lang: "it", words: "it", postal: "#####"},
	"DK": {local: "Danmark", currency: "DKK", perEuro: 7.46, step: 5, lang: "da", words: "da", postal: "####"},
	"SE": {local: "Sverige", currency: "SEK", perEuro: 11.5, step: 10, lang: "sv", words: "sv", postal: "### ##"},
	"NO": {local: "Norge", currency: "NOK", perEuro: 11.7, step: 10, lang: "nb", words: "no", postal: "####"},
	"FI": {local: "Suomi", currency: "EUR", perEuro: 1, step: 1, lang: "fi", words: "fi", postal: "00###"},
	"IS": {local: "Ísland", currency: "ISK", perEuro: 150, step: 100, lang: "is", words: "no", postal: "1##"},
	"EE": {local: "Eesti", currency: "EUR", perEuro: 1, step: 1, lang: "et", words: "east", postal: "1####"},
	"LV": {local: "Latvija", currency: "EUR", perEuro: 1, step: 1, lang: "lv", words: "east", postal: "LV-10##"},
	"LT": {local: "Lietuva", currency: "EUR", perEuro: 1, step: 1, lang: "lt", words: "east", postal: "LT-0####"},
	"PL": {local: "Polska", currency: "PLN", perEuro: 4.3, step: 5, lang: "pl", words: "pl", postal: "##-###"},
	"CZ": {local: "Česko", currency: "CZK", perEuro: 25, step: 10, lang: "cs", words: "cz", postal: "1## 00"},
	"SK": {local: "Slovensko", currency: "EUR", perEuro: 1, step: 1, lang: "sk", words: "cz", postal: "8## ##"},
	"HU": {local: "Magyarország", currency: "HUF", perEuro: 400, step: 500, lang: "hu", words: "hu", postal: "10##"},
	"SI": {local: "Slovenija", currency: "EUR", perEuro: 1, step: 1, lang: "sl", words: "east", postal: "1000"},
	"HR": {local: "Hrvatska", currency: "EUR", perEuro: 1, step: 1, lang: "hr", words: "east", postal: "10000"},
	"RS": {local: "Srbija", currency: "RSD", perEuro: 117, step: 100, lang: "sr", words: "east", postal: "11000"},
	"RO": {local: "România", currency: "RON", perEuro: 5, step: 5, lang: "ro", words: "east", postal: "0#####"},
	"GR": {currency: "EUR", perEuro: 1, step: 1, lang: "el", words: "east", postal: "10# ##"},
	"TR": {local: "Turkey", currency: "TRY", perEuro: 38, step: 50, lang: "tr", words: "tr", postal: "34###"},
	"US": {currency: "USD", perEuro: 1.1, step: 1, lang: "en-US", words: "us", postal: "#####"},
	"CA": {currency: "CAD", perEuro: 1.5, step: 1, lang: "en-CA", words: "us", postal: "A#A #A#"},
	"MX": {local: "México", currency: "MXN", perEuro: 20, step: 50, lang: "es-MX", words: "es", postal: "06###"},
	"CO": {currency: "COP", perEuro: 4500, step: 5000, lang: "es-CO", words: "es", postal: "110###"},
	"PE": {local: "Perú", currency: "PEN", perEuro: 4, step: 5, lang: "es-PE", words: "es", postal: "150##"},
	"CL": {currency: "CLP", perEuro: 1000, step: 1000, lang: "es-CL", words: "es", postal: "#######"},
	"BR": {local: "Brasil", currency: "BRL", perEuro: 6, step: 10, lang: "pt-BR", words: "pt", postal: "#####-###"},
	"AR": {currency: "ARS", perEuro: 1100, step: 1000, lang: "es-AR", words: "es", postal: "C14##AAA"},
	"UY": {currency: "UYU", perEuro: 45, step: 50, lang: "es-UY", words: "es", postal: "11###"},
	"JP": {local: "Nippon", currency: "JPY", perEuro: 160, step: 500, lang: "ja", words: "ja", postal: "1##-00##"},
	"KR": {local: "Republic of Korea", currency: "KRW", perEuro: 1450, step: 1000, lang: "ko", words: "ko", postal: "04###"},
	"TW": {currency: "TWD", perEuro: 35, step: 100, lang: "zh-TW", words: "asia", postal: "1##"},
	"TH": {currency: "THB", perEuro: 38, step: 100, lang: "th", words: "asia", postal: "10###"},
	"SG": {currency: "SGD", perEuro: 1.45, step: 1, lang: "en-SG", words: "asia", postal: "0#####"},
	"IN": {local: "Bharat", currency: "INR", perEuro: 90, step: 100, lang: "en-IN", words: "in", postal: "4000##"},
	"NP": {currency: "NPR", perEuro: 145, step: 100, lang: "ne", words: "np", postal: "44600"},
	"AU": {currency: "AUD", perEuro: 1.65, step: 1, lang: "en-AU", words: "en", postal: "2###"},
	"NZ": {local: "Aotearoa", currency: "NZD", perEuro: 1.8, step: 1, lang: "en-NZ", words: "en", postal: "60##"},
	"ZA": {currency: "ZAR", perEuro: 20, step: 10, lang: "en-ZA", words: "en", postal: "80##"},
}
