package places

import (
	"runtime"
	"strings"
	"testing"
)

// TestCountryCodeLongInput: a country's name of a mebibyte of "the " (a hostile
// addressCountry) costs no stack: the article is cut once, never recursively.
func TestCountryCodeLongInput(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if code, ok := countryCode(strings.Repeat("the ", 1<<18)); ok {
		t.Errorf("a mebibyte of \"the \" is %s", code)
	}
	runtime.ReadMemStats(&after)
	if grown := int64(after.StackSys) - int64(before.StackSys); grown > 1<<20 {
		t.Errorf("countryCode of 1 MiB grew the stack by %d MiB", grown>>20)
	}
	for _, c := range []struct{ name, want string }{{"the UK", "GB"}, {"The Netherlands", "NL"}, {"the Gambia", "GM"}, {"Bahamas", "BS"}} {
		if got, _ := countryCode(c.name); got != c.want {
			t.Errorf("countryCode(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}
