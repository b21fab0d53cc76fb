package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// pgRow is one gig as the peer stores it. Doc is the gig's JSON object exactly as the API serves it.
type pgRow struct {
	ID       string
	City     string    // city slug
	Country  string    // ISO alpha-2, upper case
	Date     string    // venue-local date, YYYY-MM-DD
	StartsAt time.Time // start instant; for a time to be announced, the instant the API sorts it by (23:59:59 venue-local)
	Doc      []byte
	Venue    string // venue slug
	// Where its venue is for near (its own coordinates, or its city's centre), as its
	// body's venue says; HasPos is false when neither is known.
	Lat, Lon float64
	HasPos   bool
	Search   string // the text q searches: title, artists' names, venue and city, one a line
}

// pgQuery is the filtered page measured: gigs in one city with a venue-local date range,
// in starts_at then id order, one page of PageSize, plus the total count.
type pgQuery struct {
	City     string // city slug
	From, To string // YYYY-MM-DD, inclusive
	PageSize int
}

// pgPage is a page the peer answers: its statement, the values of its parameters, and
// the API's answer that the statement's must equal.
type pgPage struct {
	Name string
	// SQL returns the statement with param(name) in place of each parameter named in
	// Vars: pgbench variables for the benchmark, quoted literals for the check. The
	// statement returns one row, {"data": [the page's gigs], "total": count}.
	SQL  func(param func(name string) string) string
	Vars map[string]string
	// Want is the API's page: its gigs' JSON objects, in order, as it serves them, and
	// its meta.total.
	Want  []json.RawMessage
	Total int
	Check bool // only checked, not measured
}

// pgResult is what the peer measured.
type pgResult struct {
	Version  string   // "PostgreSQL 15.x ..." from SELECT version()
	Schema   []string // the statements creating the extensions, functions, table and indexes, for the report
	Pages    []pgMeasure
	LoadTime time.Duration
}

// pgMeasure is what pgbench measured of one page.
type pgMeasure struct {
	Name      string
	TPS       []float64 // pgbench's tps (without initial connection time), one per run
	LatencyMS []float64 // pgbench's average latency, one per run
	SQL       string    // the measured statement, for the report
	Command   string    // the pgbench command line, for the report
}

// page returns the measure of the page named name, nil when there is none.
func (r *pgResult) page(name string) *pgMeasure {
	if r == nil {
		return nil
	}
	for i := range r.Pages {
		if r.Pages[i].Name == name && len(r.Pages[i].TPS) > 0 {
			return &r.Pages[i]
		}
	}
	return nil
}

// pgTable is the peer's table of gigs, denormalized. doc is json, not jsonb: json keeps the
// API's bytes as they are and json_agg copies them out verbatim, where jsonb reorders the
// keys, reformats on output and costs a serialization per row (at 100k gigs and 16
// clients the statement ran at 6,100 tps on json and 4,200 on jsonb).
// venue (its venue's slug, whose position is in the table venues) and tsv (its words,
// generated from search) serve near and q (see postgis.go, whose pgSearchSchema must
// come first).
// The table is unlogged, which only spares the load its WAL: the measured part only reads.
// The primary key is added after COPY, a bulk build being faster than row by row.
const pgTable = `CREATE UNLOGGED TABLE gigs (id text NOT NULL, city text NOT NULL, country text NOT NULL,
	local_date date NOT NULL, starts_at timestamptz NOT NULL, doc json NOT NULL,
	venue text NOT NULL, search text NOT NULL,
	tsv tsvector NOT NULL GENERATED ALWAYS AS (to_tsvector('gigs', gigs_words(search))) STORED)`

// pgIndexes serve the two halves of the statement (see pgPageSQL).
//
// The page: city equality then starts_at, id in index order, so the scan returns rows in
// the page's order and LIMIT stops it after PageSize matches, whatever the total. The date
// range is turned into a starts_at range (the widest UTC offsets bound where a venue-local
// date can fall, as the engine does) so that the scan starts at the range, and local_date
// is a key column so the exact date test is made on index entries, before any heap visit.
//
// The count: an index-only scan of exactly the matching (city, local_date) entries. Two key
// columns and no INCLUDE let btree deduplication store each (city, day) once with a list
// of row ids, so the index is a fraction of the page index's size and the scan reads few
// pages. VACUUM after the load sets the visibility map, without which the scan would visit
// the heap.
//
// near and q: see pgSearchIndexes.
var pgIndexes = []string{
	"CREATE INDEX gigs_page ON gigs (city, starts_at, id, local_date)",
	"CREATE INDEX gigs_count ON gigs (city, local_date)",
}

