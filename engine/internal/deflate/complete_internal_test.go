package deflate

import "testing"

// TestComplete checks the prefix-code check ReadCoder makes of a header's code lengths: a
// damaged header whose code is over-subscribed or leaves codes unused is no Coder's.
func TestComplete(t *testing.T) {
	for _, tt := range []struct {
		name    string
		lengths []uint8
		want    bool
	}{
		{"two of one bit", []uint8{1, 1}, true},
		{"one, then two of two bits", []uint8{1, 2, 2}, true},
		{"fifteen bits at the deep end", append([]uint8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}, 15, 15), true},
		{"over-subscribed", []uint8{1, 1, 1}, false},
		{"a code left unused", []uint8{1, 2}, false},
		{"none", nil, false},
	} {
		if got := complete(tt.lengths); got != tt.want {
			t.Errorf("%s: complete(%v) = %v, want %v", tt.name, tt.lengths, got, tt.want)
		}
	}
	c := NewCoder([][]byte{[]byte(`{"id":"g1","title":"Motörhead"}`)})
	if _, err := ReadCoder(c.AppendFragment(nil, []byte(`{"id":"g2"}`), new(Matcher))); err != nil {
		t.Errorf("a Coder's own fragment refused: %v", err)
	}
}
