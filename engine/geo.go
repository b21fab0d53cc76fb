package engine

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Gigs near a point. Each venue has an effective position: its own coordinates, or its
// city's centre (approximately) when it has none; a venue with neither is never near
// anything. Venues at the same position are one point, and a point's gigs one posting,
// so that the gigs of a city's venues without coordinates (all at its centre) are one
// posting, not hundreds. Points are filed in rows of geoRowDeg degrees of latitude, each
// row sorted by longitude: a radius's bounding box is, per row, one or two ranges of
// longitude (two across the antimeridian, all of them when the cap holds a pole), each
// found by binary search. A query checks the exact distance of each point in them, and
// the points within the radius become one more group of alternatives ANDed with the
// other filters (dimNear), ORed as the postings of a dimension are.

// EarthRadiusKm is the radius of the sphere distances are measured on.
const EarthRadiusKm = 6371.0

// MaxRadiusKm is the largest radius a query may ask for.
const MaxRadiusKm = 500.0

// geoRowDeg is the height of a row of points, in degrees of latitude.
const geoRowDeg = 0.1

const geoRows = int(180 / geoRowDeg)

// maxProbedPoints is the most points whose positions a query gathers and sorts when they
// are its smallest group (see filterSet); more are united as bits.
const maxProbedPoints = 8

// noPoint is the point of a gig whose venue has no position.
const noPoint = math.MaxUint32

// dimNear is the group of a query's points within its radius, after the dimensions.
const dimNear = numDims

// DistanceKm returns the great-circle distance between two points (degrees), by the
// haversine formula on a sphere of EarthRadiusKm.
func DistanceKm(lat1, lon1, lat2, lon2 float64) float64 {
	return distanceKm(lat1, lon1, lat2, lon2, math.Cos(lat1*rad), math.Cos(lat2*rad))
}

const rad = math.Pi / 180

// distanceKm is DistanceKm given the cosines of the latitudes (in radians), which a
// query computes once for its point and the index keeps for each of its own: the same
// bits as DistanceKm's.
func distanceKm(lat1, lon1, lat2, lon2, cos1, cos2 float64) float64 {
	dlat, dlon := (lat2-lat1)*rad, (lon2-lon1)*rad
	a := math.Sin(dlat/2)*math.Sin(dlat/2) + cos1*cos2*math.Sin(dlon/2)*math.Sin(dlon/2)
	return 2 * EarthRadiusKm * math.Asin(math.Sqrt(min(1, max(0, a))))
}

// DistanceMetres is DistanceKm in whole metres, rounded: the sort key of sort=distance,
// which distance_km shows rounded to a tenth of a kilometre.
func DistanceMetres(lat1, lon1, lat2, lon2 float64) uint32 {
	return uint32(math.Round(DistanceKm(lat1, lon1, lat2, lon2) * 1000))
}

// ValidPosition reports whether lat and lon are a position: finite, within ±90 and ±180.
func ValidPosition(lat, lon float64) bool {
	return lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180 // false for NaN
}

// venuePosition returns where venue v is for near queries and its gig bodies: its own
// coordinates, or (approx) its city's centre; ok is false when neither is known.
func venuePosition(v *Venue, c *City) (lat, lon float64, approx, ok bool) {
	switch {
	case v.HasGeo && ValidPosition(v.Lat, v.Lon):
		return v.Lat, v.Lon, false, true
	case c.HasGeo && ValidPosition(c.Lat, c.Lon):
		return c.Lat, c.Lon, true, true
	}
	return 0, 0, false, false
}

