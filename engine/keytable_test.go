package engine

import (
	"errors"
	"fmt"
	"testing"
)

func TestKeyTable(t *testing.T) {
	many := make([]string, 5000)
	for i := range many {
		many[i] = fmt.Sprintf("g%d", i)
	}
	tests := []struct {
		name  string
		keys  []string
		twice bool   // a key is given twice ...
		dup   string // ... and the error names it
	}{
		{"none", nil, false, ""},
		{"one empty", []string{""}, false, ""},
		{"unique", []string{"a", "b", "ab", "ba", "aa"}, false, ""},
		{"many unique", many, false, ""},
		{"prefix is not a twin", []string{"abc", "ab", "abcd"}, false, ""},
		{"twice in a row", []string{"a", "b", "b"}, true, "b"},
		{"twice far apart", append(append([]string{}, many...), "g17"), true, "g17"},
		{"empty twice", []string{"", "x", ""}, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kt, err := newKeyTable(tt.keys)
			var dup *duplicateKeyError
			if !tt.twice {
				if err != nil {
					t.Fatalf("error %v for unique keys", err)
				}
			} else if !errors.As(err, &dup) || dup.key != tt.dup {
				t.Fatalf("error %v, want %q given twice", err, tt.dup)
			}
			if err != nil {
				return
			}
			for i, k := range tt.keys {
				if got, ok := kt.find(k); !ok || got != i {
					t.Errorf("find(%q) = %d, %v; want %d", k, got, ok, i)
				}
			}
			if _, ok := kt.find("absent"); ok {
				t.Error("found a key it was not given")
			}
		})
	}
}
