package demo

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/gigs/gigs/engine"
)

// localWords is how venues and streets are named in a country.
type localWords struct {
	// venues are name patterns: {N} a shared noun, {A} a shared adjective, {T} a shared
	// venue type, {S} a surname, {L} a local noun (with its article where the language
	// has one), {B} the local noun without its article, {P} a street name.
	venues   []string
	local    []string
	articles bool     // local nouns start with an article: {B} drops it
	streets  []string // street patterns: {p} the street name, {n} {m} {k} numbers
	names    []string // street names
}

// Words shared by every country's venue names.
var (
	venueNouns = []string{
		"Garage", "Lantern", "Anchor", "Crown", "Foundry", "Lighthouse", "Magnet", "Orbit",
		"Comet", "Parrot", "Falcon", "Harbour", "Sparrow", "Junction", "Depot", "Exchange",
		"Tramshed", "Pump House", "Mill", "Pavilion", "Boathouse", "Engine Room", "Signal",
		"Kettle", "Moth", "Heron", "Beacon", "Compass", "Gramophone", "Jukebox", "Radiator",
		"Tin Roof", "Copper Still", "Blue Door", "Red Lion", "Black Cat", "Owl", "Windmill",
		"Observatory", "Greenhouse", "Vault", "Arcade", "Printhouse", "Cable Car", "Lamplighter",
	}
	venueAdjectives = []string{
		"Golden", "Crooked", "Velvet", "Rusty", "Silver", "Little", "Old", "Hidden", "Lucky",
		"Blue", "Electric", "Sunken", "Upper", "Lower", "Wandering", "Northern",
	}
	venueTypes = []string{
		"Hall", "Rooms", "Social", "Ballroom", "Theatre", "Lounge", "Tavern", "Works", "House",
		"Bar", "Club", "Music Hall", "Social Club", "Cellar", "Studio", "Room",
	}
	venueSurnames = []string{
		"Murphy", "O'Hara", "Delaney", "Kowalski", "Fitzgerald", "Hennessy", "Baxter", "Molloy",
		"Pritchard", "Donovan", "Marlowe", "Lacey", "Whelan", "Dunmore",
	}
)

var (
	englishVenues = []string{"The {N}", "The {N}", "The {N} {T}", "{N} {T}", "The {A} {N}", "{S}'s", "The {N} & {N}", "{P} {T}", "The {A} {N} {T}"}
	eastVenues    = []string{"Klub {N}", "{N} Club", "Bar {N}", "Kino {N}", "{N} Hall"}
)

