package places

// Village reports whether the city is a village, of fewer than minTown people: a word that
// names one alone in a line is more often a venue's name than the village's.
func (c *City) Village() bool { return c.village() }

// KeepsClock reports whether the city keeps the clock of the zone named zone: a feed's
// town in a country of several zones keeps the feed's clock (Home, Washington, is no town
// of an America/New_York feed).
func (c *City) KeepsClock(zone string) bool { return sameClock(c.Location, zone) }
