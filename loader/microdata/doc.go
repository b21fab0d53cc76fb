// Package microdata extracts schema.org events from the microdata of venue web pages.
//
// Parse reads a page with the tokenizer of golang.org/x/net/html, so tags, attributes and
// character references are read as browsers read them, and counts lines as it goes. It builds
// the element tree with the HTML rules that matter for broken pages (void elements, end
// tags that end the unclosed elements inside them, stray end tags ignored, the implied ends
// of p, li, dd, dt, td, th, tr, option and a nested a; not the adoption agency or foster
// parenting) and keeps of it only what microdata needs: the elements with itemscope,
// itemprop or id and the text inside itemprop elements. The content of template, script,
// style, noscript and iframe elements is not part of any value.
//
// Items and their properties follow the WHATWG microdata spec: an item's properties are the
// itemprop elements below it and below the elements its itemref names, not looking inside
// nested items; an itemprop may hold several names; a property name written as a URL counts
// by its last segment, and names are matched ignoring case. A property's value is a nested
// item (itemscope), the content attribute on any element (as search engines read it), else
// a meta's content, an a, area or link's href, an img, audio, embed, iframe, source, track
// or video's src, an object's data, a data or meter's value, a time's datetime, and else the
// element's text, where a br or the edge of a block element separates words. Types are
// schema.org URLs, http or https, with or without "www." and a trailing slash, in any case;
// Google's older http://data-vocabulary.org/Event is an Event too, its "summary" its name,
// and an Address's street-address, locality, region, postal-code and country-name are read.
//
// Events are items of the types package schemaorg reads as listings, wherever they are:
// top-level, or the value of another item's property (a Place's "event", an ItemList's
// "itemListElement", a Festival's "subEvent"). Inside an event only its subEvent values are
// looked at, as in package jsonld: a superEvent, or an event a performer also plays, is not
// a listing of the page. A sub-event is filed against its event with schemaorg.SubEvent:
// the event's own session listed again is the event, not a second one. An item with itemprop
// that is no item's property counts as top-level. An item reached in several ways is read
// once.
//
// Values are mapped as package schemaorg does for JSON-LD too: dates with schemaorg.When,
// keeping their offset or lack of one (but for EventON's, the site's: see
// schemaorg.When), a door time given as a clock alone on the start's
// date; statuses and availabilities as URLs or bare names; prices as text such as "£25" or
// "25,50"; a location as a Place item (or a PostalAddress item, the address's properties
// then on the location) or a name; performers as items or names; offers as
// Offer or AggregateOffer items, with an aggregate's nested offers read instead of it. An
// event without a name or a readable startDate is never lost silently: it becomes a drop
// naming the event and the reason. Text is stripped of control characters,
// whitespace-collapsed, made valid UTF-8 and cut to 500 bytes; links are resolved against
// the page URL (or its <base>) and kept only when they are http or https.
//
// Work is bounded on hostile pages: elements nested deeper than 512 are read as siblings
// (as browsers do), at most 100,000 elements are kept, items nested as values deeper than
// 32 levels are not read, at most 10,000 events are returned, and crawling the items and
// reading the events each stop after 10,000,000 steps; each of those is reported as a drop.
// Quietly, an event keeps at most 50 offers and 20 genres, and an element's first 16 types
// and first 16 property names are read.
//
// Parse never panics and never modifies its input; it is safe for concurrent use.
package microdata
