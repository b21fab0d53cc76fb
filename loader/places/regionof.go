package places

// RegionCountries returns the countries that have a region of the code or name r, of those
// whose regions a line may name without its country (the US, Canada, Australia): "LA"
// and "Louisiana" are the US's, "ON" Canada's, "NL" Canada's (Newfoundland and
// Labrador). A calendar's "Town, LA" is a town and its state, not a town of Laos, when
// the gazetteer has the town there or the feed's zone is the state's: the loader asks
// this before it reads a line's last part as a country. The slice is the gazetteer's: do
// not modify it.
func (g *Gazetteer) RegionCountries(r string) []string { return g.regionsNamed(r) }