var localWordsByKey = map[string]localWords{
	"en": {englishVenues, nil, false,
		[]string{"{n} {p} Street", "{n} {p} Road", "{n} {p} Lane", "{n} {p} Place", "Unit {m}, {p} Yard"},
		[]string{"High", "Church", "Mill", "Station", "King", "Queen", "Market", "Bridge", "Park", "Victoria", "Albert", "George", "Union", "Water", "Castle", "Chapel", "Canal", "Dock", "Harbour", "River", "Hill", "Grove"}},
	"us": {[]string{"The {N}", "The {N}", "{N} {T}", "The {A} {N}", "{S}'s", "{A} {N} Saloon", "{P} Street {T}", "The {N} Room"}, nil, false,
		[]string{"{n} {p} St", "{n} {p} Ave", "{n} {p} Street", "{n} {p} Blvd", "{n} N {p} Ave", "{n} E {p} St"},
		[]string{"Main", "Elm", "Oak", "Maple", "Cedar", "Front", "Market", "Broad", "Spring", "Union", "Walnut", "Chestnut", "Lincoln", "Franklin", "Jefferson", "Magnolia", "Pearl", "Canal"}},
	"de": {[]string{"{L}halle", "{L}keller", "Club {L}", "Kulturhaus {L}", "{L}werk", "Bar {L}", "Kantine am {L}"},
		[]string{"Mond", "Stern", "Hafen", "Anker", "Kessel", "Turm", "Fuchs", "Raben", "Möwen", "Kranich", "Ofen", "Eisen", "Stahl", "Nacht", "Licht", "Schall", "Klang", "Funk", "Weißen", "Grün"}, false,
		[]string{"{p}straße {n}", "{p}weg {n}", "{p}platz {n}", "{p}allee {n}"},
		[]string{"Haupt", "Bahnhof", "Kirch", "Schiller", "Goethe", "Linden", "Garten", "Hafen", "Markt", "Mühlen", "Berg", "Brunnen", "Rosen", "Friedrich", "Luisen"}},
	"ch": {[]string{"{L}halle", "{L}keller", "Club {L}", "Kulturhaus {L}", "Bar {L}"},
		[]string{"Mond", "Stern", "Hafen", "Anker", "Kessel", "Turm", "Fuchs", "Raben", "Möwen", "Ofen", "Nacht", "Licht", "Klang"}, false,
		[]string{"{p}strasse {n}", "{p}gasse {n}", "{p}platz {n}"},
		[]string{"Bahnhof", "Kirch", "Linden", "Garten", "Hafen", "Markt", "Mühle", "Berg", "Rosen", "Langstrasse"}},
	"nl": {[]string{"{L}", "Café {B}", "Podium {B}", "{B}zaal", "Club {B}"},
		[]string{"De Ketel", "De Vlieger", "De Meeuw", "De Molen", "De Lantaarn", "De Haven", "De Kraan", "De Spiegel", "De Uil", "De Vuurtoren", "De Zwaan", "De Reiger"}, true,
		[]string{"{p}straat {n}", "{p}gracht {n}", "{p}kade {n}", "{p}weg {n}"},
		[]string{"Kerk", "Molen", "Haven", "Lange", "Nieuwe", "Oude", "Brouwers", "Prinsen", "Bloem", "Wester"}},
	"fr": {[]string{"{L}", "{L}", "{L} Club", "Salle {S}", "Le {N}", "Café {B}"},
		[]string{"La Lune", "La Boussole", "La Sirène", "La Fourmi", "La Chaufferie", "La Péniche", "La Clef", "Le Phare", "Le Moulin", "Le Hangar", "Le Bocal", "Le Comptoir", "Le Sémaphore", "Le Grenier", "La Guinguette", "Le Réverbère"}, true,
		[]string{"{n} rue {p}", "{n} boulevard {p}", "{n} avenue {p}", "{n} quai {p}"},
		[]string{"de la République", "des Martyrs", "Voltaire", "Oberkampf", "de la Gare", "du Faubourg", "Saint-Denis", "de Belleville", "des Lilas", "Victor Hugo", "Jean Jaurès", "de la Paix"}},
	"es": {[]string{"{L}", "Sala {B}", "Sala {B}", "Café {B}", "{L} Club"},
		[]string{"El Faro", "La Luna", "El Sótano", "La Cueva", "El Tranvía", "La Gramola", "La Farola", "La Ballena", "El Cometa", "La Fábrica", "El Perro Azul", "La Golondrina", "El Búho"}, true,
		[]string{"Calle {p} {n}", "Avenida {p} {n}", "Calle de {p}, {n}", "Pasaje {p} {n}"},
		[]string{"Mayor", "Real", "San Bernardo", "Alcalá", "Colón", "la Libertad", "la Luna", "del Sol", "Bolívar", "Independencia", "Santa Fe", "Corrientes", "Hidalgo", "Juárez"}},
	"pt": {[]string{"{L}", "Casa {B}", "Sala {B}", "Bar {B}", "Clube {B}"},
		[]string{"O Farol", "A Lua", "A Âncora", "O Bonde", "A Fábrica", "O Porão", "A Baleia", "O Cometa", "A Coruja", "O Galpão"}, true,
		[]string{"Rua {p}, {n}", "Avenida {p}, {n}", "Travessa {p}, {n}"},
		[]string{"Augusta", "da Prata", "do Carmo", "das Flores", "Direita", "da Consolação", "do Ouvidor", "São Bento", "dos Anjos"}},
	"it": {[]string{"{L}", "Circolo {B}", "Teatro {B}", "Spazio {B}"},
		[]string{"Il Faro", "La Luna", "La Lanterna", "Il Gabbiano", "La Fonderia", "La Cantina", "Il Molo", "La Balena", "Il Cortile", "La Civetta"}, true,
		[]string{"Via {p} {n}", "Viale {p} {n}", "Corso {p} {n}"},
		[]string{"Roma", "Garibaldi", "Mazzini", "dei Mille", "Cavour", "Verdi", "Vittorio Emanuele", "del Porto", "Dante"}},
	"da": {[]string{"{L}huset", "Klub {L}", "{L} Scene", "Bar {L}"},
		[]string{"Havn", "Fyr", "Måne", "Stjerne", "Ugle", "Kran", "Lygte", "Smedje"}, false,
		[]string{"{p}gade {n}", "{p}vej {n}"},
		[]string{"Nørre", "Vester", "Store", "Havne", "Kirke", "Møller", "Strand", "Østre"}},
	"sv": {[]string{"{L}huset", "Klubb {L}", "{L}scenen", "Bar {L}"},
		[]string{"Hamn", "Fyr", "Måne", "Stjärn", "Kran", "Lykt", "Smedje", "Tall"}, false,
		[]string{"{p}gatan {n}", "{p}vägen {n}"},
		[]string{"Stor", "Kyrko", "Hamn", "Drottning", "Kungs", "Vasa", "Norra", "Södra", "Sjö"}},
	"no": {[]string{"{L}huset", "Klubb {L}", "{L}scenen", "Bar {L}"},
		[]string{"Havn", "Fyr", "Måne", "Stjerne", "Ugle", "Kran", "Lykt", "Smie"}, false,
		[]string{"{p}gata {n}", "{p}veien {n}", "{p}gate {n}"},
		[]string{"Stor", "Kirke", "Havne", "Torg", "Kongens", "Møller", "Akers", "Strand"}},
	"fi": {[]string{"Klubi {L}", "{L}", "Bar {L}", "{L} Sali"},
		[]string{"Majakka", "Kuu", "Tähti", "Pöllö", "Lyhty", "Paja", "Kettu"}, false,
		[]string{"{p}katu {n}", "{p}tie {n}"},
		[]string{"Aleksanterin", "Kalevan", "Fredrikin", "Annan", "Eerikin", "Hämeen", "Mannerheimin"}},
	"pl": {[]string{"Klub Pod {L}", "Pod {L}", "Klub {N}", "{N} Bar"},
		[]string{"Latarnią", "Kominem", "Kotwicą", "Mostem", "Zegarem", "Sową"}, false,
		[]string{"ul. {p} {n}"},
		[]string{"Floriańska", "Długa", "Mickiewicza", "Piotrkowska", "Nowy Świat", "Mazowiecka", "Józefa", "Dietla"}},
	"cz": {[]string{"Klub {L}", "{L} Bar", "Divadlo {L}"},
		[]string{"Kotva", "Maják", "Měsíc", "Hvězda", "Kotelna", "Sova", "Lucerna Dolní"}, false,
		[]string{"{p} {n}"},
		[]string{"Národní", "Vinohradská", "Dlouhá", "Karlova", "Obchodná", "Panská", "Husova"}},
	"hu": {[]string{"{L} Kert", "{L} Klub", "{L} Bár"},
		[]string{"Lámpás", "Horgony", "Hold", "Csillag", "Kazán", "Bagoly"}, false,
		[]string{"{p} utca {n}"},
		[]string{"Király", "Dohány", "Kazinczy", "Rákóczi", "Akácfa", "Wesselényi"}},
	"tr": {[]string{"{L} Sahne", "Salon {L}", "{L} Kulüp"},
		[]string{"Fener", "Çapa", "Yıldız", "Martı", "Kazan", "Baykuş"}, false,
		[]string{"{p} Caddesi No:{n}", "{p} Sokak No:{n}"},
		[]string{"İstiklal", "Moda", "Bağdat", "Kadıköy", "Cihangir"}},
	"ee": {eastVenues, nil, false, []string{"{p} {n}"}, []string{"Telliskivi", "Vana-Viru", "Kopli", "Pärnu mnt"}},
	"lv": {eastVenues, nil, false, []string{"{p} iela {n}"}, []string{"Brīvības", "Tērbatas", "Miera", "Blaumaņa"}},
	"lt": {eastVenues, nil, false, []string{"{p} g. {n}"}, []string{"Pilies", "Gedimino pr.", "Totorių", "Vilniaus"}},
	"si": {eastVenues, nil, false, []string{"{p} {n}"}, []string{"Trubarjeva cesta", "Metelkova ulica", "Slovenska cesta"}},
	"hr": {eastVenues, nil, false, []string{"{p} {n}"}, []string{"Ilica", "Tkalčićeva ulica", "Savska cesta"}},
	"rs": {eastVenues, nil, false, []string{"{p} {n}"}, []string{"Knez Mihailova", "Cetinjska", "Karađorđeva"}},
	"ro": {eastVenues, nil, false, []string{"Strada {p} {n}"}, []string{"Lipscani", "Victoriei", "Covaci", "Academiei"}},
	"gr": {eastVenues, nil, false, []string{"{p} {n}"}, []string{"Ermou", "Athinas", "Kolokotroni", "Aiolou"}},
	"ja": {[]string{"{P} {N}", "Live House {N}", "Club {N}", "{N} Hall"},
		nil, false,
		[]string{"{n}-{m}-{k} {p}"},
		[]string{"Kita-ku", "Chuo-ku", "Nishi-ku", "Minato-ku", "Naka-ku"}},
	"ko": {[]string{"{N} Hall", "Club {N}", "{P} {N}"},
		nil, false,
		[]string{"{n} {p}"},
		[]string{"Wausan-ro, Mapo-gu", "Itaewon-ro, Yongsan-gu", "Eoulmadang-ro, Mapo-gu", "Seongsui-ro, Seongdong-gu"}},
	"tw": {[]string{"The {N}", "{N} Live", "Club {N}"}, nil, false, []string{"No. {n}, {p}"}, []string{"Section 1, Roosevelt Road", "Lane 5, Heping East Road", "Section 3, Xinyi Road"}},
	"th": {[]string{"The {N}", "{N} Live", "Club {N}"}, nil, false, []string{"{n} {p}"}, []string{"Sukhumvit Soi 11", "Ekkamai Road", "Phra Athit Road"}},
	"sg": {[]string{"The {N}", "{N} Live", "Club {N}"}, nil, false, []string{"{n} {p}"}, []string{"Club Street", "Haji Lane", "Circular Road", "Tanjong Pagar Road"}},
	"in": {[]string{"The {N}", "{N} Social", "The {A} {N}", "{P} Social"}, nil, false,
		[]string{"{n} {p}"},
		[]string{"MG Road", "Linking Road", "Park Street", "Church Street", "Hill Road", "Station Road"}},
	"np": {[]string{"{N} Music Bar", "The {N} House", "{N} Jazz Bar"}, nil, false,
		[]string{"{p} Marg {n}"},
		[]string{"Chaksibari", "Durbar", "Jhochhen", "Lakeside", "Kupondole"}},
}