// geoIndex is an index of points: of the snapshot's gigs (their venues' positions), or
// of a directory's entries (directory.go), its positions then the entries' numbers.
// Immutable once built.
type geoIndex struct {
	rowAt    []uint32 // the points of row r are [rowAt[r], rowAt[r+1]), by longitude; geoRows+1 entries
	lat, lon []uint64 // each point's position, as math.Float64bits
	// trig holds, per point, the cosine of its latitude and the sines and cosines of half
	// its latitude and half its longitude (radians), five a point: not in the snapshot file
	// (see setTrig).
	trig []float64
	post postings // point k's gigs are post.posting(k)
	of   []uint32 // the point of each position, or noPoint
	// Tiles: runs of points of a row within a cell of longitude about as wide as the row
	// is high, tile t's points [tileAt[t], tileAt[t+1]) and its gigs tilePost.posting(t),
	// so that a radius takes the tiles wholly within it as one posting each rather than
	// their points' (thousands in a city at a million gigs). tileOf, box (each tile's
	// points' least and greatest latitude and longitude) and boxTrig (per tile, of the
	// box's least and greatest latitude the cosine and the sine and cosine of half, then of
	// its least and greatest longitude the sine and cosine of half: ten a tile) are not in
	// the snapshot file.
	tileAt   []uint32
	tilePost postings
	tileOf   []uint32
	box      []float64
	boxTrig  []float64
	areas    geoAreas // the tiles grouped (geoareas.go): their boxes follow the tiles' in box and boxTrig
}

func (g *geoIndex) points() int { return len(g.lat) }

func (g *geoIndex) at(k int) (lat, lon float64) {
	return math.Float64frombits(g.lat[k]), math.Float64frombits(g.lon[k])
}

// setTrig computes the points' trigonometry (see trig) and the tiles' tileOf and box.
func (g *geoIndex) setTrig() {
	tiles := len(g.tileAt) - 1
	g.tileOf, g.box = make([]uint32, g.points()), make([]float64, 4*max(tiles, 0))
	g.boxTrig = make([]float64, 10*max(tiles, 0))
	for t := range tiles {
		b := g.box[4*t : 4*t+4]
		b[0], b[1], b[2], b[3] = 90, -90, 180, -180
		for k := g.tileAt[t]; k < g.tileAt[t+1]; k++ {
			lat, lon := g.at(int(k))
			b[0], b[1], b[2], b[3] = min(b[0], lat), max(b[1], lat), min(b[2], lon), max(b[3], lon)
			g.tileOf[k] = uint32(t)
		}
		bt := g.boxTrig[10*t : 10*t+10]
		for i, lat := range b[:2] {
			bt[3*i] = math.Cos(lat * rad)
			bt[3*i+1], bt[3*i+2] = math.Sincos(lat * rad / 2)
		}
		for j, lon := range b[2:] {
			bt[6+2*j], bt[7+2*j] = math.Sincos(lon * rad / 2)
		}
	}
	g.trig = make([]float64, 5*g.points())
	for k := range g.points() {
		lat, lon := g.at(k)
		t := g.trig[5*k : 5*k+5]
		t[0] = math.Cos(lat * rad)
		t[1], t[2] = math.Sincos(lat * rad / 2)
		t[3], t[4] = math.Sincos(lon * rad / 2)
	}
}

func geoRow(lat float64) int {
	return min(max(int((lat+90)/geoRowDeg), 0), geoRows-1)
}

// geoPoint is a position an index of points files positions under.
type geoPoint struct {
	lat, lon float64
	row      int
}

// venuePoints returns the venues' effective positions (see venuePosition), each once, and
// each venue's point among them, or -1 when it has none.
func venuePoints(cat *catalog) (pts []geoPoint, ofVenue []int32) {
	ds := cat.ds
	ofVenue = make([]int32, len(ds.Venues))
	known := map[[2]uint64]int32{}
	for v := range ds.Venues {
		lat, lon, _, ok := venuePosition(&ds.Venues[v], &ds.Cities[cat.venueCity[v]])
		if !ok {
			ofVenue[v] = -1
			continue
		}
		key := [2]uint64{math.Float64bits(lat + 0), math.Float64bits(lon + 0)} // -0 is 0
		k, seen := known[key]
		if !seen {
			k = int32(len(pts))
			known[key] = k
			pts = append(pts, geoPoint{lat, lon, geoRow(lat)})
		}
		ofVenue[v] = k
	}
	return pts, ofVenue
}

// buildGeo files every position's venue under its point.
func (s *Snapshot) buildGeo(rows []gigRow, cat *catalog) error {
	pts, ofVenue := venuePoints(cat)
	var err error
	if s.geo, err = newGeoIndex(pts, len(rows), func(i int) int32 { return ofVenue[rows[i].venue] }, s); err != nil {
		return err
	}
	return nil
}

