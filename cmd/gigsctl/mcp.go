package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	_ "time/tzdata" // whats_on reads the places' zones; they must resolve without a zoneinfo database

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gigs/gigs/cmd/internal/flagenv"
	"github.com/gigs/gigs/server/mcp"
)

// mcpCmd runs "gigsctl mcp -api URL": the MCP tools of package server/mcp over stdio,
// for a desktop agent that starts it, each tool reading the gigs API at URL over HTTP.
// It serves until stdin ends (the agent quits) or a signal. Nothing but the protocol
// goes to stdout; warnings go to stderr.
func mcpCmd(args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gigsctl mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	api := fs.String("api", "http://127.0.0.1:8080", "the gigs API the tools read: its root URL, without /v1")
	fs.Usage = flagenv.Usage(fs, "usage: gigsctl mcp [flags]\n\nServes gigs's MCP tools over stdio for a desktop agent (see docs/agents.md).")
	if err := flagenv.Parse(fs, args, getenv); err != nil {
		return err
	}
	reader, err := mcp.NewHTTPReader(*api)
	if err != nil {
		return fmt.Errorf("-api: %w", err)
	}
	srv, err := mcp.NewServer(mcp.Options{Reader: reader, Version: "gigsctl",
		Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return srv.Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout},
		MaxLineLength: mcp.MaxRequest})
}

// nopWriteCloser is a Writer whose Close does nothing: stdout stays gigsctl's.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
