package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/server/openapi"
	"github.com/gigs/gigs/testkit/tools"
)

// TestDocsPageRenders opens gigsd's /docs in headless Chromium with every host but
// loopback unresolvable, and checks that the bundled renderer drew every operation of the
// document. It saves a screenshot to $GIGS_ARTIFACTS/docs.png (var/artifacts by default).
func TestDocsPageRenders(t *testing.T) {
	chromium := tools.Need(t, "chromium")
	m := runDemo(t, "-admin-addr", "")
	a := m.Addr()
	url := "http://" + a.String() + "/docs"

	browse := func(mode ...string) []byte {
		args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
			"--user-data-dir=" + t.TempDir(),
			// No network: every name but the loopback address fails to resolve.
			"--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
			"--window-size=1280,1000", "--virtual-time-budget=20000"}, mode...)
		cmdCtx, stop := context.WithTimeout(t.Context(), 90*time.Second)
		defer stop()
		var stderr bytes.Buffer
		cmd := exec.CommandContext(cmdCtx, chromium, append(args, url)...)
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("chromium %v: %v\n%s", mode, err, stderr.String())
		}
		return out
	}

	dom := string(browse("--dump-dom"))
	var doc struct {
		Info  struct{ Title string }
		Paths map[string]map[string]json.RawMessage
	}
	if err := json.Unmarshal(openapi.Document, &doc); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(dom, "Download OpenAPI specification") { // Redoc's words, not the page's
		t.Errorf("Redoc did not render the document:\n%.2000s", dom)
	}
	operations := 0
	for path, item := range doc.Paths {
		for method, raw := range item {
			var op struct{ Summary string }
			if json.Unmarshal(raw, &op) != nil || op.Summary == "" {
				continue
			}
			operations++
			if !strings.Contains(dom, htmlEscape(op.Summary)) {
				t.Errorf("the page does not show %s %s (%q)", strings.ToUpper(method), path, op.Summary)
			}
		}
	}
	if operations < 10 {
		t.Errorf("only %d operations with a summary in the document", operations)
	}

	shots := os.Getenv("GIGS_ARTIFACTS")
	if shots == "" {
		shots = filepath.Join("..", "..", "var", "artifacts")
	}
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	shot, _ := filepath.Abs(filepath.Join(shots, "docs.png"))
	browse("--screenshot=" + shot)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	colours := map[[3]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 8, g >> 8, bl >> 8}] = true
		}
	}
	if b.Dx() != 1280 || len(colours) < 20 {
		t.Errorf("screenshot %v with %d colours: blank?", b, len(colours))
	}
	t.Logf("screenshot saved to %s", shot)
}

// htmlEscape escapes text as it appears in the DOM Chromium dumps.
func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
