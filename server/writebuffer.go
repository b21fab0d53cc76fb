package server

// WriteBufferSize is the size of each connection's write buffer (fasthttp's
// WriteBufferSize), which a response's status line, headers and body fill before they go
// to the socket: a response that fits is written with one system call, a larger one with
// two or more. It holds a default page of gigs with its headers twice over: 20 gigs of
// some 800 bytes at a million gigs (a large catalogue's venue and artist slugs and names
// are longer) and about 1 KiB of headers made 16.5 KB, past the 16 KiB this was, so that
// the page took two writes at 1M gigs where it took one at 10k (docs/bench.md).
// TestPageOneWrite holds it. A connection keeps its buffer from its first response until
// it closes (docs/operations.md: what -max-conns connections hold).
const WriteBufferSize = 32 << 10