// newGeoIndex files each of n positions under its point, pts[pointOf(i)] (none when -1),
// with the day tables of its large postings when days is not nil.
func newGeoIndex(pts []geoPoint, n int, pointOf func(i int) int32, days *Snapshot) (geoIndex, error) {
	// Only points with positions, in row then longitude (then latitude) order.
	at, pos := groupPositions(len(pts), func(emit func(int32, uint32)) {
		for i := range n {
			if k := pointOf(i); k >= 0 {
				emit(k, uint32(i))
			}
		}
	})
	var order []int32
	for k := range pts {
		if at[k+1] > at[k] {
			order = append(order, int32(k))
		}
	}
	slices.SortFunc(order, func(a, b int32) int {
		pa, pb := &pts[a], &pts[b]
		return cmp.Or(cmp.Compare(pa.row, pb.row), cmp.Compare(pa.lon, pb.lon), cmp.Compare(pa.lat, pb.lat))
	})
	var g geoIndex
	g.rowAt = make([]uint32, geoRows+1)
	g.lat, g.lon = make([]uint64, len(order)), make([]uint64, len(order))
	number := make([]uint32, len(pts))
	var b postingsBuilder
	for n, k := range order {
		p := &pts[k]
		g.lat[n], g.lon[n], number[k] = math.Float64bits(p.lat), math.Float64bits(p.lon), uint32(n)
		g.rowAt[p.row+1]++
		b.add(pos[at[k]:at[k+1]], strconv.Itoa(n))
	}
	for r := range geoRows {
		g.rowAt[r+1] += g.rowAt[r]
	}
	var err error
	if g.post, err = b.build(n, days); err != nil {
		return g, err
	}
	// Tiles: a cell of longitude of a row is about geoRowDeg on the ground, wider toward
	// the poles (to 50 times).
	var tb postingsBuilder
	var union []uint32
	cell := func(n int) int {
		p := &pts[order[n]]
		w := geoRowDeg / max(math.Cos((float64(p.row)*geoRowDeg-90+geoRowDeg/2)*rad), 0.02)
		return int((p.lon + 180) / w)
	}
	g.tileAt = []uint32{0}
	for n := range order {
		k := order[n]
		union = append(union, pos[at[k]:at[k+1]]...)
		if n+1 == len(order) || pts[order[n+1]].row != pts[k].row || cell(n+1) != cell(n) {
			slices.Sort(union)
			tb.add(union, strconv.Itoa(len(g.tileAt)-1))
			union = nil
			g.tileAt = append(g.tileAt, uint32(n+1))
		}
	}
	if g.tilePost, err = tb.build(n, days); err != nil {
		return g, err
	}
	g.setTrig()
	if err := g.setAreas(n, days); err != nil {
		return g, err
	}
	for _, ps := range []*postings{&g.post, &g.tilePost} { // numbered in order
		for n := range len(ps.of) {
			if i, ok := ps.keys.find(strconv.Itoa(n)); !ok || ps.of[i] != uint32(n) {
				return g, fmt.Errorf("point or tile %d is not posting %d", n, n)
			}
		}
	}
	g.of = make([]uint32, n)
	for i := range n {
		g.of[i] = noPoint
		if k := pointOf(i); k >= 0 {
			g.of[i] = number[k]
		}
	}
	return g, nil
}

// valid checks a geo index read from a file against n positions, its large postings with
// day tables of dayN days (-1: without).
func (g *geoIndex) valid(n, dayN int) bool {
	points := len(g.lat)
	if len(g.rowAt) != geoRows+1 || g.rowAt[0] != 0 || !ascending(g.rowAt, false) || int(g.rowAt[geoRows]) != points ||
		len(g.lon) != points || len(g.of) != n || !g.post.valid(n) || len(g.post.big) != points ||
		len(g.post.dayCum) != len(g.post.frz)/2*(dayN+1) || len(g.tileAt) == 0 || g.tileAt[0] != 0 ||
		!ascending(g.tileAt, true) || int(g.tileAt[len(g.tileAt)-1]) != points || !g.tilePost.valid(n) ||
		len(g.tilePost.big) != len(g.tileAt)-1 || len(g.tilePost.dayCum) != len(g.tilePost.frz)/2*(dayN+1) {
		return false
	}
	for k := range points {
		if lat, lon := g.at(k); !ValidPosition(lat, lon) {
			return false
		}
	}
	for _, k := range g.of {
		if k != noPoint && int(k) >= points {
			return false
		}
	}
	return true
}

