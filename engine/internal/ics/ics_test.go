package ics

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestAppendText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain", "plain"},
		{`a,b;c\d`, `a\,b\;c\\d`},
		{"one\ntwo\r\nthree\rfour", `one\ntwo\nthree\nfour`},
		{"tab\there", "tab\there"},
		{"bell\x07 del\x7f nul\x00", "bell del nul"},
		{"Sigur Rós 上原ひろみ", "Sigur Rós 上原ひろみ"},
		{"bad \xff byte", "bad \uFFFD byte"},
		{`"quoted": fine`, `"quoted": fine`},
	} {
		if got := string(AppendText(nil, tt.in)); got != tt.want {
			t.Errorf("AppendText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestAppendFolded(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		want     []string // physical lines
	}{
		{"short", "SUMMARY:x", []string{"SUMMARY:x"}},
		{"exactly 75", "X:" + strings.Repeat("a", 73), []string{"X:" + strings.Repeat("a", 73)}},
		{"76", "X:" + strings.Repeat("a", 74), []string{"X:" + strings.Repeat("a", 73), " a"}},
		{"continuations hold 74", "X:" + strings.Repeat("a", 73+74+1), []string{"X:" + strings.Repeat("a", 73), " " + strings.Repeat("a", 74), " a"}},
		// "é" is two octets at octets 75 and 76: the fold goes before it.
		{"no split of a character", "X:" + strings.Repeat("a", 72) + "éz", []string{"X:" + strings.Repeat("a", 72), " éz"}},
		// Three-octet characters from octet 74: the first fits, the second does not.
		{"three octets", "X:" + strings.Repeat("a", 70) + "日本", []string{"X:" + strings.Repeat("a", 70) + "日", " 本"}},
	} {
		got := string(AppendFolded(nil, []byte(tt.in)))
		if want := strings.Join(tt.want, "\r\n") + "\r\n"; got != want {
			t.Errorf("%s: got %q, want %q", tt.name, got, want)
		}
	}
}

// unfold undoes AppendFolded on a whole stream: its logical lines.
func unfold(b []byte) [][]byte {
	b = bytes.ReplaceAll(b, []byte("\r\n "), nil)
	return bytes.Split(bytes.TrimSuffix(b, []byte("\r\n")), []byte("\r\n"))
}

// unescape reads a TEXT value AppendText wrote.
func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == 'n' {
				b.WriteByte('\n')
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// FuzzTextLine: any text, escaped and folded, gives physical lines of at most 75 octets,
// each valid UTF-8 and ended by CRLF, which unfold and unescape to the text (its line
// breaks as LF, control characters gone, invalid bytes as U+FFFD).
func FuzzTextLine(f *testing.F) {
	for _, s := range []string{"", "a,b;c\\d", "one\r\ntwo", strings.Repeat("é", 60), strings.Repeat("日本", 40) + "\n" + strings.Repeat("x", 200), "\xff\xfe", "\r\r\n\n"} {
		f.Add(s, 0)
		f.Add(s, 7)
	}
	f.Fuzz(func(t *testing.T, s string, pad int) {
		pad = max(0, min(pad, 200)) // a property name of any length before the value
		var w Writer
		w.Prop("X-" + strings.Repeat("P", pad)).Text(s).End()
		out := w.B
		if !bytes.HasSuffix(out, []byte("\r\n")) {
			t.Fatalf("no CRLF at the end: %q", out)
		}
		for _, line := range bytes.Split(bytes.TrimSuffix(out, []byte("\r\n")), []byte("\r\n")) {
			if len(line) > MaxLine || !utf8.Valid(line) || bytes.ContainsAny(line, "\r\n") {
				t.Fatalf("physical line %q of %d octets", line, len(line))
			}
		}
		lines := unfold(out)
		if len(lines) != 1 {
			t.Fatalf("%d logical lines", len(lines))
		}
		got := unescape(strings.TrimPrefix(string(lines[0]), "X-"+strings.Repeat("P", pad)+":"))
		var valid []rune // each invalid byte is one U+FFFD
		for _, r := range s {
			valid = append(valid, r)
		}
		want := string(valid)
		want = strings.ReplaceAll(strings.ReplaceAll(want, "\r\n", "\n"), "\r", "\n")
		want = strings.Map(func(r rune) rune {
			if r < 0x20 && r != '\t' && r != '\n' || r == 0x7f {
				return -1
			}
			return r
		}, want)
		if got != want {
			t.Fatalf("read back %q, want %q", got, want)
		}
	})
}

func TestVTimezone(t *testing.T) {
	load := func(name string) *time.Location {
		l, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 12, 0, 0, 0, time.UTC) }
	for _, tt := range []struct {
		zone     string
		from, to time.Time
		want     string
	}{
		{"Europe/Paris", day(2027, 3, 20), day(2027, 4, 10), "BEGIN:VTIMEZONE\r\nTZID:Europe/Paris\r\n" +
			"BEGIN:STANDARD\r\nDTSTART:20261025T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nTZNAME:CET\r\nEND:STANDARD\r\n" +
			"BEGIN:DAYLIGHT\r\nDTSTART:20270328T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nTZNAME:CEST\r\nEND:DAYLIGHT\r\n" +
			"END:VTIMEZONE\r\n"},
		// Half an hour of daylight saving, ending at 02:00 local daylight time.
		{"Australia/Lord_Howe", day(2027, 3, 20), day(2027, 4, 10), "BEGIN:VTIMEZONE\r\nTZID:Australia/Lord_Howe\r\n" +
			"BEGIN:DAYLIGHT\r\nDTSTART:20261004T020000\r\nTZOFFSETFROM:+1030\r\nTZOFFSETTO:+1100\r\nTZNAME:+11\r\nEND:DAYLIGHT\r\n" +
			"BEGIN:STANDARD\r\nDTSTART:20270404T020000\r\nTZOFFSETFROM:+1100\r\nTZOFFSETTO:+1030\r\nTZNAME:+1030\r\nEND:STANDARD\r\n" +
			"END:VTIMEZONE\r\n"},
		{"UTC", day(2027, 1, 1), day(2027, 12, 1), "BEGIN:VTIMEZONE\r\nTZID:UTC\r\n" +
			"BEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:+0000\r\nTZOFFSETTO:+0000\r\nTZNAME:UTC\r\nEND:STANDARD\r\n" +
			"END:VTIMEZONE\r\n"},
	} {
		var w Writer
		w.AppendVTimezone(load(tt.zone), tt.from, tt.to)
		if string(w.B) != tt.want {
			t.Errorf("%s:\n%s\nwant\n%s", tt.zone, w.B, tt.want)
		}
	}
}

// TestVTimezoneAgrees: over two years of many zones, the offset the components give each
// hour (the last onset at or before it) is the database's.
func TestVTimezoneAgrees(t *testing.T) {
	from, to := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2028, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, name := range []string{"Europe/Paris", "America/New_York", "America/St_Johns", "Australia/Lord_Howe", "Asia/Kathmandu",
		"Pacific/Chatham", "America/Santiago", "Africa/Casablanca", "Asia/Tehran", "Pacific/Kiritimati", "Europe/Dublin"} {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		var w Writer
		w.AppendVTimezone(loc, from, to)
		type onset struct {
			at  time.Time // UTC
			off int
		}
		var onsets []onset
		var start time.Time
		var fromOff int
		for _, line := range strings.Split(string(w.B), "\r\n") {
			k, v, _ := strings.Cut(line, ":")
			switch k {
			case "DTSTART":
				start, _ = time.Parse("20060102T150405", v)
			case "TZOFFSETFROM":
				fromOff = parseOffset(t, v)
			case "TZOFFSETTO":
				onsets = append(onsets, onset{start.Add(-time.Duration(fromOff) * time.Second), parseOffset(t, v)})
			}
		}
		for h := from; h.Before(to); h = h.Add(time.Hour) {
			off := 0
			for _, o := range onsets {
				if !o.at.After(h) {
					off = o.off
				}
			}
			if _, want := h.In(loc).Zone(); off != want {
				t.Fatalf("%s at %v: %d, want %d\n%s", name, h, off, want, w.B)
			}
		}
	}
}

func parseOffset(t *testing.T, v string) int {
	sign := 1
	if v[0] == '-' {
		sign = -1
	}
	n := 0
	for i, mul := range []int{3600, 60, 1} {
		if 1+2*i+2 <= len(v) {
			d := int(v[1+2*i]-'0')*10 + int(v[2+2*i]-'0')
			n += d * mul
		}
	}
	return sign * n
}
