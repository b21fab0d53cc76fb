package engine

import (
	"strconv"
	"strings"
)

// The schema.org views of gigs (JSON-LD): a gig is a MusicEvent, as search engines and
// the venue sites gigs reads publish them.

type ldEvent struct {
	Context           string      `json:"@context,omitempty"`
	Type              string      `json:"@type"`
	ID                string      `json:"@id"`
	URL               string      `json:"url"`
	Name              string      `json:"name"`
	StartDate         string      `json:"startDate"`
	EndDate           string      `json:"endDate,omitempty"`
	DoorTime          string      `json:"doorTime,omitempty"`
	PreviousStartDate string      `json:"previousStartDate,omitempty"`
	EventStatus       string      `json:"eventStatus"`
	AttendanceMode    string      `json:"eventAttendanceMode"`
	Location          ldVenue     `json:"location"`
	Performer         []ldPerson  `json:"performer"`
	Offers            []ldOffer   `json:"offers,omitempty"`
	Image             string      `json:"image,omitempty"`
	TypicalAgeRange   string      `json:"typicalAgeRange,omitempty"`
	Genre             []string    `json:"genre,omitempty"`
	Organizer         *ldOrganize `json:"organizer,omitempty"`
}

type ldVenue struct {
	Type    string    `json:"@type"`
	Name    string    `json:"name"`
	Address ldAddress `json:"address"`
	Geo     *ldGeo    `json:"geo,omitempty"`
}

type ldAddress struct {
	Type     string `json:"@type"`
	Street   string `json:"streetAddress,omitempty"`
	Locality string `json:"addressLocality"`
	Country  string `json:"addressCountry"`
}

type ldGeo struct {
	Type      string  `json:"@type"`
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
}

type ldPerson struct {
	Type string `json:"@type"`
	Name string `json:"name"`
}

type ldOffer struct {
	Type         string   `json:"@type"`
	URL          string   `json:"url"`
	Price        *float64 `json:"price,omitempty"`
	HighPrice    *float64 `json:"highPrice,omitempty"`
	Currency     string   `json:"priceCurrency,omitempty"`
	Availability string   `json:"availability,omitempty"`
	ValidFrom    string   `json:"validFrom,omitempty"`
	Seller       string   `json:"seller,omitempty"`
}

type ldOrganize struct {
	Type string `json:"@type"`
	Name string `json:"name"`
}

// ldStatus maps a gig's status to schema.org's EventStatusType.
var ldStatus = map[Status]string{
	StatusScheduled:   "https://schema.org/EventScheduled",
	StatusCancelled:   "https://schema.org/EventCancelled",
	StatusPostponed:   "https://schema.org/EventPostponed",
	StatusRescheduled: "https://schema.org/EventRescheduled",
}

// ldAvailability maps a ticket's availability to schema.org's ItemAvailability.
var ldAvailability = map[string]string{
	"in_stock":  "https://schema.org/InStock",
	"sold_out":  "https://schema.org/SoldOut",
	"limited":   "https://schema.org/LimitedAvailability",
	"pre_order": "https://schema.org/PreOrder",
}

// ldView returns the MusicEvent of g; base is the service's public URL, which its @id and
// url are made of.
func (g *gigDoc) ldView(base string) ldEvent {
	u := strings.TrimSuffix(base, "/") + "/v1/gigs/" + g.ID
	e := ldEvent{Type: "MusicEvent", ID: u, URL: u, Name: g.Title, EventStatus: ldStatus[g.Status],
		AttendanceMode: "https://schema.org/OfflineEventAttendanceMode", Image: g.Image, Genre: g.Genres,
		EndDate: g.EndsAt, DoorTime: g.DoorsAt, PreviousStartDate: g.PreviousStartsAt, Performer: []ldPerson{}}
	e.StartDate = g.StartsAt
	if g.TimeTBA {
		e.StartDate = g.Date
	}
	if e.EventStatus == "" {
		e.EventStatus = ldStatus[StatusScheduled]
	}
	e.Location = ldVenue{Type: "MusicVenue", Name: g.Venue.Name,
		Address: ldAddress{Type: "PostalAddress", Street: g.address, Locality: g.City.Name, Country: g.Country}}
	if g.Venue.Lat != nil && g.Venue.Lon != nil {
		e.Location.Geo = &ldGeo{Type: "GeoCoordinates", Latitude: *g.Venue.Lat, Longitude: *g.Venue.Lon}
	}
	for _, a := range g.Artists {
		e.Performer = append(e.Performer, ldPerson{Type: "MusicGroup", Name: a.Name})
	}
	for _, t := range g.Tickets {
		o := ldOffer{Type: "Offer", URL: t.URL, Price: t.PriceMin, Currency: t.Currency, Availability: ldAvailability[t.Availability],
			ValidFrom: g.OnSaleAt, Seller: t.Source}
		if t.PriceMax != nil && t.PriceMin != nil && *t.PriceMax != *t.PriceMin {
			o.HighPrice = t.PriceMax
		}
		e.Offers = append(e.Offers, o)
	}
	if g.MinAge != nil && *g.MinAge > 0 {
		e.TypicalAgeRange = strconv.Itoa(*g.MinAge) + "-"
	}
	return e
}

// AppendGigLD appends the schema.org MusicEvent of the gig with id as a JSON-LD
// document; base is the service's public URL, which its @id and url are made of.
func (s *Snapshot) AppendGigLD(dst []byte, id, base string) ([]byte, bool, error) {
	i, ok := s.ids.find(id)
	if !ok {
		return dst, false, nil
	}
	g, err := s.gigView(i, map[string]string{})
	if err != nil {
		return dst, true, err
	}
	e := g.ldView(base)
	e.Context = "https://schema.org"
	dst, err = appendJSON(dst, e)
	return dst, true, err
}

// AppendGraphLD appends a JSON-LD document whose @graph holds the MusicEvents of the
// gigs at positions, in the order given, at most MaxCalendarEvents of them.
func (s *Snapshot) AppendGraphLD(dst []byte, positions []uint32, base string) ([]byte, error) {
	positions = positions[:min(len(positions), MaxCalendarEvents)]
	graph := struct {
		Context string    `json:"@context"`
		Graph   []ldEvent `json:"@graph"`
	}{Context: "https://schema.org", Graph: make([]ldEvent, 0, len(positions))}
	addresses := map[string]string{}
	for _, p := range positions {
		g, err := s.gigView(int(p), addresses)
		if err != nil {
			return dst, err
		}
		graph.Graph = append(graph.Graph, g.ldView(base))
	}
	return appendJSON(dst, graph)
}
