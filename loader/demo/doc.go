// Package demo writes a seeded, reproducible demo corpus: the websites of about sixty
// fictional venues in cities of the places gazetteer, each one HTML page listing its shows
// as schema.org JSON-LD, plus the sources configuration that points the loader at them.
//
// Generate(dir, Options{Today, Seed}) writes
//
//	dir/sites/<venue-slug>/index.html  one venue page, events in JSON-LD
//	dir/sources.json                   {"sources":[{"name":"venue-<slug>","kind":"jsonld","url":"sites/<slug>/index.html"}]}
//	dir/GENERATED                      the Today date, YYYY-MM-DD, one line
//
// Dates are relative to Today, so a corpus generated on the day it is served always lists
// upcoming gigs: about 2,000 shows over the next 180 days, plus a handful on the days just
// before Today that the loader must drop as past.
//
// The corpus is meant to exercise the JSON-LD adapter and normalization, so it varies what
// real venue pages vary, per venue: the block shape (one script per event, an array, an
// @graph, WebPage.mainEntity as an ItemList), @type strings or arrays, startDate with a UTC
// offset or venue-local or date-only, addressCountry as a code, a name or an object, geo as
// numbers or strings, performers as objects, one object or plain text, offers as an Offer,
// an array or an AggregateOffer, prices as numbers or strings, eventStatus present or not,
// HTML entities in names. It includes venues at +05:30, +05:45 and −03:30, a show on every
// daylight-saving change day in the horizon of every venue whose zone has one, and club
// sets that start in the hour after a spring-forward change, stated without an offset.
//
// Artists come from a pool of about 500 generated names with Zipf-like popularity: popular
// acts tour many cities on different dates, never play two shows on one night and leave
// time to travel between continents.
//
// Everything derives from Options through math/rand/v2 PCG streams and ordered slices:
// the same Options give byte-identical files, on any machine and in any time zone (zone
// rules come from the embedded time/tzdata).
package demo
