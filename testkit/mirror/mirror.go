// Package mirror is a consumer of the API that keeps a copy of the listings as
// docs/api.md ("Keeping a mirror") tells one to: the export once, then the change feed.
// Tests use it to prove that such a copy stays equal to a fresh export.
package mirror

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"strconv"
)

// Mirror is the copy: every gig's body by id, and the cursor it is current to.
type Mirror struct {
	// Get requests a path of the API with headers and returns the status and the body
	// (decompressed, when the answer was compressed).
	Get    func(path string, header map[string]string) (int, []byte)
	Key    string // an export key
	Gigs   map[string]json.RawMessage
	Cursor string
	Pages  int // change pages read
}

// Over returns a Get that requests paths of the API at base (such as
// "http://127.0.0.1:8080") with the default HTTP client; a request that fails has status 0
// and its error as the body.
func Over(base string) func(path string, header map[string]string) (int, []byte) {
	return func(path string, header map[string]string) (int, []byte) {
		req, err := http.NewRequest("GET", base+path, nil)
		if err != nil {
			return 0, []byte(err.Error())
		}
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, []byte(err.Error())
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return 0, []byte(err.Error())
		}
		return resp.StatusCode, body
	}
}

// Export downloads the export: every gig by id, and the cursor it is current to.
func (m *Mirror) Export() (map[string]json.RawMessage, string, error) {
	status, body := m.Get("/v1/gigs/download", map[string]string{"X-API-Key": m.Key})
	var export struct {
		Data []json.RawMessage
		Meta struct{ Cursor string }
	}
	if err := json.Unmarshal(body, &export); err != nil || status != 200 {
		return nil, "", fmt.Errorf("export: %d %v %.300s", status, err, body)
	}
	gigs := make(map[string]json.RawMessage, len(export.Data))
	for _, g := range export.Data {
		var id struct{ ID string }
		if err := json.Unmarshal(g, &id); err != nil {
			return nil, "", err
		}
		gigs[id.ID] = g
	}
	return gigs, export.Meta.Cursor, nil
}

// Start makes the mirror a fresh export.
func (m *Mirror) Start() error {
	var err error
	m.Gigs, m.Cursor, err = m.Export()
	return err
}

// Follow applies the change feed from the mirror's cursor, limit changes a page, until no
// more follow, and returns how many changes of each kind it applied.
func (m *Mirror) Follow(limit int) (map[string]int, error) {
	applied := map[string]int{}
	for {
		status, body := m.Get("/v1/changes?since="+url.QueryEscape(m.Cursor)+"&limit="+strconv.Itoa(limit), nil)
		var page struct {
			Data []struct {
				Change string
				ID     string
				Gig    json.RawMessage
			}
			Meta struct {
				Cursor  string
				HasMore bool `json:"has_more"`
			}
		}
		if err := json.Unmarshal(body, &page); err != nil || status != 200 {
			return applied, fmt.Errorf("changes since %s: %d %v %.300s", m.Cursor, status, err, body)
		}
		m.Pages++
		for _, c := range page.Data {
			if c.Change == "removed" {
				delete(m.Gigs, c.ID)
			} else {
				m.Gigs[c.ID] = c.Gig
			}
			applied[c.Change]++
		}
		m.Cursor = page.Meta.Cursor
		if !page.Meta.HasMore {
			return applied, nil
		}
	}
}

// Check downloads a fresh export and compares the mirror with it: the same cursor, and the
// same gigs byte for byte. It reports stale when the export is at another cursor (a
// refresh came between), which calls for following again.
func (m *Mirror) Check() (stale bool, err error) {
	fresh, cursor, err := m.Export()
	switch {
	case err != nil:
		return false, err
	case cursor != m.Cursor:
		return true, nil
	case !maps.EqualFunc(fresh, m.Gigs, func(a, b json.RawMessage) bool { return string(a) == string(b) }):
		return false, fmt.Errorf("at cursor %s the mirror (%d gigs) differs from a fresh export (%d gigs)", cursor, len(m.Gigs), len(fresh))
	}
	return false, nil
}