// agrees checks, once the postings are viewed, that every position a point's or a tile's
// posting lists is filed under that point (or a point of that tile) in g.of: a near query
// measures the distance of each gig it matches through g.of, so a file whose postings and
// positions disagree would have it look up a point that is not there.
func (g *geoIndex) agrees() error {
	for k := range len(g.lat) {
		if !eachPosition(g.post.posting(k), func(p uint32) bool { return g.of[p] == uint32(k) }) {
			return fmt.Errorf("geo index: point %d lists a gig filed under another point", k)
		}
	}
	for t := range len(g.tileAt) - 1 {
		lo, hi := g.tileAt[t], g.tileAt[t+1]
		if !eachPosition(g.tilePost.posting(t), func(p uint32) bool { return g.of[p] >= lo && g.of[p] < hi }) {
			return fmt.Errorf("geo index: tile %d lists a gig of a point outside it", t)
		}
	}
	return nil
}

// eachPosition calls f with p's positions in order while f returns true, and reports
// whether it always did.
func eachPosition(p posting, f func(uint32) bool) bool {
	if p.bm == nil {
		for _, x := range p.list {
			if !f(x) {
				return false
			}
		}
		return true
	}
	it := p.bm.Iterator()
	for it.HasNext() {
		if !f(it.Next()) {
			return false
		}
	}
	return true
}

// candidate is a point within a query's radius, or a tile wholly within it; in q.ring,
// a point, its haversine term a (see hav) and, once measured, its distance.
type candidate struct {
	a      float64
	point  uint32 // or tile
	metres uint32
	tile   bool
}

// nearQuery is a query's point, radius and order.
type nearQuery struct {
	set, byDistance bool
	lat, lon, km    float64
	trig            nearTrig // set by findNear
}

// nearTrig is a query point's trigonometry, as hav takes it: the sines and cosines of
// half its latitude and half its longitude, and its latitude's cosine.
type nearTrig struct{ slat, clat, slon, clon, cos0 float64 }

// trigOf returns the trigonometry of the point (lat, lon).
func trigOf(lat, lon float64) nearTrig {
	var t nearTrig
	t.slat, t.clat = math.Sincos(lat * rad / 2)
	t.slon, t.clon = math.Sincos(lon * rad / 2)
	t.cos0 = math.Cos(lat * rad)
	return t
}

// Near restricts q to the gigs at venues within radiusKm of (lat, lon), and orders its
// page by distance (then start, then id) when byDistance is set; Run sets Dist. The
// caller checks the values (ValidPosition, 0 < radiusKm <= MaxRadiusKm). Call it before
// After, whose tokens depend on the order.
func (q *Query) Near(lat, lon, radiusKm float64, byDistance bool) {
	q.near = nearQuery{set: true, byDistance: byDistance, lat: lat, lon: lon, km: radiusKm}
}

