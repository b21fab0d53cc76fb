// Command gigsctl is the operator's tool for gigs.
//
//	gigsctl demo -out DIR [-seed N] [-today YYYY-MM-DD] [-revision N]
//	    writes the demo corpus: venue sites, platform listings and a sources.json for gigsd.
//	gigsctl dataset -gigs N -out FILE [-seed N] [-today YYYY-MM-DD]
//	    writes a synthetic dataset file for gigsd -dataset, as the bench suite does.
//	gigsctl fixture -dir DIR [-listen HOST:PORT] [-stall D] [-- COMMAND...]
//	    serves the demo corpus as hundreds of upstream hosts, for gigsd's -fetch-proxy.
//	gigsctl keys create|list|show|revoke
//	    issues and manages personal API keys in the store gigsd reads.
//	gigsctl sources check -sources FILE [NAME...]
//	    fetches sources once and prints what each yields, what it dropped and why.
//	gigsctl sources add [-sources FILE] [-venue "NAME, CITY, CC"] [-write] [-json] [-from FILE] URL...
//	    finds a venue site's feed, previews its gigs and adds it to the sources file.
//	gigsctl sources list -sources FILE [-admin HOST:PORT], gigsctl sources remove -sources FILE NAME...
//	    lists the sources with their health in a running gigsd; takes sources out.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/gigs/gigs/cmd/internal/flagenv"
	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/engine/atomicfile"
	"github.com/gigs/gigs/testkit/demo"
	"github.com/gigs/gigs/testkit/scale"
)

const usage = `usage: gigsctl <command> [flags]

Commands:
  demo    write the demo corpus (venue sites, platform listings, sources.json) for gigsd -sources
  dataset write a synthetic dataset file for gigsd -dataset
  fixture serve the demo corpus as its hundreds of hosts, for gigsd -fetch-proxy
  keys    issue, list, show and revoke personal API keys
  sources check [NAME...]   fetch sources once and print what they yield and drop
  sources add URL...        find a venue site's feed, preview its gigs, -write adds it
  sources list|remove       list the sources (with gigsd's health), take sources out

Run 'gigsctl <command> -h' for a command's flags.`

func main() {
	err := run(os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	code := exitCode(err)
	if code == 2 {
		fmt.Fprintln(os.Stderr, "gigsctl:", err)
	}
	os.Exit(code)
}

// exitCode is the status gigsctl exits with after err: 0 for none (or -h), the command's
// own status when the command gigsctl fixture ran failed (128 plus the signal that killed
// it), and 2 for any other error.
func exitCode(err error) int {
	var exit *exec.ExitError
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &exit):
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return exit.ExitCode()
	}
	return 2
}

func run(args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return errors.New("no command")
	}
	switch args[0] {
	case "demo":
		return demoCmd(args[1:], getenv, stdout, stderr)
	case "dataset":
		return datasetCmd(args[1:], getenv, stdout, stderr)
	case "fixture":
		return fixtureCmd(args[1:], getenv, stdout, stderr)
	case "keys":
		return keysCmd(args[1:], getenv, stdout, stderr)
	case "sources":
		return sourcesCmd(args[1:], getenv, stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(stdout, usage)
		return nil
	}
	fmt.Fprintln(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

func demoCmd(args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gigsctl demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "var/demo", "directory to write the corpus into")
	seed := fs.Uint64("seed", 1, "random seed; the same seed and day give the same files")
	today := fs.String("today", "", "the day the corpus is for, YYYY-MM-DD (default: today in UTC)")
	revision := fs.Int("revision", 0, "0: the corpus as first fetched; 1: the same sources an hour later (edits, reschedules, cancellations)")
	fs.Usage = flagenv.Usage(fs, "usage: gigsctl demo [flags]\n\nWrites a demo corpus of venue websites with dates relative to a day.")
	if err := flagenv.Parse(fs, args, getenv); err != nil {
		return err
	}
	day, err := parseToday(*today)
	if err != nil {
		return err
	}
	sum, err := demo.Generate(*out, demo.Options{Today: day, Seed: *seed, Revision: *revision})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %d venues in %d cities in %d countries, %d gigs (%d upcoming, %d cancelled, %d postponed, %d rescheduled, %d with time to be announced)\n",
		*out, sum.Venues, sum.Cities, sum.Countries, sum.Gigs, sum.Upcoming, sum.Cancelled, sum.Postponed, sum.Rescheduled, sum.TimeTBA)
	return nil
}

// parseToday reads a -today flag: YYYY-MM-DD, or today in UTC when empty.
func parseToday(v string) (time.Time, error) {
	if v == "" {
		return time.Now().UTC(), nil
	}
	day, err := time.Parse(time.DateOnly, v)
	if err != nil {
		return day, fmt.Errorf("-today: want YYYY-MM-DD, got %q", v)
	}
	return day, nil
}

// datasetCmd runs "gigsctl dataset": it writes a synthetic dataset (package
// testkit/scale) to a file gigsd -dataset serves.
func datasetCmd(args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gigsctl dataset", flag.ContinueOnError)
	fs.SetOutput(stderr)
	gigs := fs.Int("gigs", 10000, "number of gigs")
	out := fs.String("out", "var/dataset", "file to write")
	seed := fs.Uint64("seed", 1, "random seed; the same seed, size and day give the same dataset")
	today := fs.String("today", "", "the day the gigs start from, YYYY-MM-DD (default: today in UTC)")
	fs.Usage = flagenv.Usage(fs, "usage: gigsctl dataset [flags]\n\nWrites a synthetic dataset of gigs over a year for gigsd -dataset: for benchmarks.")
	if err := flagenv.Parse(fs, args, getenv); err != nil {
		return err
	}
	if *gigs < 1 {
		return fmt.Errorf("-gigs must be at least 1, not %d", *gigs)
	}
	day, err := parseToday(*today)
	if err != nil {
		return err
	}
	ds := scale.Generate(scale.Config{Gigs: *gigs, Seed: *seed, Now: day})
	if err := writeDataset(*out, ds); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %d gigs, %d venues, %d artists\n", *out, len(ds.Gigs), len(ds.Venues), len(ds.Artists))
	return nil
}

// writeDataset writes ds to the file at path, whole or not at all.
func writeDataset(path string, ds *engine.Dataset) error {
	var buf bytes.Buffer
	if err := engine.WriteDataset(&buf, ds); err != nil {
		return err
	}
	return atomicfile.Write(path, buf.Bytes(), 0o644)
}
