package ical

import (
	"reflect"
	"strings"
	"testing"
)

func TestLexer(t *testing.T) {
	type line struct {
		n    int
		text string
	}
	tests := []struct {
		name string
		in   string
		want []line
	}{
		{"crlf", "A:1\r\nB:2\r\n", []line{{1, "A:1"}, {2, "B:2"}}},
		{"lf", "A:1\nB:2", []line{{1, "A:1"}, {2, "B:2"}}},
		{"mixed", "A:1\r\nB:2\nC:3\r\n", []line{{1, "A:1"}, {2, "B:2"}, {3, "C:3"}}},
		{"fold with space", "A:ab\r\n cd\r\nB:2\r\n", []line{{1, "A:abcd"}, {3, "B:2"}}},
		{"fold with tab", "A:ab\n\tcd\n", []line{{1, "A:abcd"}}},
		{"fold keeps further space", "A:ab\n  cd\n", []line{{1, "A:ab cd"}}},
		{"several folds", "A:a\n b\n c\nB:\n", []line{{1, "A:abc"}, {4, "B:"}}},
		{"fold splits a character", "A:J\xc3\r\n \xb6rg\r\n", []line{{1, "A:Jörg"}}},
		{"fold splits a 4-byte character", "A:\xf0\x9f\n \x8e\xb8!\n", []line{{1, "A:🎸!"}}},
		{"invalid utf-8", "A:Caf\xe9\n", []line{{1, "A:Caf\uFFFD"}}},
		{"truncated character", "A:J\xc3", []line{{1, "A:J\uFFFD"}}},
		{"blank lines", "\r\n\nA:1\n", []line{{1, ""}, {2, ""}, {3, "A:1"}}},
		{"bare cr stays", "A:1\r2\n", []line{{1, "A:1\r2"}}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lx := lexer{data: []byte(tt.in)}
			var got []line
			for {
				n, text, long, ok := lx.next()
				if !ok {
					break
				}
				if long {
					t.Fatalf("line %d is long", n)
				}
				got = append(got, line{n, text})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestLexerLongLine(t *testing.T) {
	half := strings.Repeat("x", maxLine/2+1)
	doc := "A:" + half + "\n " + half + "\nB:2\n" + "C:" + strings.Repeat("y", maxLine) + "\nD:4\n"
	lx := lexer{data: []byte(doc)}
	var got []string
	for {
		_, text, long, ok := lx.next()
		if !ok {
			break
		}
		if long {
			text = "long"
		}
		got = append(got, text)
	}
	want := []string{"long", "B:2", "long", "D:4"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %.20q, want %q", got, want)
	}
}

func TestParseProp(t *testing.T) {
	tests := []struct {
		in   string
		want prop
		err  string
	}{
		{in: "SUMMARY:Night Owls", want: prop{name: "SUMMARY", value: "Night Owls"}},
		{in: "summary:x", want: prop{name: "SUMMARY", value: "x"}},
		{in: "X-WR-CALNAME:A:B;C", want: prop{name: "X-WR-CALNAME", value: "A:B;C"}},
		{in: "DESCRIPTION:", want: prop{name: "DESCRIPTION"}},
		{
			in: "DTSTART;TZID=Europe/Berlin:20260310T200000",
			want: prop{name: "DTSTART", params: []param{{"TZID", []string{"Europe/Berlin"}}},
				value: "20260310T200000"},
		},
		{
			in: `ATTENDEE;CN="Doe, Jane; Booker: Main";role=CHAIR:mailto:jane@example.org`,
			want: prop{name: "ATTENDEE", params: []param{
				{"CN", []string{"Doe, Jane; Booker: Main"}}, {"ROLE", []string{"CHAIR"}},
			}, value: "mailto:jane@example.org"},
		},
		{
			in:   `X-A;MEMBER="a:1","b;2",c:v`,
			want: prop{name: "X-A", params: []param{{"MEMBER", []string{"a:1", "b;2", "c"}}}, value: "v"},
		},
		{
			in:   `X-A;P=:v`,
			want: prop{name: "X-A", params: []param{{"P", []string{""}}}, value: "v"},
		},
		{
			in:   `X-A;P="say ^'hi^' ^^ ^n":v`,
			want: prop{name: "X-A", params: []param{{"P", []string{"say \"hi\" ^ \n"}}}, value: "v"},
		},
		{in: "no colon", err: "not a content line"},
		{in: ":value", err: "not a content line"},
		{in: "BAD NAME:x", err: "not a content line"},
		{in: `DTSTART;TZID="Europe/Berlin:2026`, want: prop{name: "DTSTART"}, err: "unterminated quoted parameter value"},
		{in: `DTSTART;TZID:2026`, want: prop{name: "DTSTART"}, err: "malformed parameter"},
		{in: `DTSTART;TZID=a"b":2026`, want: prop{name: "DTSTART", params: []param{{"TZID", []string{"a"}}}}, err: "no ':' before the value"},
		{in: `DTSTART;TZID=X`, want: prop{name: "DTSTART", params: []param{{"TZID", []string{"X"}}}}, err: "no ':' before the value"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parseProp(tt.in)
			if msg := errText(err); msg != tt.err {
				t.Errorf("error %q, want %q", msg, tt.err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestUnescape(t *testing.T) {
	tests := []struct{ in, want string }{
		{`plain`, `plain`},
		{`a\, b\; c\\d`, `a, b; c\d`},
		{`line\nbreak\Nagain`, "line\nbreak\nagain"},
		{`keep \: and \x`, `keep \: and \x`},
		{`trailing \`, `trailing \`},
		{`\\n is not a newline`, `\n is not a newline`},
	}
	for _, tt := range tests {
		if got := unescape(tt.in); got != tt.want {
			t.Errorf("unescape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSplitText(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{`Indie,Shoegaze`, []string{"Indie", "Shoegaze"}},
		{`Live\, loud,Jazz`, []string{"Live, loud", "Jazz"}},
		{`a\\,b`, []string{`a\`, "b"}},
		{`one`, []string{"one"}},
		{``, []string{""}},
	}
	for _, tt := range tests {
		if got := splitText(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("splitText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  Night \n Owls\t", "Night Owls"},
		{"Rock &amp; Roll &#8211; live", "Rock & Roll – live"},
		{"a\x00b\x1fc\uFEFFd", "abcd"},
		{strings.Repeat("é", 300), strings.Repeat("é", 250)},
	}
	for _, tt := range tests {
		if got := text(tt.in); got != tt.want {
			t.Errorf("text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
