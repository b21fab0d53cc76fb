package main

import (
	"encoding/json"
	"net/http"
	"os"
	"time"

	"github.com/valyala/fasthttp"
)

// ceilingResponse is the response the ceiling server repeats: gigsd's own headers and body
// for the measured page.
type ceilingResponse struct {
	Header map[string]string
	Body   []byte
}

// writeCeiling saves a gigsd response for the ceiling server, without the headers the
// server writes itself.
func writeCeiling(path string, h http.Header, body []byte) error {
	c := ceilingResponse{Header: map[string]string{}, Body: body}
	for k := range h {
		switch k {
		case "Date", "Content-Length", "Connection":
		default:
			c.Header[k] = h.Get(k)
		}
	}
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// serveCeiling is the ceiling: the least a fasthttp server can do to give the same
// answer, with the same buffer sizes as gigsd. It serves until killed.
func serveCeiling(path, addr string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var c ceilingResponse
	if err := json.Unmarshal(b, &c); err != nil {
		return err
	}
	srv := &fasthttp.Server{
		Handler: func(ctx *fasthttp.RequestCtx) {
			for k, v := range c.Header {
				ctx.Response.Header.Set(k, v)
			}
			ctx.Response.SetBodyRaw(c.Body)
		},
		ReadTimeout:           10 * time.Second,
		WriteBufferSize:       16 << 10,
		NoDefaultServerHeader: true,
		NoDefaultContentType:  true,
	}
	return srv.ListenAndServe(addr)
}
