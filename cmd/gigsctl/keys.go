package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/mail"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/gigs/gigs/cmd/internal/flagenv"
	"github.com/gigs/gigs/server/keys"
	"github.com/gigs/gigs/server/redis"
)

const keysUsage = `usage: gigsctl keys <command> [flags]

Commands:
  init                            create the key store (needed once with -redis; a key
                                  directory is created by any command)
  create -owner EMAIL -use TEXT   issue a key; it is printed once and never again
  list                            every key: id, owner, use, created, last used, state
  show ID                         one key in full
  revoke ID [-reason TEXT]        revoke a key for good

Every command takes -data-dir (env GIGS_DATA_DIR, default var/data): the directory of the
key store that gigsd -data-dir reads; or -redis URL (env GIGS_REDIS): the Redis server
where gigsd -redis replicas share their keys. list, show and revoke need a store there
already (gigsd makes one at its first start; init or create make one). -owner, -use and
-reason can also be set by GIGS_OWNER, GIGS_USE and GIGS_REASON.`

func keysCmd(args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, keysUsage)
		return errors.New("no keys command")
	}
	fs := flag.NewFlagSet("gigsctl keys "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("data-dir", "var/data", "directory of the key store")
	redisURL := fs.String("redis", "", "Redis URL of the key store that gigsd -redis replicas share (instead of -data-dir)")
	owner := fs.String("owner", "", "create: the key holder's e-mail address")
	use := fs.String("use", "", "create: what the key is for")
	reason := fs.String("reason", "revoked by the operator", "revoke: why, shown to the key's user")
	fs.Usage = func() { fmt.Fprintln(stderr, keysUsage) }
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "init", "create", "list", "show", "revoke":
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(stdout, keysUsage)
		return nil
	default:
		fmt.Fprintln(stderr, keysUsage)
		return fmt.Errorf("unknown keys command %q", cmd)
	}
	var id string
	if (cmd == "show" || cmd == "revoke") && len(rest) > 0 && rest[0] != "" && rest[0][0] != '-' {
		id, rest = rest[0], rest[1:]
	}
	if err := flagenv.Parse(fs, rest, getenv); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	store, err := openKeyStore(*dir, *redisURL, cmd == "init" || cmd == "create" && *redisURL == "", stderr)
	if err != nil {
		return err
	}
	now := time.Now()
	switch cmd {
	case "init":
		fmt.Fprintln(stdout, "the key store is ready")
	case "create":
		if _, err := mail.ParseAddress(*owner); err != nil {
			return fmt.Errorf("-owner must be an e-mail address: %w", err)
		}
		key, rec, err := store.Create(*owner, *use, now)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "created %s for %s (%s).\nThe key, shown this once; send it as the X-API-Key header:\n\n%s\n", rec.ID, rec.Owner, rec.Use, key)
	case "list":
		recs, err := store.Read()
		if err != nil {
			return err
		}
		w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tOWNER\tUSE\tCREATED\tLAST USED\tSTATE")
		for _, r := range recs {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Owner, r.Use, day(r.Created), day(r.LastUsed), r.State())
		}
		return w.Flush()
	case "show", "revoke":
		if id == "" {
			return fmt.Errorf("%s needs a key id (see gigsctl keys list)", cmd)
		}
		rec, err := store.Find(id)
		if cmd == "revoke" {
			rec, err = store.Revoke(id, *reason, now)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "id:         %s\nowner:      %s\nuse:        %s\ncreated:    %s\nlast used:  %s\nstate:      %s\n",
			rec.ID, rec.Owner, rec.Use, stamp(rec.Created), stamp(rec.LastUsed), rec.State())
		if rec.State() == "revoked" {
			fmt.Fprintf(stdout, "revoked:    %s (%s)\n", stamp(rec.Revoked), rec.Reason)
		}
	}
	return nil
}

func day(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.UTC().Format(time.DateOnly)
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.UTC().Format(time.RFC3339)
}

// openKeyStore opens the key store in Redis when redisURL is set, else in dir; create
// makes a store where there is none (and says so on stderr for a directory). Only init
// creates one in Redis, and only init and create in a directory: a Redis that lost its data,
// or a mistyped -data-dir, is an error for every other command, not a new, empty store whose
// secret would make every key issued before unknown.
func openKeyStore(dir, redisURL string, create bool, stderr io.Writer) (keys.Store, error) {
	if redisURL == "" {
		_, err := os.Stat(filepath.Join(dir, "keys.json"))
		switch {
		case err == nil:
		case !errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("cannot read the key store: %w", err)
		case !create:
			return nil, fmt.Errorf("no key store in %q (-data-dir, %s): gigsd -data-dir makes one at its first start, gigsctl keys init or create here", dir, flagenv.Name("data-dir"))
		default:
			fmt.Fprintf(stderr, "gigsctl: a new key store in %q\n", dir)
		}
		return keys.Open(dir)
	}
	c, err := redis.Dial(redisURL)
	if err != nil {
		return nil, fmt.Errorf("-redis: %w", err)
	}
	return redis.OpenKeyStore(c, create)
}
