package replica

import (
	"strings"
	"testing"
	"time"
)

// FuzzParseManifest feeds the manifest reader what a bucket could hold: it never panics,
// and what it accepts names a snapshot object with sizes, a checksum and times in range.
func FuzzParseManifest(f *testing.F) {
	f.Add([]byte(`{"format":1,"object":"snapshots/20261126T141857.000000000Z-7ba0c514519f8b6f","size":685927095,` +
		`"sha256":"` + strings.Repeat("ab", 32) + `","file_size":1434115272,"data_version":"7ba0c514519f8b6f","gigs":1000000,` +
		`"built":"2026-11-26T14:18:57Z","published":"2026-11-26T14:21:15.308580901Z","next_refresh":"2026-11-26T15:18:57Z"}`))
	f.Add([]byte(`{"format":1,"object":"snapshots/../manifest.json","size":1,"file_size":1,"sha256":"00"}`))
	f.Add([]byte(`{"format":2,"object":"snapshots/a","size":100,"sha256":"` + strings.Repeat("ab", 32) + `","file_size":200,` +
		`"checksum":"00000000000000aa","deltas":[{"object":"deltas/b","size":10,"sha256":"` + strings.Repeat("cd", 32) +
		`","raw_size":20,"from":"00000000000000aa","to":"00000000000000bb","file_size":210}],` +
		`"data_version":"x","gigs":1,"built":"2026-11-26T14:18:57Z","published":"2026-11-26T14:21:15Z","next_refresh":"2026-11-26T15:18:57Z"}`))
	f.Add([]byte(`{"format":3}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := parseManifest(data)
		if err != nil {
			return
		}
		if !strings.HasPrefix(m.Object, SnapshotPrefix) || strings.Contains(m.Object, "..") ||
			m.Size <= 0 || m.Size > maxSnapshot || m.FileSize <= 0 || m.FileSize > maxRatio*m.Size || len(m.SHA256) != 64 ||
			m.Built.After(time.Now().Add(maxAhead)) || m.Published.Before(m.Built) || m.NextRefresh.Before(m.Built) ||
			m.NextRefresh.After(m.Published.Add(maxRefreshGap)) {
			t.Fatalf("accepted %+v", m)
		}
		if len(m.Deltas) > MaxChain {
			t.Fatalf("accepted a chain of %d deltas", len(m.Deltas))
		}
		for i, d := range m.Deltas {
			if !strings.HasPrefix(d.Object, DeltaPrefix) || strings.Contains(d.Object, "..") || d.RawSize > deltaCap(d.FileSize) ||
				d.RawSize > maxRatio*d.Size || i > 0 && d.From != m.Deltas[i-1].To {
				t.Fatalf("accepted delta %d: %+v", i, d)
			}
		}
	})
}
