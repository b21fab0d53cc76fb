package main

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// historyTitle opens a history file the bench creates.
const historyTitle = `# Bench history

One row per run of ` + "`make bench`" + ` or ` + "`make bench-full`" + `, appended by the bench itself
(` + "`bench/run -history`" + `): the date, the commit measured, the mode, the runner's note, then
each goal's measured figure at the mode's goals size (docs/bench.md says how to read them). A
run whose goals differ from the last table's starts a new table. Rows are never rewritten.
`

// appendHistory appends the run's row to the Markdown file at path, creating it with a
// title when it is missing: its date, commit, mode and note, each goal's measured figure
// (marked when missed) and how many goals were met. The file keeps one table per set of
// goals: when the header of its last table is not this run's, a new table starts. What
// the file holds already is never rewritten.
func appendHistory(path string, r *report, note string) error {
	goals := r.goals()
	header := []string{"date", "commit", "mode", "note"}
	row := []string{r.Started.UTC().Format("2006-01-02"), r.Commit, r.Mode.Name, note}
	met := 0
	for _, g := range goals {
		header = append(header, g.What+" "+g.Target)
		cell := g.Measured
		if g.Met {
			met++
		} else {
			cell += " **missed**"
		}
		row = append(row, cell)
	}
	header = append(header, "goals met")
	row = append(row, fmt.Sprintf("%d of %d", met, len(goals)))

	last, err := lastHeader(path)
	if err != nil {
		return err
	}
	var b strings.Builder
	switch head := tableLine(header); {
	case last == "" && !exists(path):
		b.WriteString(historyTitle + "\n" + head + separator(len(header)))
	case last != head:
		b.WriteString("\n" + head + separator(len(header)))
	}
	b.WriteString(tableLine(row) + "\n")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("cannot open the bench history %q: %w", path, err)
	}
	_, err = f.WriteString(b.String())
	return errors.Join(err, f.Close())
}

// lastHeader returns the header line of the last table in the file at path, "" when the
// file is missing or holds no table.
func lastHeader(path string) (string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("cannot read the bench history %q: %w", path, err)
	}
	defer f.Close()
	var last, prev string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "|---") && strings.HasPrefix(prev, "|") {
			last = prev
		}
		prev = line
	}
	if err := sc.Err(); err != nil {
		return "", fmt.Errorf("cannot read the bench history %q: %w", path, err)
	}
	return last, nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// tableLine is one line of a Markdown table, its cells' pipes escaped.
func tableLine(cells []string) string {
	esc := make([]string, len(cells))
	for i, c := range cells {
		esc[i] = strings.ReplaceAll(c, "|", `\|`)
	}
	return "| " + strings.Join(esc, " | ") + " |"
}

// separator is the line under a table's header of n columns, with the line's end.
func separator(n int) string {
	return "\n|" + strings.Repeat("---|", n) + "\n"
}
