package demo

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"
	_ "time/tzdata" // venue zones must resolve the same on every machine

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/loader/places"
)

// venueKind decides a venue's usual start times and the genres it books.
type venueKind int

const (
	hall venueKind = iota // concerts, 19:00–20:30
	bar                   // small gigs, 20:00–21:30
	club                  // concerts and club nights from 23:00 or 00:30
	jazz                  // jazz club with early and late sets
)

// venueSize decides how many shows a venue lists.
type venueSize int

const (
	small venueSize = iota // 8–16 shows
	mid                    // 26–40 shows
	big                    // 86–108 shows
	tiny                   // 5–9 shows
)

// venueRow is one venue as the table below states it.
type venueRow struct {
	name     string
	city     string // a city key
	street   string
	postal   string
	lat, lon float64
	kind     venueKind
	size     venueSize
	entities bool // the page writes names HTML-escaped inside its JSON-LD (&amp;)
}

// venueRows are fictional venues at plausible addresses near the real city centres.
var venueRows = []venueRow{
	{"The Lantern Rooms", "london-gb", "214 Kentish Town Road", "NW5 2AA", 51.5503, -0.1426, hall, big, false},
	{"Salt & Signal", "london-gb", "18 Mare Street", "E8 4RP", 51.5372, -0.0570, bar, mid, true},
	{"Undercroft", "london-gb", "Arch 41, Druid Street", "SE1 2HH", 51.5013, -0.0770, club, big, false},
	{"Halcyon Jazz Bar", "london-gb", "7 Greek Street", "W1D 4DE", 51.5142, -0.1310, jazz, small, false},
	{"Foundry Hall", "manchester", "61 Oldham Street", "M1 1JR", 53.4840, -2.2340, hall, mid, false},
	{"The Pennine Vaults", "manchester", "3 Tib Lane", "M2 4JB", 53.4805, -2.2445, bar, small, false},
	{"Clydeside Ballroom", "glasgow", "272 Sauchiehall Street", "G2 3EH", 55.8658, -4.2630, hall, mid, false},
	{"The Liffey Loft", "dublin", "44 Capel Street", "D01 T9K8", 53.3480, -6.2690, bar, mid, false},
	{"Harcourt Lane Club", "dublin", "12 Harcourt Street", "D02 XW95", 53.3355, -6.2635, club, mid, false},
	{"Trafohalle Kreuzberg", "berlin", "Ohlauer Straße 38", "10999", 52.4962, 13.4290, club, big, false},
	{"Café Weißensee", "berlin", "Berliner Allee 112", "13088", 52.5530, 13.4620, bar, small, false},
	{"Spreeblick Saal", "berlin", "Holzmarktstraße 25", "10243", 52.5115, 13.4235, hall, mid, false},
	{"Die Möwe Jazzkeller", "berlin", "Kastanienallee 9", "10435", 52.5380, 13.4090, jazz, mid, false},
	{"Kaispeicher Bühne", "hamburg", "Große Elbstraße 84", "22767", 53.5440, 9.9370, hall, mid, false},
	{"Isarlust Club", "munich", "Zenettistraße 11", "80337", 48.1260, 11.5600, club, mid, false},
	{"De Ketelzaal", "amsterdam", "Danzigerkade 16", "1013 AP", 52.3915, 4.8880, hall, big, false},
	{"Café Nachtegaal", "amsterdam", "Oudezijds Achterburgwal 87", "1012 DC", 52.3720, 4.8980, bar, small, false},
	{"La Fabrique Sonore", "paris", "18 Rue de la Fontaine au Roi", "75011", 48.8680, 2.3720, hall, mid, false},
	{"Caveau des Étoiles", "paris", "12 Rue des Lombards", "75004", 48.8595, 2.3490, jazz, small, false},
	{"Sala Marítima", "barcelona", "Carrer de Pujades 102", "08005", 41.3975, 2.1930, hall, mid, false},
	{"El Sótano de Lavapiés", "madrid", "Calle de Argumosa 14", "28012", 40.4085, -3.6990, bar, small, false},
	{"Armazém 7", "lisbon", "Rua da Cintura do Porto 7", "1200-109", 38.7060, -9.1490, club, mid, false},
	{"Kødbyens Lydhus", "copenhagen", "Flæsketorvet 46", "1711", 55.6680, 12.5600, club, mid, false},
	{"Södra Ljudverket", "stockholm", "Hornsgatan 58", "118 21", 59.3190, 18.0620, hall, mid, false},
	{"Grünerløkka Lydstue", "oslo", "Thorvald Meyers gate 33", "0555", 59.9230, 10.7590, bar, small, false},
	{"Klub Kazimierz Nocą", "krakow", "ul. Józefa 17", "31-056", 50.0510, 19.9440, club, small, false},
	{"Sál U Vltavy", "prague", "Na Františku 3", "110 00", 50.0920, 14.4180, hall, mid, false},
	{"Bogen 42", "vienna", "Lerchenfelder Gürtel, Stadtbahnbogen 42", "1160", 48.2080, 16.3390, club, small, false},
	{"Kanzlei Keller", "zurich", "Kanzleistrasse 56", "8004", 47.3760, 8.5260, bar, small, false},
	{"Lundinn Music Bar", "reykjavik", "Hafnarstræti 5", "101", 64.1480, -21.9400, bar, small, false},
	{"Bowery Lantern Hall", "new-york", "231 Bowery", "10002", 40.7225, -73.9930, hall, big, false},
	{"Greenpoint Reservoir", "new-york", "59 Meserole Avenue", "11222", 40.7270, -73.9540, club, mid, false},
	{"Café Amélie Jazz Room", "new-york", "152 Bleecker Street", "10012", 40.7285, -73.9990, jazz, small, false},
	{"The Wabash Foundry", "chicago", "1840 N Milwaukee Ave", "60647", 41.9140, -87.6830, hall, mid, false},
	{"Rust Belt Social", "chicago", "3159 N Southport Ave", "60657", 41.9390, -87.6640, bar, small, false},
	{"Red River Hi-Fi", "austin", "708 Red River St", "78701", 30.2690, -97.7360, bar, mid, false},
	{"Echo Basin Theatre", "los-angeles", "1822 Sunset Blvd", "90026", 34.0770, -118.2600, hall, big, false},
	{"Casa Luz", "los-angeles", "1928 E 7th Pl", "90021", 34.0330, -118.2300, club, small, false},
	{"Fog City Ballroom", "san-francisco", "1700 Folsom St", "94103", 37.7690, -122.4150, hall, mid, false},
	{"Ossington Hall", "toronto", "124 Ossington Ave", "M6J 2Z5", 43.6450, -79.4200, hall, mid, false},
	{"Parkdale Sound Bar", "toronto", "1296 Queen St W", "M6K 1L4", 43.6410, -79.4310, bar, small, false},
	{"Le Phénix Rouge", "montreal", "5240 Boulevard Saint-Laurent", "H2T 1S1", 45.5230, -73.5950, club, mid, false},
	{"Forest City Music Hall", "london-ca", "431 Richmond St", "N6A 3C9", 42.9880, -81.2480, hall, small, false},
	{"The Narrows Tavern", "st-johns", "180 Water St", "A1C 1A9", 47.5660, -52.7080, bar, small, false},
	{"Salón Jacarandas", "mexico-city", "Calle Guanajuato 72, Roma Norte", "06700", 19.4180, -99.1620, hall, mid, false},
	{"Casa Pinheiros", "sao-paulo", "Rua dos Pinheiros 1275", "05422-012", -23.5640, -46.6900, hall, mid, false},
	{"Galpão Barra Funda", "sao-paulo", "Rua Cônego Vicente Miguel Marino 89", "01135-020", -23.5260, -46.6600, club, mid, false},
	{"Usina de Palermo", "buenos-aires", "Honduras 5450", "C1414BNL", -34.5850, -58.4330, hall, mid, false},
	{"Daikanyama Echo Room", "tokyo", "2-11-3 Ebisu-nishi, Shibuya-ku", "150-0021", 35.6480, 139.7030, club, mid, false},
	{"Shimokita Garage Ten", "tokyo", "2-6-2 Kitazawa, Setagaya-ku", "155-0031", 35.6610, 139.6680, bar, small, false},
	{"Mapo Sound Factory", "seoul", "94 Wausan-ro, Mapo-gu", "04066", 37.5510, 126.9230, club, mid, false},
	{"The Carter Road Social", "mumbai", "21 Carter Road, Bandra West", "400050", 19.0660, 72.8230, hall, mid, false},
	{"Indiranagar Sound Garden", "bengaluru", "12th Main Road, HAL 2nd Stage, Indiranagar", "560038", 12.9710, 77.6410, bar, mid, false},
	{"Chhaya Music Bar", "kathmandu", "Chaksibari Marg 16, Thamel", "44600", 27.7150, 85.3110, bar, small, false},
	{"Enmore Workshop", "sydney", "112 Enmore Road, Newtown", "2042", -33.8990, 151.1740, hall, mid, false},
	{"Oxford Street Underground", "sydney", "38 Oxford Street, Darlinghurst", "2010", -33.8790, 151.2140, club, mid, false},
	{"Brunswick Tramshed", "melbourne", "309 Sydney Road, Brunswick", "3056", -37.7690, 144.9610, hall, mid, false},
}

