package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/gigs/gigs/server"
	"github.com/valyala/fasthttp"
)

// ceilingResponse is one response the ceiling server repeats: gigsd's own status, headers
// and body for one request.
type ceilingResponse struct {
	Status int
	Header map[string]string
	Body   []byte
}

// ceilingAnswers are gigsd's answers by request URI (path and query), each recorded once.
type ceilingAnswers map[string]ceilingResponse

// add keeps a gigsd answer to uri, without the headers the server writes itself.
func (a ceilingAnswers) add(uri string, status int, h http.Header, body []byte) {
	c := ceilingResponse{Status: status, Header: map[string]string{}, Body: body}
	for k := range h {
		switch k {
		case "Date", "Content-Length", "Connection":
		default:
			c.Header[k] = h.Get(k)
		}
	}
	a[uri] = c
}

// recordAnswers asks gigsd at base once for each distinct URI of uris and keeps its
// answers: what a server that already knows every answer would send.
func recordAnswers(base string, uris []string) (ceilingAnswers, error) {
	a := ceilingAnswers{}
	for _, u := range uris {
		if _, ok := a[u]; ok {
			continue
		}
		status, body, h := get(base+u, nil)
		if status == 0 {
			return nil, fmt.Errorf("%s: no answer", u)
		}
		a.add(u, status, h, body)
	}
	return a, nil
}

// write saves the answers for the ceiling server.
func (a ceilingAnswers) write(path string) error {
	b, err := json.Marshal(a)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// writeCeiling saves gigsd's answer to uri for the ceiling server.
func writeCeiling(path, uri string, h http.Header, body []byte) error {
	a := ceilingAnswers{}
	a.add(uri, http.StatusOK, h, body)
	return a.write(path)
}

// serveCeiling is the ceiling: the least a fasthttp server can do to give the same
// answers, looked up by request URI, with the same buffer sizes as gigsd. A URI it has no
// answer for is a 404 with no body, but for /readyz, a 200 that tells the bench it
// listens. It serves until killed.
func serveCeiling(path, addr string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var a ceilingAnswers
	if err := json.Unmarshal(b, &a); err != nil {
		return err
	}
	srv := &fasthttp.Server{
		Handler: func(ctx *fasthttp.RequestCtx) {
			c, ok := a[string(ctx.RequestURI())]
			if !ok {
				if string(ctx.RequestURI()) != "/readyz" {
					ctx.SetStatusCode(fasthttp.StatusNotFound)
				}
				return
			}
			ctx.SetStatusCode(c.Status)
			for k, v := range c.Header {
				ctx.Response.Header.Set(k, v)
			}
			ctx.Response.SetBodyRaw(c.Body)
		},
		ReadTimeout:           10 * time.Second,
		WriteBufferSize:       server.WriteBufferSize,
		NoDefaultServerHeader: true,
		NoDefaultContentType:  true,
	}
	return srv.ListenAndServe(addr)
}
