package bindelta

import (
	"bytes"
	"encoding/binary"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/engine/internal/binfile"
)

const head = 5

// file writes a file of sections: rows of bytes, and their offsets as 8-byte words.
func file(rows [][]byte, extra ...[]byte) []byte {
	var b bytes.Buffer
	fw := binfile.NewWriter(&b)
	fw.Header([]byte("head\n"))
	offs := []int{0}
	for _, r := range rows {
		offs = append(offs, offs[len(offs)-1]+len(r))
	}
	c := fw.Codec()
	c.Parts(&rows)
	binfile.Words(c, &offs, 8)
	for _, e := range extra {
		c.Bytes(&e)
	}
	if err := fw.Finish(); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// rows returns n random rows of 20 to 200 bytes, of few distinct bytes (as JSON is).
func rows(r *rand.Rand, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = make([]byte, 20+r.IntN(180))
		for k := range out[i] {
			out[i][k] = "abcdefgh{}\":,"[r.IntN(13)]
		}
	}
	return out
}

// churn returns rows with some edited, removed and added.
func churn(r *rand.Rand, in [][]byte, frac float64) [][]byte {
	var out [][]byte
	for _, row := range in {
		switch x := r.Float64(); {
		case x < frac: // removed
		case x < 2*frac:
			e := bytes.Clone(row)
			e[r.IntN(len(e))] = 'z'
			out = append(out, e)
		case x < 3*frac:
			out = append(out, row, rows(r, 1)[0])
		default:
			out = append(out, row)
		}
	}
	return out
}

// encode returns the delta Encode writes.
func encode(base, file []byte, predict Predictor) ([]byte, error) {
	var b bytes.Buffer
	err := Encode(&b, base, file, head, predict)
	return b.Bytes(), err
}

func apply(t *testing.T, base, delta []byte, limit int64, predict Predictor) ([]byte, error) {
	t.Helper()
	d, err := Parse(delta)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	_, err = d.Apply(&out, base, head, limit, predict)
	return out.Bytes(), err
}

// TestRoundTrip encodes files against bases of random churn, none, and no relation: the
// delta applied makes the file byte for byte, and is small when little changed.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	base := rows(r, 3000)
	for _, tc := range []struct {
		name     string
		rows     [][]byte
		extra    []byte
		maxRatio float64 // of the delta to the file
	}{
		{"unchanged", base, nil, 0.01},
		{"1% churn", churn(r, base, 0.01), nil, 0.06},
		{"10% churn", churn(r, base, 0.1), nil, 0.4},
		{"unrelated", rows(r, 2000), []byte("a section the base has not"), 1.1},
		{"empty", nil, nil, 1.1},
	} {
		b, f := file(base), file(tc.rows, tc.extra)
		delta, err := encode(b, f, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := apply(t, b, delta, int64(len(f)), nil)
		if err != nil || !bytes.Equal(got, f) {
			t.Fatalf("%s: %v, or the file made differs", tc.name, err)
		}
		if ratio := float64(len(delta)) / float64(len(f)); ratio > tc.maxRatio {
			t.Errorf("%s: delta %d bytes, %.2f of the file's %d; want at most %.2f", tc.name, len(delta), ratio, len(f), tc.maxRatio)
		}
	}
}