// pgPageSQL returns the measured statement for a page of pageSize, with param(name) in
// place of each parameter, "city", "from" and "to": pgbench variables for the benchmark,
// quoted literals for the check. The response is built by the database in one row:
// {"data": [the page's docs], "total": count}.
//
// json_agg takes the docs in the order the ordered, limited subquery yields them, as
// PostgreSQL does when nothing between them reorders rows; runPostgres's check holds the
// order to the API's. An ORDER BY inside json_agg would sort the page again, wide docs
// and all: 4,100 instead of 6,100 tps at 100k gigs.
func pgPageSQL(pageSize int, param func(name string) string) string {
	city, from, to := param("city"), param("from"), param("to")
	filter := fmt.Sprintf("city = %s AND local_date BETWEEN %s AND %s", city, from, to)
	return fmt.Sprintf(`SELECT json_build_object(
  'data', coalesce((SELECT json_agg(p.doc) FROM (
      SELECT doc, starts_at, id FROM gigs
      WHERE %s
        AND starts_at >= (%s::date - interval '14 hours') AT TIME ZONE 'UTC'
        AND starts_at < (%s::date + 1 + interval '12 hours') AT TIME ZONE 'UTC'
      ORDER BY starts_at, id LIMIT %d) p), '[]'::json),
  'total', (SELECT count(*) FROM gigs WHERE %s))`, filter, from, to, pageSize, filter)
}

// pgInstall is what to do when the server or PostGIS is missing.
const pgInstall = "`make tools` installs it (Debian packages postgresql-15 and postgresql-15-postgis-3)"

// pgBinDir returns the directory of the PostgreSQL 15 programs (initdb, pg_ctl, postgres,
// psql, pgbench): pg_config's when it is version 15, else Debian's. Its extensions must
// hold PostGIS and unaccent.
func pgBinDir() (string, error) {
	dirs := []string{"/usr/lib/postgresql/15/bin"}
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		dirs = append([]string{strings.TrimSpace(string(out))}, dirs...)
	}
	for _, d := range dirs {
		out, err := exec.Command(filepath.Join(d, "postgres"), "--version").Output()
		if err != nil || !strings.Contains(string(out), ") 15.") {
			continue
		}
		for _, p := range []string{"initdb", "pg_ctl", "psql", "pgbench", "pg_config"} {
			if _, err := os.Stat(filepath.Join(d, p)); err != nil {
				return "", fmt.Errorf("PostgreSQL 15 in %s has no %s: %s", d, p, pgInstall)
			}
		}
		share, err := exec.Command(filepath.Join(d, "pg_config"), "--sharedir").Output()
		if err != nil {
			return "", fmt.Errorf("PostgreSQL 15 in %s: pg_config --sharedir: %w", d, err)
		}
		for _, ext := range []string{"postgis", "unaccent"} {
			if _, err := os.Stat(filepath.Join(strings.TrimSpace(string(share)), "extension", ext+".control")); err != nil {
				return "", fmt.Errorf("PostgreSQL 15 in %s has no extension %s: %s", d, ext, pgInstall)
			}
		}
		return d, nil
	}
	return "", fmt.Errorf("PostgreSQL 15 server not found (pg_config --bindir, %s): %s", dirs[len(dirs)-1], pgInstall)
}

