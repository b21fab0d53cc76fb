package engine

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
)

// Areas: the tiles of areaRows rows by about as wide a cell of longitude, grouped, so that
// a radius takes an area whose points (its box) lie wholly within it as one posting, as it
// takes a tile, rather than a posting per tile: the venues of a city within 25 km of its
// centre are a few areas, where they were a dozen tiles or more, each counted and walked
// by the query. An area's posting is the union of its tiles' postings, with its day table
// where the index keeps them. Areas are made from the tiles once per snapshot (built or
// read: they are not in the snapshot file). A box index of an area is the number of
// tiles plus its own (see tileWithin, tileNearest); only areas of two tiles or more are
// kept.

// areaRows is the height of an area, in rows of points.
const areaRows = 4

// geoAreas are a geo index's areas, in band (areaRows rows) then least longitude order.
type geoAreas struct {
	bandAt []uint32 // the areas of band b are [bandAt[b], bandAt[b+1])
	tileAt []uint32 // area a's tiles are tiles[tileAt[a]:tileAt[a+1]]
	tiles  []uint32
	post   postings // area a's gigs (or entries) are post.posting(a)
}

// setAreas groups g's tiles into areas and makes their postings over n positions, with
// day tables when days is not nil, and their boxes after the tiles' (g.box, g.boxTrig),
// which setTrig must have made.
func (g *geoIndex) setAreas(n int, days *Snapshot) error {
	tiles := len(g.tileAt) - 1
	type area struct {
		band, cell int
		tiles      []uint32
	}
	var areas []*area
	byCell := map[[2]int]*area{}
	for t := range max(tiles, 0) {
		lat, lon := g.at(int(g.tileAt[t]))
		band := geoRow(lat) / areaRows
		w := areaRows * geoRowDeg / max(math.Cos((float64(band*areaRows)*geoRowDeg-90+areaRows*geoRowDeg/2)*rad), 0.02)
		key := [2]int{band, int((lon + 180) / w)}
		a := byCell[key]
		if a == nil {
			a = &area{band: band, cell: key[1]}
			byCell[key] = a
			areas = append(areas, a)
		}
		a.tiles = append(a.tiles, uint32(t))
	}
	areas = slices.DeleteFunc(areas, func(a *area) bool { return len(a.tiles) < 2 })
	boxOf := func(a *area) []float64 {
		b := []float64{90, -90, 180, -180}
		for _, t := range a.tiles {
			tb := g.box[4*t : 4*t+4]
			b[0], b[1], b[2], b[3] = min(b[0], tb[0]), max(b[1], tb[1]), min(b[2], tb[2]), max(b[3], tb[3])
		}
		return b
	}
	boxes := make(map[*area][]float64, len(areas))
	for _, a := range areas {
		boxes[a] = boxOf(a)
	}
	slices.SortFunc(areas, func(x, y *area) int {
		return cmp.Or(cmp.Compare(x.band, y.band), cmp.Compare(boxes[x][2], boxes[y][2]), cmp.Compare(x.cell, y.cell))
	})
	g.areas = geoAreas{bandAt: make([]uint32, geoRows/areaRows+2), tileAt: []uint32{0}}
	g.box, g.boxTrig = g.box[:4*tiles], g.boxTrig[:10*tiles]
	var b postingsBuilder
	var union []uint32
	for i, a := range areas {
		g.areas.bandAt[a.band+1]++
		g.areas.tiles = append(g.areas.tiles, a.tiles...)
		g.areas.tileAt = append(g.areas.tileAt, uint32(len(g.areas.tiles)))
		union = union[:0]
		for _, t := range a.tiles {
			eachPosition(g.tilePost.posting(int(t)), func(p uint32) bool { union = append(union, p); return true })
		}
		slices.Sort(union)
		b.add(slices.Clone(union), strconv.Itoa(i))
		g.box = append(g.box, boxes[a]...)
		g.boxTrig = append(g.boxTrig, boxTrigOf(boxes[a])...)
	}
	for k := 1; k < len(g.areas.bandAt); k++ {
		g.areas.bandAt[k] += g.areas.bandAt[k-1]
	}
	var err error
	if g.areas.post, err = b.build(n, days); err != nil {
		return err
	}
	for i := range areas { // numbered in order
		if k, ok := g.areas.post.keys.find(strconv.Itoa(i)); !ok || g.areas.post.of[k] != uint32(i) {
			return fmt.Errorf("area %d is not posting %d", i, i)
		}
	}
	return nil
}

// boxTrigOf returns the trigonometry of box b (see geoIndex.boxTrig).
func boxTrigOf(b []float64) []float64 {
	bt := make([]float64, 10)
	for i, lat := range b[:2] {
		bt[3*i] = math.Cos(lat * rad)
		bt[3*i+1], bt[3*i+2] = math.Sincos(lat * rad / 2)
	}
	for j, lon := range b[2:4] {
		bt[6+2*j], bt[7+2*j] = math.Sincos(lon * rad / 2)
	}
	return bt
}

// tiles returns the number of tiles: a box index from it on is an area's.
func (g *geoIndex) tiles() int { return len(g.tileAt) - 1 }

// tilePosting returns the posting of box index t: a tile's or an area's.
func (g *geoIndex) tilePosting(t int) posting {
	if n := g.tiles(); t >= n {
		return g.areas.post.posting(t - n)
	}
	return g.tilePost.posting(t)
}

// markTile marks the points of box index t in mark, a bit per point.
func (g *geoIndex) markTile(mark []uint64, t int) {
	n := g.tiles()
	if t < n {
		setBits(mark, int(g.tileAt[t]), int(g.tileAt[t+1]))
		return
	}
	for _, u := range g.areas.tiles[g.areas.tileAt[t-n]:g.areas.tileAt[t-n+1]] {
		setBits(mark, int(g.tileAt[u]), int(g.tileAt[u+1]))
	}
}

// findAreas adds to q's candidates the areas wholly within its radius, in the bands of
// latitudes [latLo, latHi] and the spans of longitude spans, their points marked in q.mark;
// and, when the page is by distance, to the ring. The other arguments are findNear's.
func (g *geoIndex) findAreas(q *Query, latLo, latHi float64, spans [][2]float64, aIn, slat, clat, slon, clon, cos0 float64) {
	if len(g.areas.bandAt) == 0 {
		return
	}
	n := g.tiles()
	for band := geoRow(max(latLo, -90)) / areaRows; band <= geoRow(min(latHi, 90))/areaRows; band++ {
		lo, hi := int(g.areas.bandAt[band]), int(g.areas.bandAt[band+1])
		for _, sp := range spans {
			a := lo + sort.Search(hi-lo, func(i int) bool { return g.box[4*(n+lo+i)+2] >= sp[0] })
			for ; a < hi && g.box[4*(n+a)+2] <= sp[1]; a++ {
				t := n + a
				if !g.tileWithin(t, sp[1], aIn, slat, clat, slon, clon, cos0) {
					continue
				}
				q.cand = append(q.cand, candidate{point: uint32(t), tile: true})
				g.markTile(q.mark, t)
				if q.near.byDistance {
					q.ring = append(q.ring, candidate{point: uint32(t), tile: true, a: g.tileNearest(t, &q.near)})
				}
			}
		}
	}
}
