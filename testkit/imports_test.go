package testkit

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/gigs/gigs/"

// rooms lists, for each room of the module (the longest prefix wins), the rooms its
// packages may import, besides their own room: dependencies point down, never up, and no
// production room reaches the harness (testkit) or the bench. Test files may import
// anything but cmd.
//
// The concepts of keys and limits are rooms of their own, which never import their
// backend (server/redis) nor the server: the backend imports them.
var rooms = map[string][]string{
	"engine":          {"engine/internal"},
	"engine/internal": nil, // codecs, checksums, file formats: they know nothing of gigs
	"engine/replica":  {"engine"},
	"loader":          {"engine"},
	"server":          {"engine", "server/keys", "server/limit", "server/mcp", "server/openapi"},
	"server/mcp":      {"engine", "server/openapi"}, // the MCP tools over any reader of the API
	"server/openapi":  nil,
	"server/keys":     {"engine"},
	"server/limit":    nil,
	"server/redis":    {"server/keys", "server/limit"},
	"cmd/internal":    {"engine", "loader"},
	"cmd/gigsd":       {"cmd/internal", "engine", "engine/replica", "loader", "server", "server/keys", "server/limit", "server/redis"},
	"cmd/gigsctl":     {"cmd/internal", "engine", "loader", "server", "server/keys", "server/mcp", "server/redis", "testkit"},
	"testkit":         {"engine", "engine/replica", "loader", "server", "server/keys", "server/limit", "server/redis"},
	"bench":           {"engine", "engine/replica", "loader", "server", "server/keys", "server/limit", "server/redis", "testkit"},
}

// engineModules are the only modules beyond the standard library that the engine and its
// internal packages use (engine/replica, a room of its own, also uses gocloud.dev and
// prometheus).
var engineModules = []string{"github.com/RoaringBitmap/roaring", "github.com/goccy/go-json", "github.com/cespare/xxhash",
	"github.com/klauspost/compress", "github.com/klauspost/pgzip", "golang.org/x/text"}

type pkg struct {
	ImportPath, Dir      string
	Imports, TestImports []string
	XTestImports, Deps   []string
	Standard             bool
}

func list(t *testing.T, args ...string) []pkg {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-json"}, args...)...)
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v", args, err)
	}
	var pkgs []pkg
	for dec := json.NewDecoder(bytes.NewReader(out)); dec.More(); {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// room returns the room of a module package path, "" for a path outside the module.
func room(path string) string {
	rel, ok := strings.CutPrefix(path, module)
	if !ok {
		return ""
	}
	best := ""
	for r := range rooms {
		if (rel == r || strings.HasPrefix(rel, r+"/")) && len(r) > len(best) {
			best = r
		}
	}
	if best == "" {
		return rel
	}
	return best
}

func TestImportRules(t *testing.T) {
	for _, p := range list(t, "./...") {
		from := room(p.ImportPath)
		allowed, known := rooms[from]
		if !known {
			t.Errorf("%s is in no room of the architecture", p.ImportPath)
			continue
		}
		for _, imp := range p.Imports {
			to := room(imp)
			if to != "" && to != from && !slices.Contains(allowed, to) {
				t.Errorf("%s imports %s: %s may not import %s", p.ImportPath, imp, from, to)
			}
			if (from == "engine" || from == "engine/internal") && to == "" && strings.Contains(strings.Split(imp, "/")[0], ".") &&
				!slices.ContainsFunc(engineModules, func(m string) bool { return strings.HasPrefix(imp, m) }) {
				t.Errorf("%s imports %s: the engine uses only %v", p.ImportPath, imp, engineModules)
			}
		}
		for _, imp := range append(p.TestImports, p.XTestImports...) {
			if room(imp) == "cmd/gigsd" || room(imp) == "cmd/gigsctl" {
				t.Errorf("tests of %s import %s", p.ImportPath, imp)
			}
		}
	}
}

// TestGigsdHasNoHarness: nothing gigsd is built from is test harness or bench code.
func TestGigsdHasNoHarness(t *testing.T) {
	pkgs := list(t, "./cmd/gigsd")
	if len(pkgs) != 1 || len(pkgs[0].Deps) < 10 {
		t.Fatalf("go list ./cmd/gigsd: %+v", pkgs)
	}
	for _, d := range pkgs[0].Deps {
		if r := room(d); r == "testkit" || r == "bench" || strings.HasSuffix(d, "test") && strings.HasPrefix(d, module) {
			t.Errorf("gigsd depends on %s (%s)", d, r)
		}
	}
}
