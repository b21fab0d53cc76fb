// Package demo writes a seeded, reproducible corpus of upstream sources for the loader: the
// websites of 320 fictional venues in the cities of the places gazetteer, the listings of
// three ticketing platforms, the configuration that points the loader at them, the faults
// the fixture server (package fixture) plays, and the truth about which records are one
// concert, so tests can measure merge precision and recall.
//
// Generate(dir, Options{Today, Seed, Revision}) writes
//
//	dir/sites/<host>/<path>          venue websites, one directory per host name (under .test):
//	                                 the listing page or feed, a home page when the listing is
//	                                 elsewhere, robots.txt (most sites)
//	dir/platforms/<name>.json        {"listings":[emulator.Listing...]}, one listing a line,
//	                                 for tixhub, gigseek and evently
//	dir/sources.json                 the sources configuration (below)
//	dir/expected-merges.json         {"concerts":[{"id":"c000123","start":"2026-12-05T20:00","zone":…,
//	                                 "status":"scheduled","records":[{"source":…,"ref":…}]}]}
//	dir/faults.json                  {"faults":[{"url":…,"kind":…,…}]}, for the fixture server
//	dir/demo.env                     the platforms' fixture credentials, NAME=value lines
//	dir/GENERATED                    the Today date, YYYY-MM-DD, one line
//
// A URL http://<host>/<path> is the file dir/sites/<host>/<path>, with index.html appended
// to paths ending in "/".
//
// # Venue websites
//
// Of the 320 sites, 176 publish schema.org JSON-LD, 64 microdata and 48 iCalendar feeds, and
// 32 more (in all three formats) are broken. JSON-LD pages vary what real pages vary: the
// block shape (one script per event, an array, an @graph, WebPage.mainEntity as an ItemList),
// @type strings or arrays, startDate with a UTC offset or venue-local or date-only,
// addressCountry as a code, a name or an object, geo as numbers or strings, performers as
// objects, one object or text, offers as an Offer, an array or an AggregateOffer, prices as
// numbers or strings, eventStatus present or not, HTML entities in names, and "@id" absolute,
// relative, a fragment or (on about one page in seven) missing. Microdata pages mark each
// show up as a top-level Event item, with itemid on some pages, startDate in <time datetime>
// or <meta content>, a nested Place with PostalAddress and GeoCoordinates, performers as
// MusicGroup or Person items or text, offers as Offer or AggregateOffer. iCalendar feeds
// state DTSTART with an IANA TZID, a Windows zone name ("W. Europe Standard Time"), each
// with or without a VTIMEZONE, in UTC, floating, or as VALUE=DATE when the time is to be
// announced; they carry STATUS:CANCELLED, weekly residencies as RRULE with EXDATE, folded
// lines (some folding inside a UTF-8 character), a byte order mark or LF-only lines on some,
// SUMMARY "Headliner + Support" or "Headliner", LOCATION with the venue's name, CATEGORIES.
//
// Broken sites: 404 (5), 500 (4), 503 with Retry-After (4), a server that stalls (4),
// Latin-1 bytes served as UTF-8 (4), one page over 8 MiB, robots.txt refusing the gigs agent
// (5), and a site that fails its first request and then works (5). faults.json says, per URL:
//
//	{"url": "http://host/path", "kind": "not-found"|"server-error"|"unavailable"|"stall"|
//	 "wrong-charset"|"oversized"|"robots"|"flaky",
//	 "status": 503, "retry_after": 120, "fail_first": 1, "stall": true,
//	 "content_type": "text/html; charset=utf-8"}
//
// where status answers the URL (the first fail_first requests only, when set), stall delays
// the answer, and content_type is the header to send. The wrong charset and the oversized
// page are in the files themselves; robots refusals are in robots.txt ("robots" names it).
//
// # Platforms
//
// tixhub (kind hal, api.tixhub.test, primary), gigseek (meta, api.gigseek.test) and evently
// (continuation, www.evently.test) list about a third of the venue sites' upcoming shows,
// each on one to three of them, with the variation real platforms show: titles like
// "SOLD OUT: X", "X (DJ set)", "X – Live", "The X" for "X", "&" for "and", "X feat. Y",
// dropped accents, upper case and tour suffixes; venue names with or without "The" or with
// the city; the doors time, no time, or an after-midnight show dated to the evening before;
// a rescheduled show still on its old date, or moved on the primary platform only; a
// cancellation on the venue's site or on the primary platform only; prices only on the
// platform; support acts missing. They also list the shows of 30 venues without a website
// and some shows broken sites leave out. Listing ids derive from the seed and the concert.
//
// # Cases that must stay apart
//
// Early and late shows of one act at one venue on one night, listed under one title; tribute
// acts ("Oasish – a tribute to Oasis") at the venue and on the date of the act they copy,
// in another source; near-named acts ("Daughter", "Daughters") at one venue on one night.
//
// # Refs
//
// expected-merges.json names records as the adapters do: for JSON-LD the event's "@id"
// resolved against the page URL, else the page URL + "#" + the event's 1-based position among
// the page's events; for microdata the itemid likewise; for iCal the UID, and for each
// occurrence of a recurring event the UID + "/" + its date (YYYY-MM-DD in DTSTART's zone);
// for platforms the listing id. Every concert lists every record of it in any file, broken
// sites included: tests keep the records of the sources they fetched.
//
// # Time
//
// Dates are relative to Today: about 5,000 shows over the next 180 days, a handful on the
// days just before. Venues are in some fifty zones, at +05:30, +05:45 and −03:30 among
// others; every venue whose zone changes offset within the horizon has an evening show that
// day, and clubs have sets in the hour after a spring-forward change, stated without offset.
//
// # Revisions
//
// Revision 1 is the same sources an hour later: about 1.5% of titles edited, twelve shows
// rescheduled (pages add previousStartDate), ten cancelled, ten new shows, and gigseek's
// listings changed (moves and cancellations followed, titles and prices edited, a few
// listings dropped and added). Only sites that identify their events move or add shows, so
// every record keeps its ref and every concert its id; new concerts get new ids.
//
// Everything derives from Options through math/rand/v2 PCG streams and ordered slices:
// the same Options give byte-identical files, on any machine and in any time zone (zone
// rules come from the embedded time/tzdata). Files whose content is unchanged are not
// rewritten, so regenerating keeps their modification times.
package demo
