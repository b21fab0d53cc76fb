package engine

import "testing"

func TestFold(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Motörhead", "motorhead"},
		{"MOTORHEAD!", "motorhead"},
		{"São Paulo", "sao paulo"},
		{"sao-paulo", "sao paulo"},
		{"  Kraków  ", "krakow"},
		{"Sigur Rós", "sigur ros"},
		{"Røyksopp", "royksopp"},
		{"Mötley Crüe", "motley crue"},
		{"Straße", "strasse"},
		{"Łódź", "lodz"},
		{"Guns N' Roses", "guns n roses"},
		{"Guns N’ Roses", "guns n roses"},
		{"AC/DC", "ac dc"},
		{"ac-dc", "ac dc"},
		{"Œuvre & Æther", "oeuvre aether"},
		{"東京", "東京"},
		{"Москва", "москва"},
		{"", ""},
		{"---", ""},
		{"\xff\xfeabc", "abc"},
	}
	for _, tt := range tests {
		if got := Fold(tt.in); got != tt.want {
			t.Errorf("Fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := Slugify("São Paulo"); got != "sao-paulo" {
		t.Errorf("Slugify = %q", got)
	}
}

func TestAppendFoldAllocations(t *testing.T) {
	in := []byte("Berlin, New-York")
	buf := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { buf = AppendFold(buf[:0], in) }); n != 0 {
		t.Fatalf("AppendFold allocates %v times per call on ASCII input", n)
	}
}
