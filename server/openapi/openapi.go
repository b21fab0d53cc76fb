// Package openapi holds the OpenAPI 3.1 document of the gigs API, served at
// /v1/openapi.json. The document is written by hand next to this file; its tests lint it
// (make openapi-lint) and check every response of the HTTP tests against it
// (package openapitest).
package openapi

import _ "embed"

// Document is the OpenAPI document, JSON.
//
//go:embed openapi.json
var Document []byte
