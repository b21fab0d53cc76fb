// Package mcp serves the read API to AI agents over the Model Context Protocol, on the
// official Go SDK (github.com/modelcontextprotocol/go-sdk): the tools find_gigs, get_gig,
// get_venue, get_artist, list_cities, list_genres and whats_on.
//
// The tools are written once, over a Reader: something that answers GET requests of the
// /v1 API. gigsd's /mcp endpoint (package server) reads in-process from the snapshot it
// serves, through the same handlers as the public API; `gigsctl mcp` reads a running gigs
// over HTTP (HTTPReader). Each tool call makes the API requests it names (one; two for
// whats_on, whose first is a conditional request for the cities directory, answered 304
// while the data is unchanged), so it costs what those requests cost and is charged
// like them; no tool reads the export.
//
// Every tool's input schema is generated from the parameters of the OpenAPI document
// (package server/openapi), so the two cannot drift. The answer's structured content is
// the API's JSON (a page of at most 100 items, 20 by default), its text content one
// line per gig and how to get the next page; a problem the API answers (a bad parameter,
// an unknown slug) is a tool error carrying its detail and the parameters it names.
package mcp