// runPostgres starts a throwaway PostgreSQL 15 server in dir (initdb, its own port on
// 127.0.0.1, pinned with taskset to serverCPU), loads rows with COPY, creates the best
// indexes for the pages, checks that each page's statement returns the API's page (the
// same gigs, byte for byte, in the same order, and the same total), then runs pgbench
// `runs` times for dur each on each page not marked Check, pinned to loadCPU, with
// `clients` connections and prepared statements, and stops the server.
//
// dir must be empty or missing; the caller removes it afterwards. When run as root, the
// server runs as the postgres system user, which is given dir: dir's parents must let it
// through (os.MkdirTemp under /tmp does; t.TempDir does not). The socket lives in dir, so
// dir's path must be short (under about 90 bytes). LoadTime covers COPY, the indexes and
// VACUUM ANALYZE.
func runPostgres(ctx context.Context, dir string, rows []pgRow, pages []pgPage, runs int, dur time.Duration, clients, serverCPU, loadCPU int) (res pgResult, err error) {
	if runs < 1 || clients < 1 || dur < time.Second {
		return res, fmt.Errorf("postgres peer: runs %d and clients %d must be positive and dur %s at least 1s", runs, clients, dur)
	}
	bin, err := pgBinDir()
	if err != nil {
		return res, err
	}
	s, err := newPGServer(bin, dir)
	if err != nil {
		return res, err
	}
	if err := s.initdb(ctx, clients); err != nil {
		return res, err
	}
	defer func() { err = errors.Join(err, s.stop()) }()
	if err := s.start(ctx, serverCPU); err != nil {
		return res, err
	}
	if res.Version, err = s.psql(ctx, nil, "SELECT version()"); err != nil {
		return res, err
	}

	began := time.Now()
	if err := s.load(ctx, rows); err != nil {
		return res, err
	}
	res.LoadTime = time.Since(began)
	res.Schema = pgSchema()

	for _, p := range pages {
		out, err := s.psql(ctx, nil, p.SQL(func(name string) string {
			return "'" + strings.ReplaceAll(p.Vars[name], "'", "''") + "'"
		}))
		if err != nil {
			return res, err
		}
		if err := pgCheck(out, p.Want, p.Total); err != nil {
			return res, fmt.Errorf("postgres peer answers another %s page than the API: %w", p.Name, err)
		}
	}
	for i, p := range pages {
		if p.Check {
			continue
		}
		m := pgMeasure{Name: p.Name, SQL: p.SQL(func(name string) string { return ":" + name })}
		script := filepath.Join(s.dir, fmt.Sprintf("page%d.sql", i))
		if err := os.WriteFile(script, []byte(m.SQL+";\n"), 0o644); err != nil {
			return res, err
		}
		args := []string{"taskset", "-c", strconv.Itoa(loadCPU), filepath.Join(bin, "pgbench"),
			"-n", "-M", "prepared", "-f", script, "-c", strconv.Itoa(clients), "-j", "1",
			"-T", strconv.Itoa(int(dur.Round(time.Second).Seconds())),
			"-h", s.dir, "-p", strconv.Itoa(s.port), "-U", "postgres"}
		for _, name := range slices.Sorted(maps.Keys(p.Vars)) {
			args = append(args, "-D", name+"="+p.Vars[name])
		}
		args = append(args, "postgres")
		m.Command = pgCommandLine(args)
		for range runs {
			out, err := s.run(exec.CommandContext(ctx, args[0], args[1:]...), nil)
			if err != nil {
				return res, err
			}
			tps, lat, err := parsePgbench(out)
			if err != nil {
				return res, fmt.Errorf("%s: %w\n%s", m.Command, err, out)
			}
			m.TPS, m.LatencyMS = append(m.TPS, tps), append(m.LatencyMS, lat)
		}
		res.Pages = append(res.Pages, m)
	}
	return res, nil
}

// pgServer is a throwaway cluster: its data directory, socket and log are in dir.
type pgServer struct {
	bin, dir, data string
	port           int
	owner          string // the user the server programs run as, when it is not us (root)
}

