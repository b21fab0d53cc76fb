package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// wrkResult is what one wrk run measured.
type wrkResult struct {
	Requests    int
	ReqPerSec   float64
	BytesPerSec float64       // transfer on the wire
	P50, P99    time.Duration // latency percentiles
	Non2xx      int           // non-2xx or 3xx answers
	SocketErrs  int           // connect, read, write errors and timeouts
}

// wrkRun is one load run: wrk with one thread and conns connections pinned to cpu, for
// dur, on url, with a Lua script (mixScript) reading the paths in paths (one per line)
// when paths is not empty, optional request headers, and a per-connection delay between
// requests (zero for none) to hold the load below the peak.
type wrkRun struct {
	URL     string
	Paths   string
	Headers []string
	Conns   int
	Dur     time.Duration
	Delay   time.Duration
	CPU     int
}

// noMemo is the request header of the runs that measure a query run for every request:
// gigsd's page memo neither answers nor keeps a request that asks for no stored answer.
const noMemo = "Cache-Control: no-cache"

// mixScript sends the paths of a file (the script's first argument) in turn, or the URL's
// own path when there is none.
const mixScript = `
local paths, i, pause = {}, 0, 0
function init(args)
  if args[1] and args[1] ~= "" then
    for line in io.lines(args[1]) do paths[#paths + 1] = line end
  end
  pause = tonumber(args[2] or "0")
end
function request()
  if #paths == 0 then return wrk.format(nil) end
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
`

// delayScript adds a wait of the script's second argument (milliseconds) between a
// connection's requests; wrk times every request when the function exists, so it is only
// there when wanted.
const delayScript = `
function delay()
  return pause
end
`

// command returns the wrk command line of the run, for the report and for exec.
func (r wrkRun) command(script string) []string {
	args := []string{"taskset", "-c", strconv.Itoa(r.CPU), "wrk", "-t1", "-c" + strconv.Itoa(r.Conns), "-d" + durationArg(r.Dur), "--latency", "--timeout", "10s"}
	for _, h := range r.Headers {
		args = append(args, "-H", h)
	}
	args = append(args, "-s", script, r.URL, "--", r.Paths, strconv.FormatFloat(float64(r.Delay.Microseconds())/1e3, 'f', 3, 64))
	return args
}

// shellJoin quotes args for a shell where they need it, so that a reported command can be
// pasted.
func shellJoin(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if a == "" || strings.ContainsAny(a, " &?;|'\"$*<>()") {
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}

func durationArg(d time.Duration) string { return strconv.Itoa(int(d.Seconds())) + "s" }

// run runs wrk and parses its report.
func (r wrkRun) run(ctx context.Context, work string) (wrkResult, string, error) {
	script, text := filepath.Join(work, "mix.lua"), mixScript
	if r.Delay > 0 {
		script, text = filepath.Join(work, "mix-delay.lua"), mixScript+delayScript
	}
	if err := os.WriteFile(script, []byte(text), 0o644); err != nil {
		return wrkResult{}, "", err
	}
	args := r.command(script)
	out, err := exec.CommandContext(ctx, args[0], args[1:]...).CombinedOutput()
	cmdline := shellJoin(args)
	if err != nil {
		return wrkResult{}, cmdline, fmt.Errorf("%s: %w\n%s", cmdline, err, out)
	}
	res, err := parseWrk(string(out))
	if err != nil {
		return res, cmdline, fmt.Errorf("%s: %w\n%s", cmdline, err, out)
	}
	return res, cmdline, nil
}

var (
	wrkRequests = regexp.MustCompile(`(\d+) requests in`)
	wrkRate     = regexp.MustCompile(`Requests/sec:\s+([\d.]+)`)
	wrkTransfer = regexp.MustCompile(`Transfer/sec:\s+([\d.]+)([KMGT]?B)`)
	wrkPct      = regexp.MustCompile(`(?m)^\s+(50|99)%\s+([\d.]+)(us|ms|s)\s*$`)
	wrkNon2xx   = regexp.MustCompile(`Non-2xx or 3xx responses: (\d+)`)
	wrkSocket   = regexp.MustCompile(`Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)`)
)

// parseWrk reads the report wrk prints with --latency.
func parseWrk(out string) (wrkResult, error) {
	var r wrkResult
	m := wrkRate.FindStringSubmatch(out)
	if m == nil {
		return r, fmt.Errorf("no Requests/sec in wrk's output")
	}
	r.ReqPerSec, _ = strconv.ParseFloat(m[1], 64)
	if m := wrkRequests.FindStringSubmatch(out); m != nil {
		r.Requests, _ = strconv.Atoi(m[1])
	}
	if m := wrkTransfer.FindStringSubmatch(out); m != nil {
		v, _ := strconv.ParseFloat(m[1], 64)
		r.BytesPerSec = v * map[string]float64{"B": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40}[m[2]]
	}
	for _, m := range wrkPct.FindAllStringSubmatch(out, -1) {
		v, _ := strconv.ParseFloat(m[2], 64)
		d := time.Duration(v * float64(map[string]time.Duration{"us": time.Microsecond, "ms": time.Millisecond, "s": time.Second}[m[3]]))
		if m[1] == "50" {
			r.P50 = d
		} else {
			r.P99 = d
		}
	}
	if r.P50 == 0 || r.P99 == 0 {
		return r, fmt.Errorf("no latency distribution in wrk's output")
	}
	if m := wrkNon2xx.FindStringSubmatch(out); m != nil {
		r.Non2xx, _ = strconv.Atoi(m[1])
	}
	if m := wrkSocket.FindStringSubmatch(out); m != nil {
		for _, s := range m[1:] {
			n, _ := strconv.Atoi(s)
			r.SocketErrs += n
		}
	}
	return r, nil
}
