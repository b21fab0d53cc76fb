package engine

import "time"

// Dataset is the normalized input of Build. Slugs must be unique within each kind and every
// reference must resolve. Build does not modify a Dataset or keep references into it.
type Dataset struct {
	Cities  []City
	Venues  []Venue
	Artists []Artist
	Genres  []Genre
	Gigs    []Gig
	// Sources say how each source fared in the refresh that made the dataset; /v1/meta
	// shows them so users can judge freshness.
	Sources []SourceHealth
	// Merges name the gigs of earlier refreshes that turned out to be another gig: the
	// ledger's tombstones say so (see Options.Prev).
	Merges []Merge
}

// Merge says that the gig with id From is the gig with id Into.
type Merge struct {
	From, Into string
}

// SourceHealth is how one source fared in the refresh that made a dataset.
type SourceHealth struct {
	Name        string
	OK          bool      // the source answered with usable events
	Events      int       // events it contributed (its last good ones when Stale)
	Stale       bool      // it failed, and its last good events were used
	LastSuccess time.Time // its last good answer; zero when it never had one
	// Dropped counts the records it gave that could not be used, by reason class ("not_music",
	// "no_place", …); nil when none were.
	Dropped map[string]int
	// LastError and LastErrorAt are its last failure, its message fit to publish; "" and
	// zero when it has not failed.
	LastError   string
	LastErrorAt time.Time
}

// City is a place with venues. Names may repeat across countries; slugs may not.
type City struct {
	Slug     string
	Name     string
	Country  string // ISO 3166-1 alpha-2, upper case
	Timezone string // IANA zone name, the zone of every venue in the city
	// Lat and Lon are the city's centre (degrees) when HasGeo is set: where its venues
	// without coordinates of their own are placed (see Venue).
	Lat, Lon float64
	HasGeo   bool
}

// Venue is where gigs happen.
type Venue struct {
	Slug    string
	Name    string
	City    string // city slug
	Address string // one line, may be empty
	// Lat and Lon (degrees) are the venue's position when HasGeo is set; a venue without
	// one is placed at its city's centre, approximately. Values outside ±90 and ±180 (or
	// not finite) count as unknown.
	Lat, Lon float64
	HasGeo   bool
	Website  string
}

// Artist is a performer.
type Artist struct {
	Slug   string
	Name   string
	Genres []string // genre slugs
	// MBID is the artist's MusicBrainz id in canonical form (see ParseMBID); "" when no
	// source states one.
	MBID string
}

// Genre is a canonical genre.
type Genre struct {
	Slug string
	Name string
}

// Gig is one concert.
type Gig struct {
	ID     string // stable across refreshes; unique
	Title  string
	Status Status // zero means StatusScheduled
	Venue  string // venue slug

	// Start is the start instant. When TimeTBA is set only its venue-local date counts.
	Start   time.Time
	TimeTBA bool
	End     time.Time // zero when unknown
	Doors   time.Time // zero when unknown
	// PreviousStart is the start before a reschedule or postponement; zero when none.
	PreviousStart time.Time
	// OnSale is when tickets go on sale to the public; zero when no source says.
	OnSale time.Time
	// Image is an absolute http(s) URL of a picture of the gig or its headliner; "" when none.
	Image string
	// MinAge is the youngest age admitted when HasMinAge is set; 0 means all ages.
	MinAge    int
	HasMinAge bool

	Artists []Billing // billing order
	Genres  []string  // genre slugs
	Tickets []Ticket
	Sources []Attribution
}

// Billing is one artist on a gig's bill.
type Billing struct {
	Artist    string // artist slug
	Headliner bool
}

// Ticket is one way to buy a ticket.
type Ticket struct {
	URL          string
	Source       string // name of the source that offered it
	PriceMin     *float64
	PriceMax     *float64
	Currency     string
	Availability string
}

// Attribution names a source a gig was read from.
type Attribution struct {
	Name string
	URL  string
}