// newPGServer prepares dir for a cluster, handing it to the postgres user when we are
// root, and picks a free port.
func newPGServer(bin, dir string) (*pgServer, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	// The socket's path, dir/.s.PGSQL.port, must fit in sockaddr_un's 108 bytes.
	if len(dir)+len("/.s.PGSQL.65535") >= 108 {
		return nil, fmt.Errorf("postgres peer: %s is too long a path for the server's unix socket", dir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	s := &pgServer{bin: bin, dir: dir, data: filepath.Join(dir, "data")}
	if os.Geteuid() == 0 { // initdb, pg_ctl and postgres refuse to run as root
		s.owner = "postgres"
		u, err := user.Lookup(s.owner)
		if err != nil {
			return nil, fmt.Errorf("postgres peer: running as root needs the postgres system user: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
		if _, err := s.run(s.command(context.Background(), -1, "test", "-w", dir, "-a", "-x", dir), nil); err != nil {
			return nil, fmt.Errorf("postgres peer: the postgres user cannot reach %s (are its parents searchable?): %w", dir, err)
		}
	}
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	_, port, _ := net.SplitHostPort(addr)
	s.port, _ = strconv.Atoi(port)
	return s, nil
}

// command returns name with args run as the server's owner, in dir, pinned to cpu unless
// cpu is negative. Cancelling ctx sends SIGTERM, which runuser passes on to its child.
func (s *pgServer) command(ctx context.Context, cpu int, name string, args ...string) *exec.Cmd {
	var argv []string
	if s.owner != "" {
		argv = append(argv, "runuser", "-u", s.owner, "--")
	}
	if cpu >= 0 {
		argv = append(argv, "taskset", "-c", strconv.Itoa(cpu))
	}
	argv = append(append(argv, name), args...)
	c := exec.CommandContext(ctx, argv[0], argv[1:]...)
	c.Dir = s.dir // the owner may not be allowed into our working directory
	c.Cancel = func() error { return c.Process.Signal(syscall.SIGTERM) }
	c.WaitDelay = 10 * time.Second
	return c
}

// run runs c with stdin and returns its standard output; a failure carries its stderr.
func (s *pgServer) run(c *exec.Cmd, stdin io.Reader) (string, error) {
	var stdout, stderr strings.Builder
	c.Stdin, c.Stdout, c.Stderr = stdin, &stdout, &stderr
	if err := c.Run(); err != nil {
		return stdout.String(), fmt.Errorf("%s: %w\n%s", strings.Join(c.Args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// initdb creates the cluster and configures it for clients connections.
func (s *pgServer) initdb(ctx context.Context, clients int) error {
	// The C collation: text sorts by bytes, as Go compares ids, and compares fastest. The
	// C.UTF-8 character classes: the text search parser and lower() know every script's
	// letters and cases, where C's know ASCII's alone.
	// Trust authentication: the server only listens on loopback and in dir, and is thrown away.
	if _, err := s.run(s.command(ctx, -1, filepath.Join(s.bin, "initdb"), "-D", s.data, "-U", "postgres",
		"-A", "trust", "-E", "UTF8", "--locale=C", "--lc-ctype=C.UTF-8", "--no-sync", "--no-instructions"), nil); err != nil {
		return err
	}
	conf := fmt.Sprintf(`
# The gigs bench peer.
listen_addresses = '127.0.0.1'
port = %d
unix_socket_directories = '%s'
max_connections = %d
# Far more than the measured query touches (one city over a date range); the rest of the
# table stays in the OS page cache.
shared_buffers = 256MB
maintenance_work_mem = 256MB
# Durability only slows the load down; the measured part only reads.
fsync = off
synchronous_commit = off
full_page_writes = off
# The load ends with VACUUM ANALYZE; nothing changes afterwards.
autovacuum = off
# The server has one CPU: parallel workers would only compete with their leader, and
# compiling a sub-millisecond query costs more than it saves.
max_parallel_workers_per_gather = 0
jit = off
`, s.port, strings.ReplaceAll(s.dir, "'", "''"), clients+10)
	f, err := os.OpenFile(filepath.Join(s.data, "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(conf)
	return errors.Join(err, f.Close())
}

// start starts the server pinned to cpu; its backends inherit the pinning.
func (s *pgServer) start(ctx context.Context, cpu int) error {
	_, err := s.run(s.command(ctx, cpu, filepath.Join(s.bin, "pg_ctl"), "start", "-w", "-t", "120",
		"-D", s.data, "-l", filepath.Join(s.dir, "postgres.log")), nil)
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(s.dir, "postgres.log"))
		return fmt.Errorf("%w\n%s", err, log)
	}
	return nil
}

// stop stops the server if it runs (fast shutdown: clients are cut off), even when the
// caller's context is done.
func (s *pgServer) stop() error {
	if _, err := os.Stat(filepath.Join(s.data, "postmaster.pid")); err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, err := s.run(s.command(ctx, -1, filepath.Join(s.bin, "pg_ctl"), "stop", "-w", "-m", "fast", "-D", s.data), nil)
	return err
}

// psql runs SQL commands, each in its own transaction, with stdin for COPY FROM STDIN, and
// returns the unaligned, tuples-only output, trimmed.
func (s *pgServer) psql(ctx context.Context, stdin io.Reader, commands ...string) (string, error) {
	args := []string{"-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", s.dir, "-p", strconv.Itoa(s.port), "-U", "postgres", "-d", "postgres"}
	for _, c := range commands {
		args = append(args, "-c", c)
	}
	out, err := s.run(exec.CommandContext(ctx, filepath.Join(s.bin, "psql"), args...), stdin)
	return strings.TrimSpace(out), err
}

// load creates the table, copies rows in and indexes them. Rows go in in the page index's
// order, so a page's docs share few heap pages and an index-only scan's visibility checks
// stay on one map page.
func (s *pgServer) load(ctx context.Context, rows []pgRow) error {
	if _, err := s.psql(ctx, nil, append(slices.Clone(pgSearchSchema), pgTable)...); err != nil {
		return err
	}
	if err := s.loadVenues(ctx, rows); err != nil {
		return err
	}
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		ra, rb := &rows[a], &rows[b]
		return cmp.Or(strings.Compare(ra.City, rb.City), ra.StartsAt.Compare(rb.StartsAt), strings.Compare(ra.ID, rb.ID))
	})
	pr, pw := io.Pipe()
	go func() {
		w := bufio.NewWriterSize(pw, 1<<20)
		var line []byte
		for _, i := range order {
			r := &rows[i]
			line = line[:0]
			for _, f := range [...]string{r.ID, r.City, r.Country, r.Date} {
				line = append(appendCopyText(line, f), '\t')
			}
			line = r.StartsAt.UTC().AppendFormat(line, time.RFC3339Nano)
			line = appendCopyText(append(line, '\t'), r.Doc)
			for _, f := range [...]string{r.Venue, r.Search} {
				line = appendCopyText(append(line, '\t'), f)
			}
			line = append(line, '\n')
			if _, err := w.Write(line); err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		pw.CloseWithError(w.Flush())
	}()
	_, err := s.psql(ctx, pr, "COPY gigs (id, city, country, local_date, starts_at, doc, venue, search) FROM STDIN")
	pr.CloseWithError(errors.New("COPY ended")) // unblock the writer if psql stopped reading
	if err != nil {
		return err
	}
	commands := append([]string{"ALTER TABLE gigs ADD PRIMARY KEY (id)"}, pgIndexes...)
	commands = append(commands, pgSearchIndexes...)
	_, err = s.psql(ctx, nil, append(commands, "VACUUM (ANALYZE) gigs", "VACUUM (ANALYZE) venues")...)
	return err
}

// appendCopyText appends a field in COPY's text format: backslash, newline, carriage
// return and tab are escaped, every other byte (quotes, UTF-8) goes as it is.
func appendCopyText[T string | []byte](b []byte, field T) []byte {
	for i := range len(field) {
		switch c := field[i]; c {
		case '\\':
			b = append(b, '\\', '\\')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, c)
		}
	}
	return b
}

// pgCheck holds the statement's output to the API's page: the same gigs' JSON objects,
// byte for byte, in the same order, and the same total.
func pgCheck(out string, want []json.RawMessage, wantTotal int) error {
	var got struct {
		Data  []json.RawMessage `json:"data"`
		Total int               `json:"total"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		return fmt.Errorf("cannot read the statement's output: %w", err)
	}
	if ids, wantIDs := pgIDs(got.Data), pgIDs(want); !slices.Equal(ids, wantIDs) || got.Total != wantTotal {
		return fmt.Errorf("page %v of %d, want %v of %d", ids, got.Total, wantIDs, wantTotal)
	}
	for i := range want {
		if string(got.Data[i]) != string(want[i]) {
			return fmt.Errorf("gig %d: %s, want %s", i, got.Data[i], want[i])
		}
	}
	return nil
}

// pgIDs returns the ids of the gigs in docs ("?" for a doc without one).
func pgIDs(docs []json.RawMessage) []string {
	ids := make([]string, len(docs))
	for i, d := range docs {
		var g struct{ ID *string }
		if json.Unmarshal(d, &g) != nil || g.ID == nil {
			ids[i] = "?"
			continue
		}
		ids[i] = *g.ID
	}
	return ids
}

var (
	pgbenchTPS     = regexp.MustCompile(`(?m)^tps = ([\d.]+) \(without initial connection time\)`)
	pgbenchLatency = regexp.MustCompile(`(?m)^latency average = ([\d.]+) ms`)
	pgbenchFailed  = regexp.MustCompile(`(?m)^number of failed transactions: (\d+)`)
)

// parsePgbench reads the tps and the average latency (ms) from pgbench's report, which
// must show no failed transaction.
func parsePgbench(out string) (tps, latencyMS float64, err error) {
	t, l := pgbenchTPS.FindStringSubmatch(out), pgbenchLatency.FindStringSubmatch(out)
	if t == nil || l == nil {
		return 0, 0, errors.New("no tps or latency average in pgbench's output")
	}
	if f := pgbenchFailed.FindStringSubmatch(out); f != nil && f[1] != "0" {
		return 0, 0, fmt.Errorf("%s failed transactions", f[1])
	}
	tps, _ = strconv.ParseFloat(t[1], 64)
	latencyMS, _ = strconv.ParseFloat(l[1], 64)
	return tps, latencyMS, nil
}

// pgCommandLine joins args into a shell command line, quoting the arguments that need it.
func pgCommandLine(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = a
		if a == "" || strings.ContainsFunc(a, func(r rune) bool {
			return !strings.ContainsRune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%", r)
		}) {
			quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(quoted, " ")
}
