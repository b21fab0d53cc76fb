package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/testkit/agent"
	"github.com/gigs/gigs/testkit/tools"
)

// TestInspectorCLI: the MCP Inspector's command-line mode, a client nobody here wrote,
// lists the tools of gigsd's /mcp and calls find_gigs, against gigsd serving the demo as
// make run does.
func TestInspectorCLI(t *testing.T) {
	inspector := tools.NeedInstalled(t, "inspector/node_modules/.bin/mcp-inspector")
	m := runDemo(t)
	waitFor(t, "gigsd to be ready", 60*time.Second, func() bool { return getStatus("http://"+m.AdminAddr().String()+"/readyz") == 200 })
	url := "http://" + m.Addr().String() + "/mcp"
	catalog := t.TempDir() + "/mcp.json"
	inspect := func(args ...string) []byte {
		ctx, stop := context.WithTimeout(t.Context(), 90*time.Second)
		defer stop()
		cmd := exec.CommandContext(ctx, inspector, append([]string{"--cli", url, "--transport", "http"}, args...)...)
		cmd.Env = append(cmd.Environ(), "MCP_CATALOG_PATH="+catalog, "NO_COLOR=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("mcp-inspector %v: %v\n%s\n%s", args, err, out, stderr.String())
		}
		return out
	}

	var list struct{ Tools []struct{ Name string } }
	if err := json.Unmarshal(inspect("--method", "tools/list"), &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, agent.Tools) {
		t.Errorf("the Inspector lists %v, want %v", names, agent.Tools)
	}

	out := inspect("--method", "tools/call", "--tool-name", "find_gigs", "--tool-arg", "page_size=3")
	var res struct {
		Content           []struct{ Text string }
		StructuredContent struct {
			Data []struct{ ID string }
			Meta struct{ Total int }
		}
		IsError bool
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if res.IsError || len(res.StructuredContent.Data) != 3 || len(res.Content) != 1 ||
		strings.Count(res.Content[0].Text, " · id ") != 3 || !strings.Contains(res.Content[0].Text, "cursor") {
		t.Errorf("find_gigs page_size=3 through the Inspector:\n%s", out)
	}
}
