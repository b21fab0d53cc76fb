// Package platform reads the event feeds of ticketing platforms, one adapter per feed
// shape, and emulates those feeds over HTTP for tests and the demo.
//
// # Adapters
//
// New(cfg, get) returns a source.Source for cfg.Kind. Each Fetch reads the whole feed for
// [now, now+Horizon] (Horizon defaults to 365 days) through get, which does the HTTP side
// (politeness, retries, conditional GET); the adapter only builds URLs, pages and parses.
// The adapter keeps no state between fetches, and neither cfg nor the Getter is modified.
//
// Shapes, the query parameters the adapter sends, and how it pages:
//
//   - KindHAL, after Ticketmaster Discovery v2: apikey=<Credential>, startDateTime and
//     endDateTime (UTC, "2006-01-02T15:04:05Z", both inclusive), size=200, page (0-based),
//     sort=date,asc. The body has _embedded.events, _links.next.href and
//     page{size,totalElements,totalPages,number}. The platform refuses pages with
//     (page+1)*size over 1,000 with a 400, so a window with more than 1,000 events, or one
//     whose deeper page is refused, is split at its middle second into [from, mid] and
//     [mid+1s, to], recursively; the events of the split window's first page are thrown
//     away and read again in the halves. Next links are followed after removing URI
//     template expressions ("{&sort}"), must stay on the endpoint's scheme and host, and
//     get the apikey and any other first-request parameter they lack (sort) added back.
//   - KindMeta, after SeatGeek v2: client_id=<Credential>, datetime_utc.gte and
//     datetime_utc.lte (UTC without "Z", "2006-01-02T15:04:05"), per_page=100, page
//     (1-based), sort=datetime_utc.asc. The body has events and meta{page,per_page,total}.
//     The per_page the server reports is the one paged by, so a server that caps it lower
//     still reads completely.
//   - KindContinuation, after Eventbrite v3: "Authorization: Bearer <Credential>",
//     start_date.range_start and start_date.range_end (UTC, "2006-01-02T15:04:05Z"),
//     expand=venue,category,subcategory,ticket_availability, and continuation=<token> from
//     the previous page. The body has events and
//     pagination{continuation,has_more_items,page_size,object_count}.
//
// Every kind needs a credential: New refuses an empty one, and a URL that carries one in
// its query. Error messages and drop refs show page URLs with the credential query
// parameter replaced by "REDACTED".
//
// # Failure
//
// Fetch returns an error and no events (never a partial list) when a page cannot be read
// (after the Getter's own retries), its body is not a page of the shape, or the paging
// breaks its promise: a page number other than the one asked for, a page with fewer or more
// records than size/per_page and the total promise, totals or sizes that change between
// pages, no next link before the last page, a next link to another host, a continuation
// token seen before, has_more_items without a token or on an empty or short page, or an
// object_count other than what was delivered. The error is a *PageError (wrapped) naming
// the page by its 1-based request count and its redacted URL; 401 and 403 answers read
// "credential refused". One Fetch makes at most Config.MaxRequests requests (2,000) and
// stops when ctx is done.
//
// # Records
//
// A record that cannot be used becomes a source.Drop with Ref the page's (redacted) URL,
// Line the record's 1-based index in the page's events array, and a lowercase reason: no
// event id, no title, no usable start (no date, an unparsable local time), a start date to
// be announced (HAL dateTBA/dateTBD, meta date_tbd/datetime_tbd), a draft (continuation), or
// a record whose fields have the wrong JSON types. The other records of the page are kept.
// An event id seen earlier in the same Fetch is skipped: offset paging repeats an event
// when the list shifts between pages.
//
// Events carry what the platform states, nothing more:
//
//   - Ref is the platform's event id (numbers read as their decimal text); URL its page on
//     the platform (absolute http(s) only); Line is 0; Source is Config.Name.
//   - Start: the venue-local wall time, with HasOffset and the offset local minus the UTC
//     instant when that is a real offset (-12:00 to +14:00 in steps of 15 minutes);
//     otherwise the wall time alone. An instant whose local time is missing is kept as the
//     UTC wall time with offset 0. It is date-only when the platform says the time is not
//     known (HAL timeTBA or noSpecificTime, meta time_tbd, whose placeholder clock time such
//     as 03:30 is never used) or gives a date alone. An unparsable instant beside a good
//     local time leaves the local time alone. End only for the continuation kind.
//   - Venue from the first venue: name, street, city, region, postal code, country (code,
//     or name when no code), coordinates when both parse (numbers or strings) and are in
//     range; 0,0 counts as none. Place.URL stays empty: a platform's venue page is not the
//     venue's website.
//   - Performers: HAL attractions in order with their genres; meta performers with the
//     primary one first, then the others in order; none for the continuation kind (its
//     title is the bill).
//   - Genres: HAL genre and subGenre of each classification (the segment, "Music", is a
//     vertical, not a genre); meta taxonomies; continuation category and subcategory. Tags
//     that say nothing ("Undefined", "Music", "concert", "Other", "Miscellaneous", ...) are
//     left out, and repeats are removed case-insensitively. Otherwise tags are as given.
//   - Status: cancelled (HAL canceled, meta cancelled, continuation canceled), postponed,
//     rescheduled; everything else (onsale, offsale, normal, live, started, ended,
//     completed, unknown codes) is scheduled.
//   - Offers: one, for the event's page, when it has a page, a price or an availability.
//     A price only when the platform states one (HAL the "standard" priceRange or the
//     first; meta stats.lowest_price/highest_price; continuation ticket_availability
//     minimum/maximum major_value); negative values count as none, a missing bound takes
//     the other's value, and Currency (upper-cased) is set only with a price.
//     Availability: HAL onsale "in_stock" (offsale says only that nothing is on sale
//     now: not yet, no longer, or moved; unknown); meta stats.listing_count 0
//     "sold_out", more "in_stock"; continuation is_sold_out "sold_out",
//     has_available_tickets "in_stock"; otherwise, and for every cancelled event, unknown.
//   - One show, one event: a HAL feed lists a show once per ticketing system, and its
//     packages ("… - Restaurant Tables") apart; records at one venue with one start time
//     and one first attraction are joined (see oneListingPerShow), with every offer, and
//     a status other than cancelled when one has it.
//
// The page parsers (parseHALPage, parseMetaPage, parseContinuationPage) are pure functions
// of the body and the page ref; they are fuzzed.
//
// # Emulator
//
// The harness package testkit/emulator plays these platforms for the tests, the demo
// corpus and the bench; see its documentation.
package platform
