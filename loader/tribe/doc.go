// Package tribe reads The Events Calendar's REST API, the events feed of the WordPress
// plugin known as "tribe" (its REST namespace): GET /wp-json/tribe/events/v1/events, a page
// of {"events": [...], "total", "total_pages", "next_rest_url"}, or one event as
// /wp-json/tribe/events/v1/events/{id} serves it.
//
// Each event's start_date is the venue-local wall time; its timezone is an IANA zone
// when the site set a city in WordPress, else a fixed offset such as "UTC+0" (or "UTC")
// that WordPress uses when it set none (a site in Atlanta may say "UTC+0" for a show at 19:30 local): an
// IANA zone and utc_start_date give the event its offset and zone, a fixed offset is not
// trusted and the wall time stays without one for the normalizer to place by its city.
// An event the site does not list is dropped: a status other than "publish" (a draft, a
// private post, an event its aggregator ignored: "tribe-ignored") or hide_from_listings.
// The venue is the embedded venue object ([] or false when there is none), categories are
// kinds, tags are genres, cost_details give the price (the cost text when they state none,
// if it is one price) and its currency (code, else symbol), website the ticket link.
//
// Work is capped: at most Options.MaxEvents events are read from a page (the rest are
// one drop), texts at schemaorg.MaxText bytes, links at schemaorg.MaxLink. Paging is the
// caller's: Next reads next_rest_url.
package tribe