// wordsOf returns the naming words of a country's venues and streets.
func wordsOf(code string) localWords {
	c := countries[code]
	w := c.words
	switch code { // countries sharing a venue style keep their own streets
	case "EE", "LV", "LT", "SI", "HR", "RS", "RO", "GR", "TW", "TH", "SG":
		w = strings.ToLower(code)
	}
	return localWordsByKey[w]
}

// generateVenueRows returns n fictional venues: one in every city that has no hand-written
// venue, the rest spread over the cities by weight. Names never repeat within a city.
func generateVenueRows(r *rand.Rand, byKey map[string]*city, n int) []venueRow {
	names := map[string]bool{} // folded city key + name; lookups only
	hand := map[string]bool{}  // cities with a hand-written venue; lookups only
	for _, row := range venueRows {
		names[row.city+"/"+engine.Fold(row.name)] = true
		hand[row.city] = true
	}
	var at []*city
	total := 0
	for i := range cities {
		c := &cities[i]
		if !hand[c.key] && len(at) < n {
			at = append(at, c)
		}
		total += c.weight
	}
	for len(at) < n {
		w := r.IntN(total)
		for i := range cities {
			if w < cities[i].weight {
				at = append(at, &cities[i])
				break
			}
			w -= cities[i].weight
		}
	}
	out := make([]venueRow, 0, n)
	for _, c := range at {
		row := venueRow{city: c.key, kind: pickWeighted(r, []venueKind{hall, bar, club, jazz}, []int{30, 40, 20, 10})}
		row.size = pickWeighted(r, []venueSize{tiny, small, mid}, []int{60, 36, 4})
		words := wordsOf(c.country)
		for {
			row.name = venueName(r, words, row.kind)
			if k := c.key + "/" + engine.Fold(row.name); !names[k] {
				names[k] = true
				break
			}
		}
		row.street = fill(r, pick(r, words.streets), words.names)
		row.postal = postalCode(r, countries[c.country].postal)
		row.lat = math.Round((c.lat+(r.Float64()-0.5)*0.05)*1e4) / 1e4
		row.lon = math.Round((c.lon+(r.Float64()-0.5)*0.07)*1e4) / 1e4
		row.entities = strings.Contains(row.name, "&") && r.IntN(2) == 0
		out = append(out, row)
	}
	return out
}

