package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// defaultGCPercent is the collector's GOGC while no refresh runs, unless the operator
// sets GOGC: the heap may grow a tenth over what is live before a collection. The served
// snapshot is most of what is live and holds almost no pointers, so a collection costs
// little, and resident memory stays near the snapshot's size. Queries that intersect or
// unite large postings allocate roaring containers, tens of kilobytes each: under the
// bench's mix at a million gigs (about 400 MB a second), resident memory grew from 1,458 to
// 1,814 MB at 25 and from 1,483 to 1,630 MB at 10, at the same throughput (three runs of
// 8 s each: 9.0k to 10.5k req/s at 25, 11.3k to 12.0k at 10).
const defaultGCPercent = 10

// buildGCPercent is GOGC while a refresh merges and builds (see building). Then the
// sources' records are live too, a pointer for every field of every gig, and each cycle
// marks them all: at 25, a first build of a million gigs on one core spent a sixth of
// its time collecting (27.4 and 25.9 s against 22.8 and 21.7 s at 100, measured side by
// side). The memory limit still bounds the heap.
const buildGCPercent = 100

// setGC applies defaultGCPercent unless the operator set GOGC.
func (m *Main) setGC() {
	if m.getenv("GOGC") == "" {
		debug.SetGCPercent(defaultGCPercent)
		m.Logger.Info("garbage collector set", "gogc", defaultGCPercent, "gogc_while_building", buildGCPercent)
	}
}

// building runs a refresh's merge and build (build) in the settings of a refresh, which
// last until settled gives them back, once the refresh has published, released its
// memory and saved its file (or failed): one P more than the runtime's default (its
// default follows the CPUs this process may use), unless the operator set GOMAXPROCS, and
// the collector at buildGCPercent until the refresh's memory is released (see published),
// unless the operator set GOGC.
//
// A build runs one goroutine fewer than GOMAXPROCS (engine.Build leaves one), so requests
// always find a P: on one CPU, without it, a request waits for the build's goroutine to be
// preempted, 10 ms and more, and behind each step the runtime cannot preempt. The same
// holds after the publish, while the refresh's memory is handed back: the scavenger's
// walk over every freed page (some 3 GB after a rebuild of a million gigs) runs on the
// refresh's thread and is never preempted, and with a single P every request waited for
// it, half a second once per refresh on one CPU. The extra P is given back afterwards:
// with more Ps than CPUs the operating system time-slices the server's own threads, and
// tail latency suffers. Refreshes run one at a time: overlapping ones would give each
// other's settings back.
func (m *Main) building(build func()) {
	if m.getenv("GOGC") == "" {
		debug.SetGCPercent(buildGCPercent)
	}
	if m.getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(runtimeProcs + 1)
	}
	build()
}

// settled gives back the settings of a refresh (see building) once the refresh is done,
// published or not.
func (m *Main) settled() {
	m.collectAsServing()
	if m.getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(runtimeProcs)
	}
}

// collectAsServing sets the collector back to defaultGCPercent, unless the operator set
// GOGC.
func (m *Main) collectAsServing() {
	if m.getenv("GOGC") == "" {
		debug.SetGCPercent(defaultGCPercent)
	}
}

// runtimeProcs is GOMAXPROCS as the runtime set it at start.
var runtimeProcs = runtime.GOMAXPROCS(0)

// machineMemory returns the memory this process may use: the lowest memory limit of its
// cgroup and the cgroups above it (v2 memory.max, v1 memory.limit_in_bytes) when there
// is one, else the machine's total; 0 when neither can be read.
func machineMemory() int64 {
	total := meminfoTotal()
	if limit := cgroupLimit(); limit > 0 && (total == 0 || limit < total) {
		return limit
	}
	return total
}

// cgroupLimit reads the memory limits on the way from the process's cgroups
// (/proc/self/cgroup) to their roots; 0 when there is none.
func cgroupLimit() int64 {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0
	}
	lowest := int64(0)
	for _, line := range strings.Split(string(data), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		var mounts []string
		var file string
		switch {
		case parts[0] == "0" && parts[1] == "": // v2
			mounts, file = []string{"/sys/fs/cgroup", "/sys/fs/cgroup/unified"}, "memory.max"
		case slices.Contains(strings.Split(parts[1], ","), "memory"): // v1
			mounts, file = []string{"/sys/fs/cgroup/memory"}, "memory.limit_in_bytes"
		default:
			continue
		}
		for _, m := range mounts {
			for dir := filepath.Clean("/" + parts[2]); ; dir = filepath.Dir(dir) {
				b, err := os.ReadFile(filepath.Join(m, dir, file))
				n, perr := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64)
				if err == nil && perr == nil && n > 0 && n < 1<<60 && (lowest == 0 || n < lowest) { // "max", or v1's huge "none"
					lowest = n
				}
				if dir == "/" {
					break
				}
			}
		}
	}
	return lowest
}

// meminfoTotal reads MemTotal from /proc/meminfo; 0 when it cannot.
func meminfoTotal() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// parseBytes reads a size: a number of bytes, or a number with a unit B, KiB, MiB, GiB,
// TiB (powers of 1024) or KB, MB, GB, TB (powers of 1000).
func parseBytes(s string) (int64, error) {
	s = strings.TrimSpace(s)
	i := len(s)
	for i > 0 && (s[i-1] < '0' || s[i-1] > '9') {
		i--
	}
	units := map[string]int64{"": 1, "B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40,
		"KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12}
	mult, ok := units[strings.TrimSpace(s[i:])]
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if !ok || err != nil || n < 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("%q is not a size such as 4GiB or 512MiB", s)
	}
	return n * mult, nil
}

// refreshNice is the niceness of the thread a refresh runs on (the server's threads keep
// theirs): when the CPUs are busy, the operating system gives requests the larger share
// and a refresh the rest, rather than half each.
const refreshNice = 5

// inBackground moves the calling goroutine, for the rest of its life, onto a thread of
// its own at niceness refreshNice; goroutines it starts run where the scheduler puts them.
// Where the niceness cannot be set, it logs why and goes on as it is.
func (m *Main) inBackground() {
	runtime.LockOSThread()
	if err := syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), refreshNice); err != nil {
		m.Logger.Warn("refreshes run at the server's priority", "err", err)
	}
}
