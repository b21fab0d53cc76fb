package loader

import "github.com/gigs/gigs/engine"

// canonicalGenres are the genres the API lists, by slug, with their display names.
var canonicalGenres = map[string]string{
	"rock": "Rock", "indie": "Indie", "pop": "Pop", "electronic": "Electronic", "techno": "Techno",
	"house": "House", "jazz": "Jazz", "blues": "Blues", "soul": "Soul", "hip-hop": "Hip-Hop",
	"metal": "Metal", "punk": "Punk", "folk": "Folk", "country": "Country", "classical": "Classical",
	"reggae": "Reggae", "world": "World", "latin": "Latin", "rnb": "R&B", "experimental": "Experimental",
}

// genreAliases maps folded free tags to canonical slugs.
var genreAliases = map[string]string{
	"hip hop": "hip-hop", "hiphop": "hip-hop", "rap": "hip-hop", "indie rock": "indie", "indie pop": "indie",
	"alternative": "indie", "alt rock": "rock", "hard rock": "rock", "rock and roll": "rock", "rock n roll": "rock",
	"heavy metal": "metal", "black metal": "metal", "punk rock": "punk", "hardcore": "punk", "edm": "electronic",
	"electronica": "electronic", "dance": "electronic", "deep house": "house", "tech house": "house",
	"r b": "rnb", "r and b": "rnb", "rhythm and blues": "rnb", "neo soul": "soul", "funk": "soul",
	"singer songwriter": "folk", "americana": "country", "bluegrass": "country", "orchestral": "classical",
	"opera": "classical", "chamber music": "classical", "dub": "reggae", "ska": "reggae", "salsa": "latin",
	"cumbia": "latin", "reggaeton": "latin", "avant garde": "experimental", "noise": "experimental",
	"ambient": "electronic", "drum and bass": "electronic", "drum bass": "electronic", "drum n bass": "electronic", "dnb": "electronic", "world music": "world",
}

// canonicalGenre returns the canonical genre slug for a free tag, or "" when the tag names
// no genre the API lists.
func canonicalGenre(tag string) string {
	k := engine.Fold(tag)
	if s, ok := genreAliases[k]; ok {
		return s
	}
	s := engine.Slugify(tag)
	if _, ok := canonicalGenres[s]; ok {
		return s
	}
	return ""
}
