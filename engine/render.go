package engine

import (
	"encoding/hex"
	"strconv"

	"github.com/cespare/xxhash/v2"
	"github.com/gigs/gigs/engine/internal/gzipbytes"
	json "github.com/goccy/go-json"
	"github.com/klauspost/compress/gzip"
)

// Body is a response body rendered once per snapshot. Its slices are never modified.
type Body struct {
	Raw  []byte
	Gzip []byte // nil when Raw is too small to gain from compression
	ETag string // weak validator, the same for the same bytes on every replica
}

// GzipMin is the smallest body worth compressing: smaller ones are sent as they are.
const GzipMin = 1024

func newBody(raw []byte, level int) (*Body, error) {
	gz, err := bodyGzip(raw, level)
	return &Body{Raw: raw, Gzip: gz, ETag: ETag(raw)}, err
}

// bodyGzip returns the gzip member of raw at level, nil when raw is under GzipMin.
func bodyGzip(raw []byte, level int) ([]byte, error) {
	if len(raw) < GzipMin {
		return nil, nil
	}
	return gzipbytes.Compress(raw, level)
}

// NewBody returns the Body of raw, compressed at the default level: for bodies rendered
// once per snapshot outside Build (the iCalendar feeds). raw is kept, not copied.
func NewBody(raw []byte) (*Body, error) { return newBody(raw, gzip.DefaultCompression) }

// ETag returns the weak entity tag of a body: W/"<16 hex digits of its xxhash64>".
func ETag(body []byte) string {
	var b [3 + 16 + 1]byte
	return string(AppendETag(b[:0], body))
}

// AppendETag appends the weak entity tag of body to dst.
func AppendETag(dst, body []byte) []byte { return appendETagSum(dst, xxhash.Sum64(body)) }

// A Tag is what an assembled body's ETag is written from: equal bodies have equal tags,
// and unequal ones unequal tags but for a 64-bit hash's collisions.
type Tag uint64

// TagOf returns the tag of body, hashing its bytes.
func TagOf(body []byte) Tag { return Tag(xxhash.Sum64(body)) }

// AppendETag appends the weak entity tag W/"<16 hex digits>" to dst.
func (t Tag) AppendETag(dst []byte) []byte { return appendETagSum(dst, uint64(t)) }

func appendETagSum(dst []byte, h uint64) []byte {
	var sum [8]byte
	for i := range sum {
		sum[i] = byte(h >> (56 - 8*i))
	}
	dst = append(dst, 'W', '/', '"')
	dst = hex.AppendEncode(dst, sum[:])
	return append(dst, '"')
}

// offsetLayout is RFC 3339 that writes a zero offset as +00:00, not Z: the offset is the
// venue's own, not a statement that the time is in UTC.
const offsetLayout = "2006-01-02T15:04:05-07:00"

type ref struct {
	Slug string `json:"slug"`
	Name string `json:"name"`
}

// position is a place's lat and lon, when known: inlined in the objects that embed it.
type position struct {
	Lat *float64 `json:"lat,omitempty"`
	Lon *float64 `json:"lon,omitempty"`
}

type cityJSON struct {
	Slug     string `json:"slug"`
	Name     string `json:"name"`
	Country  string `json:"country"`
	Timezone string `json:"timezone"`
	position
	Upcoming int `json:"upcoming_gigs"`
}

type venueJSON struct {
	Slug    string `json:"slug"`
	Name    string `json:"name"`
	City    ref    `json:"city"`
	Country string `json:"country"`
	Address string `json:"address,omitempty"`
	position
	Approx   bool   `json:"approximate_location,omitempty"`
	Website  string `json:"website,omitempty"`
	Upcoming int    `json:"upcoming_gigs"`
}

type artistJSON struct {
	Slug      string   `json:"slug"`
	Name      string   `json:"name"`
	MBID      string   `json:"mbid,omitempty"`
	TourDates int      `json:"upcoming_tour_dates"`
	Genres    []string `json:"genres"`
}

type genreJSON struct {
	Slug     string `json:"slug"`
	Name     string `json:"name"`
	Upcoming int    `json:"upcoming_gigs"`
}

// appendJSON appends the JSON of v without HTML escaping: "&" stays "&", not "\u0026".
func appendJSON(dst []byte, v any) ([]byte, error) {
	b, err := json.MarshalWithOption(v, json.DisableHTMLEscape())
	if err != nil {
		return dst, err
	}
	return append(dst, b...), nil
}

// appendMeta appends `"meta":{"count":N}`. Bodies say nothing of the snapshot that
// served them, so that equal content is equal bytes whatever the build (/v1/meta tells
// the snapshot).
func appendMeta(dst []byte, count int) []byte {
	dst = append(dst, `"meta":{"count":`...)
	dst = strconv.AppendInt(dst, int64(count), 10)
	return append(dst, '}')
}
