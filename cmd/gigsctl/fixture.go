package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/gigs/gigs/cmd/internal/flagenv"
	"github.com/gigs/gigs/testkit/fixture"
)

// fixtureCmd runs "gigsctl fixture [-- COMMAND...]": it serves a demo corpus, as plain server
// and HTTP forward proxy for every host of the corpus (see package fixture), until
// interrupted or, with a command, until the command exits.
func fixtureCmd(args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gigsctl fixture", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "var/demo", "the corpus directory, as written by gigsctl demo")
	addr := fs.String("listen", "127.0.0.1:8079", "listen address; gigsd's -fetch-proxy points here (not -addr, whose GIGS_ADDR is gigsd's)")
	stall := fs.Duration("stall", fixture.DefaultStall, "how long the corpus's stalling sites hold a request")
	fs.Usage = flagenv.Usage(fs, "usage: gigsctl fixture [flags] [-- COMMAND [ARG...]]\n\n"+
		"Serves a demo corpus: hundreds of venue sites and three ticketing platforms, told apart by\n"+
		"the Host header, with the corpus's faults. With a command, starts it once the server\n"+
		"listens, with the credentials of DIR/demo.env and GIGS_FETCH_PROXY=http://ADDR added to\n"+
		"its environment, and serves until it exits. The admin host fixture.test takes sites down\n"+
		"and up again: curl -x http://ADDR -X POST http://fixture.test/down/<host>")
	if err := flagenv.Parse(fs, args, getenv); err != nil {
		return err
	}
	srv, env, err := fixture.OpenDemo(*dir, fixture.Options{Stall: *stall})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %q: %w", *addr, err)
	}
	fmt.Fprintf(stderr, "gigsctl fixture: serving %s on %s (admin host fixture.test)\n", *dir, ln.Addr())
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		hs.Shutdown(ctx) // stalled requests are cut off when it gives up
		hs.Close()
	}()

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(signals)
	if fs.NArg() == 0 {
		select {
		case <-signals:
			return nil
		case err := <-served:
			return err
		}
	}
	cmd := exec.Command(fs.Arg(0), fs.Args()[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	cmd.Env = os.Environ()
	for _, k := range slices.Sorted(maps.Keys(env)) {
		cmd.Env = append(cmd.Env, k+"="+env[k])
	}
	cmd.Env = append(cmd.Env, "GIGS_FETCH_PROXY=http://"+ln.Addr().String())
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("cannot start %q: %w", fs.Arg(0), err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for {
		select {
		case sig := <-signals:
			cmd.Process.Signal(sig) // the command shuts down in its own time; we serve until it has
		case err := <-exited:
			return err
		case err := <-served:
			cmd.Process.Kill()
			<-exited
			return errors.Join(errors.New("the fixture server stopped"), err)
		}
	}
}