// TestHostile applies deltas a bucket could hold: each is refused with its reason, none
// panics, and no more than the limit is written.
func TestHostile(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	baseRows := rows(r, 100)
	base, target := file(baseRows), file(churn(r, baseRows, 0.1))
	good, err := encode(base, target, nil)
	if err != nil {
		t.Fatal(err)
	}
	// prefix is a delta's head for a file of size bytes and sections, then ops.
	prefix := func(size, sections uint64) []byte {
		b := append([]byte(magic), version)
		b = binary.AppendUvarint(b, head)
		b = append(b, "head\n"...)
		b = binary.LittleEndian.AppendUint64(b, binfile.Checksum(base))
		b = binary.LittleEndian.AppendUint64(b, 0)
		b = binary.AppendUvarint(b, size)
		return binary.AppendUvarint(b, sections)
	}
	u := func(b []byte, v ...uint64) []byte {
		for _, x := range v {
			b = binary.AppendUvarint(b, x)
		}
		return b
	}
	for _, tc := range []struct {
		name  string
		delta []byte
		base  []byte
		limit int64
		want  string
	}{
		{"not a delta", []byte("hello"), base, 1 << 20, "not a delta"},
		{"another version", append([]byte(magic), 9), base, 1 << 20, "version"},
		{"cut short", good[:len(good)/2], base, 1 << 20, ""},
		{"over the limit", good, base, int64(len(target)) - 1, "over"},
		{"another base", good, target, 1 << 20, "checksum"},
		{"a byte flipped", func() []byte { d := bytes.Clone(good); d[len(d)-3] ^= 0x10; return d }(), base, 1 << 20, ""},
		{"huge section count", prefix(100, 1<<40), base, 1 << 20, "at most"},
		{"a section past the file", append(u(prefix(100, 1), 0, 0), u(nil, 1<<30)...), base, 1 << 20, "at most"},
		{"a copy out of the base", append(append(u(prefix(1000, 1), 0, 0), u(nil, 64, 0, 64)...), binary.AppendVarint(nil, 1<<20)...), base, 1 << 20, "out of its base"},
		{"a copy far back", append(append(u(prefix(1000, 1), 0, 0), u(nil, 64, 0, 64)...), binary.AppendVarint(nil, -(1<<62))...), base, 1 << 20, "out of its base"},
		{"a copy shorter than a block", append(append(u(prefix(1000, 1), 0, 0), u(nil, 64, 0, 1)...), binary.AppendVarint(nil, 0)...), base, 1 << 20, "shorter than a block"},
		{"literals one after another", append(append(u(prefix(1000, 1), 0, 0), u(nil, 64, 1)...), 'x', 0, 1, 'y', 0), base, 1 << 20, "no copy after it"},
		{"an operation of nothing", append(u(prefix(1000, 1), 0, 0), u(nil, 64, 0, 0)...), base, 1 << 20, "makes nothing"},
		{"an unknown transform", append(u(prefix(1000, 1), 0, 7), u(nil, 64)...), base, 1 << 20, "transform"},
		{"bytes after", append(bytes.Clone(good), 0), base, 1 << 20, "after the last section"},
		{"a source none offers", append(u(prefix(1000, 1), 1, 0), u(nil, 64)...), base, 1 << 20, "no source 1"},
	} {
		_, err := apply(t, tc.base, tc.delta, tc.limit, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}

// FuzzApply applies any delta to a base file: it never panics, and what it makes
// without an error is a file the delta's checksum names.
func FuzzApply(f *testing.F) {
	r := rand.New(rand.NewPCG(5, 6))
	base := file(rows(r, 40))
	for _, target := range [][]byte{file(churn(r, rows(r, 40), 0.2)), file(rows(r, 30), []byte("x")), base} {
		d, err := encode(base, target, nil)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, delta []byte) {
		d, err := Parse(delta)
		if err != nil {
			return
		}
		var out bytes.Buffer
		if _, err := d.Apply(&out, base, head, 1<<20, nil); err == nil {
			if made := out.Bytes(); binfile.Checksum(made) != d.Sum {
				t.Fatalf("made a file without the delta's checksum")
			}
			if _, err := binfile.NewReader(out.Bytes(), head); err != nil {
				t.Fatalf("made a damaged file: %v", err)
			}
		}
		_, _ = d.Apply(io.Discard, base[:len(base)/2], head, 1<<20, nil)
		_, _ = d.Sections()
	})
}

// TestSections reads how a delta codes its sections: each at its size in the file, the
// codings back to back up to the delta's end, a section the base has not added whole.
func TestSections(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	baseRows := rows(r, 500)
	b, f := file(baseRows), file(churn(r, baseRows, 0.05), []byte("an extra section the base has not"))
	delta, err := encode(b, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Parse(delta)
	if err != nil {
		t.Fatal(err)
	}
	got, err := d.Sections()
	if err != nil {
		t.Fatal(err)
	}
	secs, err := binfile.Split(f, head)
	if err != nil || len(got) != len(secs) {
		t.Fatalf("%d sections read, want %d (%v)", len(got), len(secs), err)
	}
	at := got[0].At
	for i, sec := range got {
		if sec.Size != len(secs[i]) || sec.At != at || sec.Added > sec.Size {
			t.Errorf("section %d: %+v; want size %d at %d", i, sec, len(secs[i]), at)
		}
		at += sec.Coded
	}
	if at != len(delta) || got[0].Added == 0 || got[2].Added != len(secs[2]) {
		t.Errorf("sections end at %d of %d; added %d of the rows, %d of the section the base has not", at, len(delta), got[0].Added, got[2].Added)
	}
}

// TestSourceShortcuts codes sections against sources a Predictor makes: a section equal
// to one is that one copy, and the sources after it are not asked for; a section that
// shares nothing with its source for longer than maxMiss is added whole past it, and
// still round-trips.
func TestSourceShortcuts(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	baseRows, fileRows := rows(r, 200), rows(r, 200)
	far := make([]byte, maxMiss+3*block) // unrelated, then the base's last row
	for i := range far {
		far[i] = byte(r.Uint32())
	}
	copy(far[len(far)-2*block:], bytes.Repeat([]byte("ab"), block))
	b, f := file(baseRows, bytes.Repeat([]byte("ab"), 4*block)), file(fileRows, far)
	secs, err := binfile.Split(f, head)
	if err != nil {
		t.Fatal(err)
	}
	var asked []int
	predict := func(i, k int, base [][]byte, made [][][]byte) ([][]byte, bool, error) {
		asked = append(asked, 10*i+k)
		if i == 0 && k <= 2 { // the rows: source 1 is the file's own, source 2 never needed
			return [][]byte{secs[0]}, true, nil
		}
		return nil, false, nil
	}
	delta, err := encode(b, f, predict)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(asked, 2) {
		t.Errorf("sources asked %v: source 2 of section 0 after source 1 was its copy", asked)
	}
	if got, err := apply(t, b, delta, 1<<30, predict); err != nil || !bytes.Equal(got, f) {
		t.Fatalf("%v, or the file made differs", err)
	}
	// Section 0 is one copy of source 1: its source, transform, size, add 0, copy, offset.
	want := binary.AppendVarint(binary.AppendUvarint(binary.AppendUvarint(binary.AppendUvarint(append(binary.AppendUvarint(nil, 1), plain), uint64(len(secs[0]))), 0), uint64(len(secs[0]))), 0)
	if !bytes.Contains(delta, want) {
		t.Errorf("section 0 is not one copy of source 1")
	}
	if len(delta) < len(far) {
		t.Errorf("delta %d bytes: a run found %d bytes past the last", len(delta), maxMiss)
	}
}

// TestSourceParts codes a section against a source given in parts (an empty one among
// them): the section Apply makes is views of those parts, and the next section's
// Predictor is given them.
func TestSourceParts(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	baseRows, fileRows := rows(r, 100), rows(r, 100)
	b, f := file(baseRows, []byte("tail")), file(fileRows, []byte("tail"))
	secs, err := binfile.Split(f, head)
	if err != nil {
		t.Fatal(err)
	}
	src := slices.Clone(secs[0])
	var views bool
	predict := func(i, k int, base [][]byte, made [][][]byte) ([][]byte, bool, error) {
		switch {
		case i == 0 && k == 1:
			return [][]byte{src[:7], nil, src[7:100], src[100:]}, true, nil
		case i == 1 && k == 1:
			views = len(made[0]) == 3 && &made[0][0][0] == &src[0] && &made[0][1][0] == &src[7] && &made[0][2][0] == &src[100]
			return [][]byte{secs[1]}, true, nil
		}
		return nil, false, nil
	}
	delta, err := encode(b, f, predict)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := apply(t, b, delta, 1<<30, predict); err != nil || !bytes.Equal(got, f) {
		t.Fatalf("%v, or the file made differs", err)
	}
	if !views {
		t.Errorf("section 0 made is not views of its source's parts")
	}
}

// TestApplyStopsItsWriterOnPanic: a Predictor that panics does not leave Apply's writer
// goroutine behind, blocked on its queue (or still writing parts of a base the caller
// unmaps as the panic unwinds).
func TestApplyStopsItsWriterOnPanic(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	b, f := file(rows(r, 100), []byte("tail")), file(rows(r, 100), []byte("tail"))
	secs, err := binfile.Split(f, head)
	if err != nil {
		t.Fatal(err)
	}
	enc := func(i, k int, base [][]byte, made [][][]byte) ([][]byte, bool, error) {
		if k == 1 && i < 2 {
			return [][]byte{secs[i]}, true, nil
		}
		return nil, false, nil
	}
	delta, err := encode(b, f, enc)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Parse(delta)
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Apply returned; want the predictor's panic")
			}
		}()
		d.Apply(&bytes.Buffer{}, b, head, 1<<30, func(i, k int, base [][]byte, made [][][]byte) ([][]byte, bool, error) {
			if i == 1 {
				panic("predictor")
			}
			return enc(i, k, base, made)
		})
	}()
	for deadline := time.Now().Add(2 * time.Second); runtime.NumGoroutine() > before; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("goroutines %d before Apply, %d after its panic: its writer is left blocked", before, runtime.NumGoroutine())
		}
	}
}
