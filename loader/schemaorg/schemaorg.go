package schemaorg

import (
	"strings"

	"github.com/gigs/gigs/engine"
)

// eventTypes are the schema.org types read as listings, lower-cased: Event and those of its
// subtypes that take place somewhere. EventSeries, CourseInstance, DeliveryEvent,
// PublicationEvent and UserInteraction are not listings.
var eventTypes = map[string]bool{
	"event": true, "musicevent": true, "festival": true, "comedyevent": true,
	"theaterevent": true, "danceevent": true, "socialevent": true, "childrensevent": true,
	"literaryevent": true, "screeningevent": true, "exhibitionevent": true,
	"visualartsevent": true, "foodevent": true, "sportsevent": true, "businessevent": true,
	"educationevent": true, "saleevent": true, "hackathon": true,
	"performingartsevent": true, // not in schema.org's vocabulary yet; Artsdata.ca and schema.org's own examples write it
}

// typeNames are the types a performer may be, lower-cased (see IsTypeName).
var typeNames = map[string]bool{
	"thing": true, "organization": true, "person": true, "performinggroup": true,
	"musicgroup": true, "dancegroup": true, "theatergroup": true,
}

// IsTypeName reports whether a performer given as text is only the name of the type it
// should have been: The Events Calendar (WordPress) writes "performer":"Organization" on
// every event, which names no act.
func IsTypeName(s string) bool { return typeNames[Term(s)] }

// IsActType reports whether a type, as Term returns it, is a performer's that may list its
// shows in "event": a band's or an artist's page.
func IsActType(term string) bool {
	return term == "musicgroup" || term == "performinggroup" || term == "person"
}

// IsEventType reports whether a type, as Term returns it, is read as a listing.
func IsEventType(term string) bool { return eventTypes[term] }

// Term returns the last segment of an IRI or compact IRI, lower-cased:
// "https://schema.org/SoldOut", "schema:SoldOut" and "SoldOut" all give "soldout".
// White space around s and control characters in it are ignored.
func Term(s string) string { return strings.ToLower(Name(s)) }

// Name returns the last segment of an IRI or compact IRI as written: "schema:SportsEvent"
// gives "SportsEvent". White space around s and control characters in it are ignored.
func Name(s string) string {
	s = Token(s)
	return s[strings.LastIndexAny(s, "/#:")+1:]
}

// Status maps an eventStatus, as a full IRI, a compact IRI or a bare name. A move online
// leaves the event scheduled; an unknown or missing status is zero.
func Status(s string) engine.Status {
	switch strings.TrimPrefix(Term(s), "event") {
	case "scheduled", "movedonline":
		return engine.StatusScheduled
	case "cancelled", "canceled":
		return engine.StatusCancelled
	case "postponed":
		return engine.StatusPostponed
	case "rescheduled":
		return engine.StatusRescheduled
	}
	return ""
}

// Availability maps a schema.org ItemAvailability, as an IRI or a bare name, to the values of
// source.Offer: "in_stock", "sold_out", "limited", "pre_order", or "" when unknown.
func Availability(s string) string {
	switch Term(s) {
	case "instock", "onlineonly", "instoreonly":
		return "in_stock"
	case "soldout", "outofstock":
		return "sold_out"
	case "limitedavailability":
		return "limited"
	case "preorder", "presale":
		return "pre_order"
	}
	return ""
}