// venue is a venue row resolved against the gazetteer, with its website and page style.
type venue struct {
	venueRow
	index int    // position in the corpus's venue list: the hand-written rows first
	key   string // unique: the name's slug, with the city key appended when a name repeats
	city  *city
	loc   *time.Location
	site  *site // nil for a venue without a website of its own
	style style
	gigs  []*gig // every show at the venue, on its site or not, in start order once numbered
}

// origin returns the venue website's origin with a trailing slash, "" without a website.
func (v *venue) origin() string {
	if v.site == nil {
		return ""
	}
	return "http://" + v.site.host + "/"
}

// listed returns the gigs the venue's own site lists, in page order.
func (v *venue) listed() []*gig {
	var out []*gig
	for _, g := range v.gigs {
		if g.onPage {
			out = append(out, g)
		}
	}
	return out
}

// Venue counts: the hand-written rows plus generated ones make siteCount websites, and
// noSiteCount more venues sell tickets only through the platforms.
const (
	siteCount   = 320
	noSiteCount = 30
)

// loadVenues resolves the hand-written venue rows and siteCount+noSiteCount-len(venueRows)
// generated ones with the places gazetteer. It fails when a city is missing from the
// gazetteer; the tables are never modified.
func loadVenues(r *rand.Rand) ([]*venue, error) {
	byKey := make(map[string]*city, len(cities)) // lookups only
	for i := range cities {
		byKey[cities[i].key] = &cities[i]
	}
	rows := append(slices.Clip(venueRows), generateVenueRows(r, byKey, siteCount+noSiteCount-len(venueRows))...)
	keys := make(map[string]bool, len(rows)) // lookups only
	vs := make([]*venue, len(rows))
	for i, row := range rows {
		c := byKey[row.city]
		if c == nil {
			return nil, fmt.Errorf("cannot resolve venue %q: unknown city key %q", row.name, row.city)
		}
		pc, err := places.LookupCity(c.name, c.country)
		if err != nil {
			return nil, fmt.Errorf("cannot resolve venue %q: %w", row.name, err)
		}
		if pc.Slug != c.key {
			return nil, fmt.Errorf("cannot resolve venue %q: city key %q is %q in the gazetteer", row.name, c.key, pc.Slug)
		}
		key := engine.Slugify(row.name)
		if keys[key] {
			key += "-" + c.key
		}
		if keys[key] {
			return nil, fmt.Errorf("cannot resolve venue %q: two venues of that name in %s", row.name, c.key)
		}
		keys[key] = true
		vs[i] = &venue{venueRow: row, index: i, key: key, city: c, loc: pc.Location}
	}
	return vs, nil
}
