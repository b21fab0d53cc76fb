package loader

import "testing"

func TestCurrency(t *testing.T) {
	for _, c := range []struct{ stated, country, want string }{
		{"EUR", "DE", "EUR"},
		{"usd", "DE", "USD"},
		{"", "DE", "EUR"},
		{"", "GB", "GBP"},
		{"", "JP", "JPY"},
		{"", "US", "USD"},
		{"$", "CA", "CAD"},
		{"$", "MX", "MXN"},
		{"$", "DE", "USD"},
		{"€", "US", "EUR"},
		{"£", "IE", "GBP"},
		{"kr", "SE", "SEK"},
		{"kr", "NO", "NOK"},
		{"¥", "CN", "CNY"},
		{"¥", "JP", "JPY"},
		{"dollars", "AU", "AUD"},
		{"12", "CH", "CHF"},
		{"", "", ""},
	} {
		if got := currency(c.stated, c.country); got != c.want {
			t.Errorf("currency(%q, %q) = %q, want %q", c.stated, c.country, got, c.want)
		}
	}
}
