package mcp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

var testArgs = []arg{{name: "city", query: "city", typ: "array"}, {name: "page_size", query: "page_size", typ: "integer"},
	{name: "q", query: "q", typ: "string"}, {name: "cursor", query: "after", typ: "string"}}

func TestReadArgs(t *testing.T) {
	tests := []struct {
		in   string
		want args
		bad  []string // the arguments named, in order
	}{
		{``, args{}, nil},
		{`null`, args{}, nil},
		{`{}`, args{}, nil},
		{`{"city":["Lisbon","porto"],"page_size":5,"q":"fado"}`, args{"city": "Lisbon,porto", "page_size": "5", "q": "fado"}, nil},
		{`{"city":"Lisbon, Porto"}`, args{"city": "Lisbon, Porto"}, nil}, // one string: the API's own list
		{`{"city":null,"cursor":"1.x"}`, args{"cursor": "1.x"}, nil},
		{`{"city":["Washington, D.C."]}`, nil, []string{"city"}},
		{`{"city":7,"page_size":2.5,"q":["a"],"town":"x"}`, nil, []string{"city", "page_size", "q", "town"}},
		{`{"page_size":"5"}`, args{"page_size": "5"}, nil}, // as command-line clients send numbers
		{`{"page_size":"five"}`, nil, []string{"page_size"}},
		{`{"page_size":1e400}`, nil, []string{"page_size"}},
		{`[1]`, nil, []string{"arguments"}},
		{`{"q":"a"`, nil, []string{"arguments"}},
	}
	for _, tc := range tests {
		got, bad := readArgs(testArgs, json.RawMessage(tc.in))
		var names []string
		for _, b := range bad {
			names = append(names, b.Name)
		}
		if !reflect.DeepEqual(names, tc.bad) || tc.bad == nil && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, bad %v; want %v, bad %v", tc.in, got, bad, tc.want, tc.bad)
		}
	}
}

// FuzzReadArgs: any bytes give arguments of known names only, or problems naming some.
func FuzzReadArgs(f *testing.F) {
	for _, s := range []string{`{"city":["a","b"],"page_size":5}`, `{"q":"x","x":1}`, `null`, `{"city":"a,b"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, bad := readArgs(testArgs, raw)
		if len(bad) > 0 {
			for _, b := range bad {
				if b.Name == "" || b.Reason == "" {
					t.Errorf("%q: a problem %+v without name or reason", raw, b)
				}
			}
			return
		}
		for name := range got {
			if !strings.Contains("city page_size q cursor", name) {
				t.Errorf("%q: unknown argument %q read", raw, name)
			}
		}
	})
}

func TestParsePoint(t *testing.T) {
	for _, tc := range []struct {
		in       string
		lat, lon float64
		ok       bool
	}{
		{"38.72,-9.14", 38.72, -9.14, true},
		{" 38.72 , -9.14 ", 38.72, -9.14, true},
		{"Lisbon", 0, 0, false},
		{"Washington, D.C.", 0, 0, false},
		{"NaN,1", 0, 0, false},
		{"1,2,3", 0, 0, false},
	} {
		lat, lon, ok := parsePoint(tc.in)
		if ok != tc.ok || ok && (lat != tc.lat || lon != tc.lon) {
			t.Errorf("%q: %v %v %v", tc.in, lat, lon, ok)
		}
	}
}
