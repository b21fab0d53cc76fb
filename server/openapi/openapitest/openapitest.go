// Package openapitest checks HTTP responses against the OpenAPI document: the route and
// method are described, the status is listed for the operation, every header sent is
// documented for that response and matches its schema, every required header is sent,
// the content type is listed, and the body (gzip undone) validates against its schema.
// For use by tests.
package openapitest

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/gigs/gigs/server/openapi"
)

// Validator checks responses against the document. Safe for concurrent use.
type Validator struct {
	doc    map[string]any
	paths  []pathTemplate
	c      *jsonschema.Compiler
	mu     sync.Mutex
	cached map[string]*jsonschema.Schema // by JSON pointer
}

type pathTemplate struct {
	key string // as written in the document, /v1/gigs/{id}
	re  *regexp.Regexp
}

// ignoredHeaders are sent by the transport on every response, whatever the API does.
var ignoredHeaders = map[string]bool{"Content-Length": true, "Date": true, "Connection": true, "Transfer-Encoding": true, "Keep-Alive": true}

const docURL = "openapi.json"

// New returns a Validator for the document.
func New() (*Validator, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(openapi.Document))
	if err != nil {
		return nil, fmt.Errorf("the OpenAPI document is not JSON: %w", err)
	}
	v := &Validator{c: jsonschema.NewCompiler(), cached: map[string]*jsonschema.Schema{}}
	v.doc, _ = doc.(map[string]any)
	v.c.DefaultDraft(jsonschema.Draft2020)
	v.c.AssertFormat()
	if err := v.c.AddResource(docURL, doc); err != nil {
		return nil, err
	}
	paths, _ := v.doc["paths"].(map[string]any)
	for key := range paths {
		re := "^" + regexp.MustCompile(`\\\{[^}]+\\\}`).ReplaceAllString(regexp.QuoteMeta(key), `[^/]+`) + "$"
		v.paths = append(v.paths, pathTemplate{key, regexp.MustCompile(re)})
	}
	// Concrete paths match before templated ones: /v1/gigs/download is not /v1/gigs/{id};
	// and longer templates before shorter ones: /v1/venues/{slug}.ics is not /v1/venues/{slug}.
	slices.SortFunc(v.paths, func(a, b pathTemplate) int {
		return cmp.Or(cmp.Compare(strings.Count(a.key, "{"), strings.Count(b.key, "{")), cmp.Compare(len(b.key), len(a.key)), cmp.Compare(a.key, b.key))
	})
	return v, nil
}

// Default is the Validator of the document, made on first use.
var Default = sync.OnceValues(New)

// Check checks one response to a request for method and path (without the query).
func (v *Validator) Check(method, path string, status int, header http.Header, body []byte) error {
	op, opPtr, ok := v.operation(method, path)
	if !ok {
		return v.checkUnmatched(method, path, status, header, body)
	}
	responses, _ := op["responses"].(map[string]any)
	code := strconv.Itoa(status)
	var resp any
	var respPtr string
	for _, k := range []string{code, code[:1] + "XX", "default"} {
		if r, ok := responses[k]; ok {
			resp, respPtr = r, opPtr+"/responses/"+escape(k)
			break
		}
	}
	if resp == nil {
		return fmt.Errorf("%s %s: status %d is not documented", method, path, status)
	}
	r, rPtr := v.resolve(resp, respPtr)
	var errs []error
	headers, _ := r["headers"].(map[string]any)
	for name := range header {
		if ignoredHeaders[name] || name == "Content-Type" {
			continue
		}
		h, ok := lookupFold(headers, name)
		if !ok {
			errs = append(errs, fmt.Errorf("header %s is not documented", name))
			continue
		}
		hObj, hPtr := v.resolve(h.value, rPtr+"/headers/"+escape(h.key))
		if schema, ok := hObj["schema"]; ok {
			sObj, sPtr := v.resolve(schema, hPtr+"/schema")
			if err := v.validate(sPtr, headerValue(sObj, header.Get(name))); err != nil {
				errs = append(errs, fmt.Errorf("header %s: %q: %w", name, header.Get(name), err))
			}
		}
	}
	for name, h := range headers {
		hObj, _ := v.resolve(h, rPtr+"/headers/"+escape(name))
		if req, _ := hObj["required"].(bool); req && header.Get(name) == "" && status != http.StatusNotModified {
			errs = append(errs, fmt.Errorf("required header %s is missing", name))
		}
	}
	content, _ := r["content"].(map[string]any)
	if len(body) == 0 && (len(content) == 0 || method == http.MethodHead || status == http.StatusNotModified || status == http.StatusNoContent) {
		return wrap(method, path, status, errs)
	}
	if status == http.StatusPartialContent { // a range of a body is no document by itself
		return wrap(method, path, status, errs)
	}
	mt, _, err := mime.ParseMediaType(header.Get("Content-Type"))
	if err != nil {
		errs = append(errs, fmt.Errorf("content type %q: %w", header.Get("Content-Type"), err))
		return wrap(method, path, status, errs)
	}
	key, ok := mediaKey(content, mt)
	if !ok {
		errs = append(errs, fmt.Errorf("content type %s is not documented", mt))
		return wrap(method, path, status, errs)
	}
	if header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err == nil {
			body, err = io.ReadAll(zr)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("gzip body: %w", err))
			return wrap(method, path, status, errs)
		}
	}
	if strings.HasSuffix(mt, "json") {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
		if err != nil {
			errs = append(errs, fmt.Errorf("body is not JSON: %w", err))
		} else if err := v.validate(rPtr+"/content/"+escape(key)+"/schema", inst); err != nil {
			errs = append(errs, fmt.Errorf("body: %w", err))
		}
	}
	return wrap(method, path, status, errs)
}