// findNear gathers q's candidates: the points within its radius, or the tiles wholly
// within it, their points marked in q.mark; and when the page is by distance, every point
// within it, measured, in the heap q.ring. It reports whether any is.
func (g *geoIndex) findNear(q *Query) bool {
	q.cand = q.cand[:0]
	if g.points() == 0 {
		return false
	}
	n := q.near
	delta := n.km/EarthRadiusKm*180/math.Pi*(1+1e-9) + 1e-9 // the cap's angular radius, degrees, and a hair
	latLo, latHi := n.lat-delta, n.lat+delta
	dlon := 360.0 // every longitude when the cap holds a pole
	if latLo > -90 && latHi < 90 {
		dlon = math.Asin(min(1, math.Sin(delta*math.Pi/180)/math.Cos(n.lat*math.Pi/180))) * 180 / math.Pi
	}
	// A point is within the radius for sure, or beyond it, when its haversine term, from
	// the points' sines and cosines without calling on any (hav), is clearly below or
	// above the radius's; only the few on the edge are measured (with DistanceKm's own
	// arithmetic). Distances are measured for the page alone.
	q.near.trig = trigOf(n.lat, n.lon)
	t := q.near.trig
	slat, clat, slon, clon, cos0 := t.slat, t.clat, t.slon, t.clon, t.cos0
	h := math.Sin(n.km / EarthRadiusKm / 2)
	aIn, aOut := h*h*(1-1e-9), h*h*(1+1e-9)
	// Tiles wholly within the radius are taken whole, away from the poles (see tileWithin).
	tiled := math.Abs(n.lat) <= 80
	q.ring = q.ring[:0]
	var spans [2][2]float64
	ns := 0
	switch lo, hi := n.lon-dlon, n.lon+dlon; {
	case dlon >= 180:
		spans[0], ns = [2]float64{-180, 180}, 1
	case lo < -180:
		spans[0], spans[1], ns = [2]float64{lo + 360, 180}, [2]float64{-180, hi}, 2
	case hi > 180:
		spans[0], spans[1], ns = [2]float64{lo, 180}, [2]float64{-180, hi - 360}, 2
	default:
		spans[0], ns = [2]float64{lo, hi}, 1
	}
	words := (g.points() + 63) >> 6
	if cap(q.mark) < words {
		q.mark = make([]uint64, words) // grows once per size of snapshot
	}
	q.mark = q.mark[:words]
	if tiled {
		g.findAreas(q, latLo, latHi, spans[:ns], aIn, slat, clat, slon, clon, cos0)
	}
	for r := geoRow(max(latLo, -90)); r <= geoRow(min(latHi, 90)); r++ {
		rlo, rhi := int(g.rowAt[r]), int(g.rowAt[r+1])
		for _, sp := range spans[:ns] {
			a := rlo + searchLon(g.lon[rlo:rhi], sp[0])
			for k := a; k < rhi; k++ {
				lat, lon := g.at(k)
				if lon > sp[1] {
					break
				}
				if q.mark[k>>6]&(1<<(k&63)) != 0 { // in an area taken whole: its tile too
					k = int(g.tileAt[g.tileOf[k]+1]) - 1
					continue
				}
				if t := g.tileOf[k]; tiled && int(g.tileAt[t]) == k && g.tileWithin(int(t), sp[1], aIn, slat, clat, slon, clon, cos0) {
					q.cand = append(q.cand, candidate{point: t, tile: true})
					end := int(g.tileAt[t+1])
					g.markTile(q.mark, int(t))
					if n.byDistance { // its points are put in the ring once it is the nearest
						q.ring = append(q.ring, candidate{point: t, tile: true, a: g.tileNearest(int(t), &q.near)})
					}
					k = end - 1
					continue
				}
				a := g.hav(k, slat, clat, slon, clon, cos0)
				switch {
				case a > aOut:
					continue
				case a >= aIn && distanceKm(n.lat, n.lon, lat, lon, cos0, g.trig[5*k]) > n.km:
					continue
				}
				q.cand = append(q.cand, candidate{point: uint32(k)})
				q.mark[k>>6] |= 1 << (k & 63)
				if n.byDistance {
					q.ring = append(q.ring, candidate{point: uint32(k), a: a})
				}
			}
		}
	}
	heapify(q.ring)
	return len(q.cand) > 0
}

// The points of a query by distance are a heap by haversine term, nearest on top: made in
// linear time and taken from until the page is full, rather than every point measured
// and sorted.

func heapify(h []candidate) {
	for i := len(h)/2 - 1; i >= 0; i-- {
		siftDown(h, i)
	}
}

func nearer(a, b candidate) bool { return a.a < b.a || a.a == b.a && a.point < b.point }

func siftDown(h []candidate, i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		if r := l + 1; r < len(h) && nearer(h[r], h[l]) {
			l = r
		}
		if !nearer(h[l], h[i]) {
			return
		}
		h[i], h[l] = h[l], h[i]
		i = l
	}
}

// popNearest removes the nearest point of h.
func popNearest(h []candidate) (candidate, []candidate) {
	c, n := h[0], len(h)-1
	h[0] = h[n]
	h = h[:n]
	siftDown(h, 0)
	return c, h
}

