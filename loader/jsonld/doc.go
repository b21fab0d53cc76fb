// Package jsonld extracts schema.org events from the JSON-LD blocks of venue web pages.
//
// Parse finds every <script type="application/ld+json"> element of a page (tag and
// attribute names in any case, attributes in any order and quoting, a type with parameters),
// each ending where HTML's script data states end it (a "</script" that closes a "<script"
// written between "<!--" and "-->" inside the JSON, as WordPress's video shim in EventON's
// descriptions, does not), blanks the "<!--" and "<![CDATA[" wrappers old pages put around the JSON, and decodes it with
// encoding/json. A block that is not valid JSON is repaired byte for byte (raw control
// characters inside strings, trailing commas, byte order marks) and decoded again; a block
// that is still invalid becomes a source.Drop, and the values read before the error are kept.
//
// Events are found wherever they are nested: a single object, an array, an "@graph", a
// "mainEntity", an ItemList's "itemListElement[].item", a Place's "event", a Festival's
// "subEvent" (filed against its event with schemaorg.SubEvent: the event's own session
// listed again is the event, not a second one), an act's "event" (a MusicGroup's, PerformingGroup's or Person's: its shows,
// played by the act and named after it when they have no name of their own). Nesting deeper than 32 levels is not read and more than 10,000 events on one
// page are not returned; both are reported as drops. A location, performer, offer, address,
// country or geo that only refers to another node ({"@id": ...}) is resolved against the
// nodes of the same page. An event keeps at most 50 offers, and a genre list 20 genres.
// A location is a Place, whose address is a PostalAddress or text, or a PostalAddress
// itself, the address's properties then on the location; a member written with an "@" that
// is no JSON-LD keyword ("@addressLocality") is read as the property it names when the
// object has no member of that name.
//
// The adapter only reports what the page says, as package source requires: dates are read
// with schemaorg.When (ISO 8601 and the other ways pages write them) and keep their offset
// or lack of one, but for EventON's, which is the site's and not the event's (the clock is
// then read in the venue's zone), a door time given as a clock
// alone takes the start's date, and fields that cannot be read are left empty. An event
// without a name or a readable startDate is never lost silently: it becomes a drop naming
// the event and the reason. Page strings are untrusted: text is HTML-unescaped, stripped of
// control characters, whitespace-collapsed, made valid UTF-8 and cut to 500 bytes; links are
// resolved against the page URL and kept only when they are http or https.
//
// Parse never panics and never modifies its input; it is safe for concurrent use.
package jsonld
