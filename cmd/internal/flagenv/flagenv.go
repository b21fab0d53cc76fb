// Package flagenv gives every flag of a FlagSet an environment fallback: flag -max-stale
// reads GIGS_MAX_STALE when it is not on the command line.
package flagenv

import (
	"flag"
	"fmt"
	"net/netip"
	"strings"

	"github.com/gigs/gigs/loader/fetch"
)

// Prefix is put before every environment variable name.
const Prefix = "GIGS_"

// Name returns the environment variable for a flag name.
func Name(flagName string) string {
	return Prefix + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// Parse parses args into fs, then sets every flag not given on the command line from its
// environment variable, if getenv returns a non-empty value for it. A bad value in the
// environment is an error naming the variable.
func Parse(fs *flag.FlagSet, args []string, getenv func(string) string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if err != nil || given[f.Name] {
			return
		}
		if v := getenv(Name(f.Name)); v != "" {
			if e := fs.Set(f.Name, v); e != nil {
				err = fmt.Errorf("invalid value %q for %s: %w", v, Name(f.Name), e)
			}
		}
	})
	return err
}

// Usage returns a usage function that lists every flag with its environment variable.
func Usage(fs *flag.FlagSet, synopsis string) func() {
	return func() {
		w := fs.Output()
		fmt.Fprintf(w, "%s\n\nFlags (each can also be set by the environment variable shown):\n", synopsis)
		fs.VisitAll(func(f *flag.Flag) {
			name, usage := flag.UnquoteUsage(f)
			fmt.Fprintf(w, "  -%s %s\n    \t%s (env %s", f.Name, name, usage, Name(f.Name))
			if f.DefValue != "" {
				fmt.Fprintf(w, ", default %s", f.DefValue)
			}
			fmt.Fprintln(w, ")")
		})
	}
}

// Networks defines a flag holding comma-separated networks or addresses (10.0.0.0/8,
// 192.0.2.7, fd00::/8) in *list; each setting replaces the list.
func Networks(fs *flag.FlagSet, list *[]netip.Prefix, name, usage string) {
	fs.Func(name, usage, func(v string) error {
		*list = (*list)[:0]
		for _, f := range strings.Split(v, ",") {
			if f = strings.TrimSpace(f); f == "" {
				continue
			}
			p, err := fetch.ParseNetwork(f)
			if err != nil {
				return err
			}
			*list = append(*list, p)
		}
		return nil
	})
}