func wrap(method, path string, status int, errs []error) error {
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%s %s → %d does not match the OpenAPI document:\n%w", method, path, status, err)
	}
	return nil
}

// operation finds the operation for method and path.
func (v *Validator) operation(method, path string) (map[string]any, string, bool) {
	paths, _ := v.doc["paths"].(map[string]any)
	for _, p := range v.paths {
		if !p.re.MatchString(path) {
			continue
		}
		item, ptr := v.resolve(paths[p.key], "#/paths/"+escape(p.key))
		if op, ok := item[strings.ToLower(method)].(map[string]any); ok {
			return op, ptr + "/" + strings.ToLower(method), true
		}
	}
	return nil, "", false
}

// checkUnmatched checks the answer to a path or method the document does not route: a
// CORS preflight's 204, or a 4xx problem (404, 405, or 400 for an unparsable request).
func (v *Validator) checkUnmatched(method, path string, status int, header http.Header, body []byte) error {
	if method == http.MethodOptions && status == http.StatusNoContent {
		return nil
	}
	if status < 400 || status > 499 {
		return fmt.Errorf("%s %s → %d: the document routes no such request, and the answer is no 4xx problem", method, path, status)
	}
	if method == http.MethodHead && len(body) == 0 {
		return nil
	}
	if mt, _, _ := mime.ParseMediaType(header.Get("Content-Type")); mt != "application/problem+json" {
		return fmt.Errorf("%s %s → %d: content type %q, want application/problem+json", method, path, status, mt)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err == nil {
		err = v.validate("#/components/schemas/Problem", inst)
	}
	return wrap(method, path, status, []error{err})
}

func (v *Validator) validate(ptr string, inst any) error {
	v.mu.Lock()
	s, ok := v.cached[ptr]
	if !ok {
		var err error
		if s, err = v.c.Compile(docURL + ptr); err != nil {
			v.mu.Unlock()
			return fmt.Errorf("schema %s does not compile: %w", ptr, err)
		}
		v.cached[ptr] = s
	}
	v.mu.Unlock()
	return s.Validate(inst)
}

// resolve follows a local $ref, returning the object and its JSON pointer.
func (v *Validator) resolve(obj any, ptr string) (map[string]any, string) {
	for range 10 {
		m, _ := obj.(map[string]any)
		ref, ok := m["$ref"].(string)
		if !ok || !strings.HasPrefix(ref, "#/") {
			return m, ptr
		}
		ptr, obj = ref, v.doc
		for _, tok := range strings.Split(ref[2:], "/") {
			tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
			cur, _ := obj.(map[string]any)
			obj = cur[tok]
		}
	}
	return nil, ptr
}

// mediaKey finds the content entry for media type mt; entries may carry parameters
// (text/plain; charset=utf-8).
func mediaKey(content map[string]any, mt string) (string, bool) {
	for k := range content {
		if kt, _, err := mime.ParseMediaType(k); err == nil && kt == mt {
			return k, true
		}
	}
	return "", false
}

type namedValue struct {
	key   string
	value any
}

func lookupFold(m map[string]any, name string) (namedValue, bool) {
	for k, v := range m {
		if strings.EqualFold(k, name) {
			return namedValue{k, v}, true
		}
	}
	return namedValue{}, false
}

// headerValue is a header value as an instance of its schema: a number where the schema
// wants one (a value that is none stays a string, and fails), else the string.
func headerValue(schema map[string]any, s string) any {
	if t, _ := schema["type"].(string); t == "integer" || t == "number" {
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return json.Number(s)
		}
	}
	return s
}

func escape(tok string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(tok)
}
