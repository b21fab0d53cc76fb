package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"time"

	"github.com/gigs/gigs/testkit/scale"
)

// typeaheadRow is the directory typeahead (issue 37): /v1/artists with q of three
// letters and a page of 10, at full load and then at about half of that rate, where the
// goal holds its p99 to 1 ms; and the ceiling server answering gigsd's bytes under the
// same half load (the same connections and delay), the p99 the machine and the load give
// without gigsd. The three letters are those that begin the most words of
// the artists' names (scale.TypeaheadPrefix), the query of that kind with the most work
// to do.
type typeaheadRow struct {
	Path        string
	Total       int // the answer's meta.total
	Peak        []wrkResult
	Half        []wrkResult
	CeilingHalf []wrkResult
	HalfConns   int
}

// typeaheadPath returns the typeahead's path on the dataset base serves.
func typeaheadPath(base string) (string, error) {
	var artists struct{ Data []struct{ Name string } }
	if err := getJSON(base+"/v1/artists", &artists); err != nil {
		return "", err
	}
	names := make([]string, len(artists.Data))
	for i, a := range artists.Data {
		names[i] = a.Name
	}
	best := scale.TypeaheadPrefix(names)
	if best == "" {
		return "", fmt.Errorf("no artist's name has a word of three letters")
	}
	return "/v1/artists?q=" + url.QueryEscape(best) + "&page_size=10", nil
}

// measureTypeahead measures the typeahead's row on gigsd at base.
func measureTypeahead(ctx context.Context, m mode, cfg benchConfig, work, base string, rep *report) (typeaheadRow, error) {
	var t typeaheadRow
	var err error
	if t.Path, err = typeaheadPath(base); err != nil {
		return t, err
	}
	status, body, header := get(base+t.Path, nil)
	if status != 200 {
		return t, fmt.Errorf("%s: %d", t.Path, status)
	}
	var page struct{ Meta struct{ Total int } }
	if err := json.Unmarshal(body, &page); err != nil {
		return t, err
	}
	if t.Total = page.Meta.Total; t.Total == 0 {
		return t, fmt.Errorf("%s matched no artist", t.Path)
	}
	ceilingFile := filepath.Join(work, "ceiling-typeahead.json")
	if err := writeCeiling(ceilingFile, t.Path, header, body); err != nil {
		return t, err
	}
	for range m.Runs {
		r, cmd, err := wrkRun{URL: base + t.Path, Conns: conns, Dur: m.Dur, CPU: loadCPU}.run(ctx, work)
		if err != nil {
			return t, err
		}
		rep.command("typeahead", cmd)
		t.Peak = append(t.Peak, r)
	}
	if t.HalfConns, t.Half, err = halfLoad(ctx, m, work, base+t.Path, median(rates(t.Peak)), rep, "typeahead half"); err != nil {
		return t, err
	}
	for range m.Runs {
		r, err := runCeiling(ctx, cfg, work, ceilingFile, "typeahead half, ceiling",
			wrkRun{URL: t.Path, Conns: t.HalfConns, Dur: m.Dur, Delay: time.Millisecond, CPU: loadCPU}, rep)
		if err != nil {
			return t, err
		}
		t.CeilingHalf = append(t.CeilingHalf, r)
	}
	return t, nil
}

// halfLoad loads url at about half of its peak rate, m.Runs times: wrk waits 1 ms between
// a connection's requests, so the rate is set by the number of connections, which one
// calibration run finds. It returns that number and the runs.
func halfLoad(ctx context.Context, m mode, work, url string, peak float64, rep *report, name string) (int, []wrkResult, error) {
	target := peak / 2
	half := wrkRun{URL: url, Conns: max(1, int(target*0.00105)), Dur: m.Dur, Delay: time.Millisecond, CPU: loadCPU}
	if cal, _, err := half.run(ctx, work); err == nil && cal.ReqPerSec > 0 {
		half.Conns = max(1, int(float64(half.Conns)*target/cal.ReqPerSec+0.5))
	}
	var runs []wrkResult
	for range m.Runs {
		hr, cmd, err := half.run(ctx, work)
		if err != nil {
			return half.Conns, runs, err
		}
		rep.command(name, cmd)
		runs = append(runs, hr)
	}
	return half.Conns, runs, nil
}
