package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPointMetresMatchesDistanceMetres: the distance a near page shows and sorts by,
// measured from the index's trigonometry (pointMetres), is DistanceMetres' to the metre:
// for points anywhere, points within 500 km of the query's (across the antimeridian and
// by the poles too), the query's own point, and points at a whole metre and a half to a
// few nanometres, where the two ways of measuring may round apart.
func TestPointMetresMatchesDistanceMetres(t *testing.T) {
	r := rand.New(rand.NewPCG(37, 49))
	for _, c := range []struct{ lat, lon float64 }{
		{51.507, -0.128}, {0, 179.99}, {-33.869, 151.209}, {89.9, 10}, {-89.95, -170}, {0, 0},
	} {
		var pts [][2]float64
		for range 2000 { // anywhere
			pts = append(pts, [2]float64{r.Float64()*180 - 90, r.Float64()*360 - 180})
		}
		for range 2000 { // near: within about 5 degrees, longitudes wrapped
			lat := max(-90, min(90, c.lat+(r.Float64()-0.5)*10))
			pts = append(pts, [2]float64{lat, math.Remainder(c.lon+(r.Float64()-0.5)*10, 360)})
		}
		pts = append(pts, [2]float64{c.lat, c.lon})
		// Along the meridian, k metres and a half away, the last bits of the latitude
		// stepped around it.
		for k := range 300 {
			d := (float64(k*k) + 0.5) / 1000 / EarthRadiusKm / rad // degrees
			lat := c.lat - d
			if lat < -90 {
				lat = c.lat + d
			}
			for s := -4; s <= 4; s++ {
				pts = append(pts, [2]float64{lat + float64(s)*1e-15*max(1, math.Abs(lat)), c.lon})
			}
		}
		var g geoIndex
		for _, p := range pts {
			g.lat, g.lon = append(g.lat, math.Float64bits(p[0])), append(g.lon, math.Float64bits(p[1]))
		}
		g.setTrig()
		q := &Query{}
		q.Near(c.lat, c.lon, MaxRadiusKm, true)
		q.near.trig = trigOf(c.lat, c.lon)
		for k, p := range pts {
			if got, want := g.pointMetres(q, k), DistanceMetres(c.lat, c.lon, p[0], p[1]); got != want {
				t.Fatalf("from %v,%v to %v,%v: %d m, DistanceMetres %d m", c.lat, c.lon, p[0], p[1], got, want)
			}
		}
	}
}

// TestAsinNear: asinNear is math.Asin within a few units in the last place where its
// series is used, and math.Asin beyond.
func TestAsinNear(t *testing.T) {
	for i := range 100001 {
		x := float64(i) / 100000 * 0.05
		if got, want := asinNear(x), math.Asin(x); math.Abs(got-want) > 1e-15*want {
			t.Fatalf("asinNear(%v) = %v, math.Asin %v", x, got, want)
		}
	}
	if asinNear(1) != math.Asin(1) {
		t.Fatal("asinNear(1) is not math.Asin(1)")
	}
}
