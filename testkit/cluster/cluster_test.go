package cluster_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/gigs/gigs/testkit/demo"
	"github.com/gigs/gigs/testkit/tools"
)

// freePorts returns a base port p with p, p+1, p+2 and p+100..p+102 free, and three
// more free ports.
func freePorts(t *testing.T) (base int, more [3]int) {
	free := func(p int) bool {
		ln, err := net.Listen("tcp", fmt.Sprint("127.0.0.1:", p))
		if err == nil {
			ln.Close()
		}
		return err == nil
	}
	for base = 20000 + os.Getpid()%20000; ; base += 7 {
		if free(base) && free(base+1) && free(base+2) && free(base+100) && free(base+101) && free(base+102) {
			break
		}
	}
	for i := range more {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		more[i] = ln.Addr().(*net.TCPAddr).Port
		defer ln.Close()
	}
	return base, more
}

// TestCluster runs cluster.sh as make cluster does, on free ports: the demo is served
// through nginx from two followers; a client's 61st read in a minute is a 429 from nginx
// and from either follower; the followers and the publisher report one data_version.
// Then cluster.sh stop stops every process.
func TestCluster(t *testing.T) {
	for _, name := range []string{"redis-server", "redis-cli", "curl"} {
		tools.Need(t, name)
	}
	if _, err := os.Stat("/usr/sbin/nginx"); err != nil {
		tools.Need(t, "nginx")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	goCmd := os.Getenv("GO")
	if goCmd == "" {
		goCmd = "go"
	}
	if out, err := exec.Command(goCmd, "build", "-o", bin+"/", "../../cmd/gigsd", "../../cmd/gigsctl").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	corpus := filepath.Join(dir, "demo")
	if _, err := demo.Generate(corpus, demo.Options{Today: time.Now().UTC(), Seed: 1}); err != nil {
		t.Fatal(err)
	}
	base, more := freePorts(t)
	env := append(os.Environ(), "DIR="+filepath.Join(dir, "cluster"), "DEMO="+corpus, "BIN="+bin,
		fmt.Sprint("BASE=", base), fmt.Sprint("REDIS_PORT=", more[0]), fmt.Sprint("LISTEN=", more[1]),
		fmt.Sprint("FIXTURE=127.0.0.1:", more[2]), "GIGS_STALL=50ms")
	script := func(arg string) ([]byte, error) {
		cmd := exec.Command("./cluster.sh", arg)
		cmd.Env = env
		return cmd.CombinedOutput()
	}
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			script("stop")
		}
	})
	if out, err := script("start"); err != nil {
		logs, _ := filepath.Glob(filepath.Join(dir, "cluster", "*.log"))
		for _, l := range logs {
			b, _ := os.ReadFile(l)
			t.Logf("%s:\n%s", l, b)
		}
		t.Fatalf("cluster.sh start: %v\n%s", err, out)
	}
	get := func(port int, path string) (int, []byte) {
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d%s", port, path))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, body
	}
	versions := map[string]bool{}
	for _, port := range []int{base, base + 1, base + 2} {
		var meta struct {
			Data struct {
				DataVersion string `json:"data_version"`
			} `json:"data"`
		}
		code, body := get(port, "/v1/meta")
		if err := json.Unmarshal(body, &meta); code != 200 || err != nil {
			t.Fatalf("/v1/meta on :%d: %d %s", port, code, body)
		}
		versions[meta.Data.DataVersion] = true
	}
	if len(versions) != 1 {
		t.Fatalf("the publisher and the followers serve data versions %v", versions)
	}
	// Through nginx: four reads were spent above, by this same client (127.0.0.1).
	for i := 5; i <= 60; i++ {
		if code, body := get(more[1], "/v1/gigs?page_size=1"); code != 200 {
			t.Fatalf("read %d through nginx: %d %s", i, code, body)
		}
	}
	for _, port := range []int{more[1], base + 1, base + 2} {
		if code, _ := get(port, "/v1/gigs"); code != 429 {
			t.Fatalf("the 61st read, on :%d: %d, want 429", port, code)
		}
	}
	out, err := script("stop")
	stopped = true
	if err != nil {
		t.Fatalf("cluster.sh stop: %v\n%s", err, out)
	}
	time.Sleep(500 * time.Millisecond)
	for _, port := range []int{base, base + 1, base + 2, more[0], more[1]} {
		if c, err := net.DialTimeout("tcp", fmt.Sprint("127.0.0.1:", port), time.Second); err == nil {
			c.Close()
			t.Errorf("port %d still answers after cluster.sh stop", port)
		}
	}
}