// venueName draws a venue name from a country's patterns; jazz clubs often say so.
func venueName(r *rand.Rand, w localWords, k venueKind) string {
	name := pick(r, w.venues)
	for _, ph := range []struct {
		key  string
		from []string
	}{{"{N}", venueNouns}, {"{A}", venueAdjectives}, {"{T}", venueTypes}, {"{S}", venueSurnames}, {"{P}", w.names}} {
		for strings.Contains(name, ph.key) {
			name = strings.Replace(name, ph.key, pick(r, ph.from), 1)
		}
	}
	if strings.Contains(name, "{L}") || strings.Contains(name, "{B}") {
		l := pick(r, w.local)
		b := l
		if _, rest, ok := strings.Cut(l, " "); ok && w.articles {
			b = rest
		}
		name = strings.ReplaceAll(strings.ReplaceAll(name, "{L}", l), "{B}", b)
	}
	if k == jazz && !strings.Contains(name, "Jazz") && r.IntN(2) == 0 {
		name += " Jazz Club"
	}
	return name
}

// fill writes a street pattern: a street name and house numbers.
func fill(r *rand.Rand, pattern string, names []string) string {
	s := strings.Replace(pattern, "{p}", pick(r, names), 1)
	s = strings.Replace(s, "{n}", strconv.Itoa(1+r.IntN(240)), 1)
	s = strings.Replace(s, "{m}", strconv.Itoa(1+r.IntN(30)), 1)
	return strings.Replace(s, "{k}", strconv.Itoa(1+r.IntN(20)), 1)
}

// postalCode fills a pattern: '#' becomes a digit, 'A' a capital letter.
func postalCode(r *rand.Rand, pattern string) string {
	b := []byte(pattern)
	for i, c := range b {
		switch c {
		case '#':
			b[i] = byte('0' + r.IntN(10))
		case 'A':
			b[i] = "ABDEFGHJLNPRSTUWXY"[r.IntN(18)]
		}
	}
	return string(b)
}

// pickWeighted draws one of xs with the given relative weights.
func pickWeighted[T any](r *rand.Rand, xs []T, weights []int) T {
	total := 0
	for _, w := range weights {
		total += w
	}
	w := r.IntN(total)
	for i, x := range xs {
		if w < weights[i] {
			return x
		}
		w -= weights[i]
	}
	return xs[len(xs)-1]
}