// push adds c to the heap h.
func push(h []candidate, c candidate) []candidate {
	h = append(h, c)
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !nearer(h[i], h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
	return h
}

// nextNearest takes from the heap q.ring, which must hold a point, the points at the least
// distance in whole metres of those in it, measured, into q.grp, and returns them. Terms
// are DistanceKm's but for rounding, so the points whose terms are at most that of the
// first one's metres and a half, with a hair, are measured, and those found farther go
// back: every point left is farther. A tile in the ring (taken whole by findNear) stands
// for its points, below their least term, until it is on top: then its points replace it.
func (g *geoIndex) nextNearest(q *Query) []candidate {
	h, grp := q.ring, q.grp[:0]
	defer func() { q.ring, q.grp = h, grp }()
	measure := func(c candidate) candidate {
		c.metres = g.pointMetres(q, int(c.point))
		return c
	}
	next := func() candidate { // the nearest point, the tiles above it opened
		for {
			var c candidate
			c, h = popNearest(h)
			if !c.tile {
				return c
			}
			// Its tiles (an area's) or points join the heap, made again once: in linear time
			// rather than a push, a climb of the heap, each.
			if n := g.tiles(); int(c.point) >= n {
				for _, u := range g.areas.tiles[g.areas.tileAt[int(c.point)-n]:g.areas.tileAt[int(c.point)-n+1]] {
					h = append(h, candidate{point: u, tile: true, a: g.tileNearest(int(u), &q.near)})
				}
			} else {
				t := &q.near.trig
				for k := g.tileAt[c.point]; k < g.tileAt[c.point+1]; k++ {
					h = append(h, candidate{point: k, a: g.hav(int(k), t.slat, t.clat, t.slon, t.clon, t.cos0)})
				}
			}
			heapify(h)
		}
	}
	grp = append(grp, measure(next()))
	bound := havOf((float64(grp[0].metres) + 0.5) / 1000)
	for len(h) > 0 && h[0].a <= bound {
		grp = append(grp, measure(next()))
	}
	least := grp[0].metres
	for _, c := range grp {
		least = min(least, c.metres)
	}
	kept := grp[:0]
	for _, c := range grp {
		if c.metres == least {
			kept = append(kept, c)
		} else {
			h = push(h, c)
		}
	}
	grp = kept
	return grp
}

// tileNearest returns a lower bound of the haversine terms of tile t's points from the
// point of n, which findNear set the trigonometry of: each term's least over the tile's
// box, the difference of latitude's and that of longitude's (weighted by the least of
// the box's latitudes' cosines), a hair below.
func (g *geoIndex) tileNearest(t int, n *nearQuery) float64 {
	b, bt := g.box[4*t:4*t+4:4*t+4], g.boxTrig[10*t:10*t+10:10*t+10]
	dlat := max(b[0]-n.lat, n.lat-b[1], 0)
	dlon := 0.0
	if w, e := wrapLon(b[2]-n.lon), wrapLon(b[3]-n.lon); w > 0 || e < 0 { // n not within the box's longitudes
		dlon = min(math.Abs(w), math.Abs(e))
	}
	sl, so := math.Sin(dlat*rad/2), math.Sin(dlon*rad/2)
	return (sl*sl + n.trig.cos0*min(bt[0], bt[3])*so*so) * (1 - 1e-9)
}

// wrapLon returns a difference of longitude within [-180, 180].
func wrapLon(d float64) float64 {
	switch {
	case d > 180:
		return d - 360
	case d < -180:
		return d + 360
	}
	return d
}

// tileWithin reports whether every point of tile t is within a radius whose haversine
// term is above aIn, from the point whose trigonometry is given as hav takes it: the
// tile's box lies within longitude maxLon, away from the poles, and its corners' terms
// are below aIn. Away from the poles and within 500 km, the haversine term grows with the
// difference of longitude and is convex along a meridian, so a box's farthest point from
// q's is one of its corners.
func (g *geoIndex) tileWithin(t int, maxLon, aIn, slat, clat, slon, clon, cos0 float64) bool {
	b := g.box[4*t : 4*t+4 : 4*t+4]
	if b[3] > maxLon || b[0] < -80 || b[1] > 80 {
		return false
	}
	bt := g.boxTrig[10*t : 10*t+10 : 10*t+10]
	for i := range 2 {
		dlat := bt[3*i+1]*clat - bt[3*i+2]*slat
		for j := range 2 {
			dlon := bt[6+2*j]*clon - bt[7+2*j]*slon
			if dlat*dlat+cos0*bt[3*i]*dlon*dlon >= aIn {
				return false
			}
		}
	}
	return true
}

// hav returns the haversine term of point k's distance from the point whose half
// latitude's and half longitude's sines and cosines, and latitude's cosine, are given:
// sin²(Δφ/2) + cos φ0 cos φ sin²(Δλ/2), from the differences' sines by the subtraction
// formulas. It is DistanceKm's term but for rounding (a few units in the last place).
func (g *geoIndex) hav(k int, slat, clat, slon, clon, cos0 float64) float64 {
	t := g.trig[5*k : 5*k+5 : 5*k+5]
	dlat, dlon := t[1]*clat-t[2]*slat, t[3]*clon-t[4]*slon
	return dlat*dlat + cos0*t[0]*dlon*dlon
}

// asinNear returns the arcsine of x, 0 <= x <= 1: for the half-chords of distances within
// MaxRadiusKm (x at most 0.0393), by its series to x⁹, whose rest is below 1e-17 (a
// ten-billionth of a metre on the ground), without math.Asin's square root and division.
func asinNear(x float64) float64 {
	if x > 0.04 {
		return math.Asin(x)
	}
	x2 := x * x
	return x * (1 + x2*(1.0/6+x2*(3.0/40+x2*(5.0/112+x2*(35.0/1152)))))
}

// havOf returns the haversine term of a distance in kilometres, a hair above.
func havOf(km float64) float64 {
	h := math.Sin(km / EarthRadiusKm / 2)
	return h * h * (1 + 1e-9)
}

// searchLon returns the first of lons (float64 bits, ascending as floats) at least lon.
func searchLon(lons []uint64, lon float64) int {
	lo, hi := 0, len(lons)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if math.Float64frombits(lons[m]) < lon {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// clearNear clears q's marks (a bit per point: a few hundred words at a million gigs).
func (q *Query) clearNear() {
	clear(q.mark)
	q.cand, q.ring, q.grp = q.cand[:0], q.ring[:0], q.grp[:0]
}

// nearMarked reports whether position p's point is one of q's candidates.
func (s *Snapshot) nearMarked(q *Query, p uint32) bool {
	k := s.geo.of[p]
	return k != noPoint && q.mark[k>>6]&(1<<(k&63)) != 0
}

// pointMetres returns the distance in whole metres from q's point to point k, which
// findNear set the trigonometry of, as DistanceMetres gives it. It is measured from the
// haversine term hav computes from the index's sines and cosines, with no sine to
// compute: that term differs from DistanceKm's in its last places only, a few nanometres
// on the ground, so the two round to the same metre unless the distance lies within a
// micrometre of half a metre, where it is measured with DistanceKm's own arithmetic.
func (g *geoIndex) pointMetres(q *Query, k int) uint32 {
	t := &q.near.trig
	a := g.hav(k, t.slat, t.clat, t.slon, t.clon, t.cos0)
	m := 2 * EarthRadiusKm * asinNear(math.Sqrt(min(1, max(0, a)))) * 1000
	if f := m - math.Floor(m); math.Abs(f-0.5) > 1e-6 {
		return uint32(math.Round(m))
	}
	lat, lon := g.at(k)
	return uint32(math.Round(distanceKm(q.near.lat, q.near.lon, lat, lon, t.cos0, g.trig[5*k]) * 1000))
}

// appendVenueRef appends a gig's venue: its slug and name, and its position when known
// (its city's centre, saying so, when it has none of its own).
func appendVenueRef(b []byte, v *Venue, c *City) []byte {
	b = appendRef(b, v.Slug, v.Name)
	lat, lon, approx, ok := venuePosition(v, c)
	if !ok {
		return b
	}
	b = appendOptFloat(b[:len(b)-1], ",lat", &lat)
	b = appendOptFloat(b, ",lon", &lon)
	if approx {
		b = append(b, `,"approximate_location":true`...)
	}
	return append(b, '}')
}
