package places

import "strings"

// A feed's other events tell its region as well as its country. A Boston jazz listing
// writes "Boston, MA 02134", "Cambridge, MA 02138", "Portsmouth, NH 03801", and then
// "Arlington Visitor Center, Arlington" and "Spire Center for the Performing Arts,
// Plymouth": a bare town's namesakes in the regions the feed's other events are placed in
// come first. "Arlington" is Arlington, Massachusetts, not Arlington, Texas or Virginia;
// "Plymouth" is not Plymouth, Minnesota, the most populous of them. When the feed's
// regions hold several ("Concord", "Plymouth": New Hampshire's and Massachusetts'), the
// most populous by four times among them is taken, else none: the place is ambiguous. A
// namesake whose clock is not the event's own zone is never chosen this way. Context.Regions lists the regions; the loader fills it from the
// places it reads without doubt, and lists none for a feed in more regions than a few (a
// touring band's calendar tells no region).

// FeedRegion names the region a city is in as Context.Regions lists it: its country's
// ISO code, a hyphen, and the region's code, else its name ("US-MA").
func FeedRegion(c *City) string { return c.Country + "-" + cmpOr(c.Region, c.RegionName) }

// inFeedRegions returns, of several cities of one name, the one the context's regions
// hold (see above) and what decided; ok is false when they hold none of them, and the
// city nil when they hold several and none stands out.
func inFeedRegions(cs []*City, ctx Context) (c *City, by string, ok bool) {
	if len(ctx.Regions) == 0 {
		return nil, "", false
	}
	var top *City
	n := 0
	held := func(x *City) bool {
		// A namesake in another clock than the event's zone is no choice of its feed's regions.
		return x.inFeedRegion(ctx.Regions) && (ctx.Zone == "" || sameClock(x.Location, ctx.Zone))
	}
	for _, x := range cs {
		if held(x) {
			n++
			if top == nil || x.Population > top.Population {
				top = x
			}
		}
	}
	switch {
	case n == 0:
		return nil, "", false
	case n == 1:
		return top, ctx.RegionsBy, true
	}
	for _, x := range cs {
		if x != top && held(x) && x.Population*4 > top.Population {
			return nil, "", true
		}
	}
	return top, ctx.RegionsBy + "; " + byPopulation, true
}

// inFeedRegion reports whether the city is in one of regions (FeedRegion's names).
func (c *City) inFeedRegion(regions []string) bool {
	for _, r := range regions {
		if cc, rg, _ := strings.Cut(r, "-"); cc == c.Country && rg == cmpOr(c.Region, c.RegionName) {
			return true
		}
	}
	return false
}
