// Package schemaorg maps schema.org values shared by the JSON-LD and microdata adapters.
//
// The adapters differ in how a page carries its values; once a value is read as a string,
// they agree on what it means. This package holds that agreement: the event types read as
// listings, event statuses and offer availabilities given as IRIs or bare names, prices and
// coordinates written as text, dates and door times, links and identities resolved against
// the page, the cleaning of page text, the rule that an event needs a name and a readable
// start, how a sub-event is filed against its event (SubEvent), and a remaining attendee
// capacity of none as sold out (SoldOut).
//
// Every function takes untrusted page text, never panics, and bounds its work and its
// results: text is cut to MaxText bytes, links longer than MaxLink are ignored, and page
// values quoted in a drop reason are clipped to MaxQuote bytes. All are safe for concurrent use.
package schemaorg
