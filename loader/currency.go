package loader

import (
	"strings"

	"github.com/gigs/gigs/engine"
)

// currencySymbols maps the symbols sources write instead of a code to ISO 4217; "" is a
// symbol several currencies share whose venue's country tells which (kr: DKK, NOK, SEK, ISK).
var currencySymbols = map[string]string{
	"€": "EUR", "£": "GBP", "$": "USD", "US$": "USD", "¥": "JPY", "₩": "KRW", "₹": "INR",
	"CHF": "CHF", "kr": "", "zł": "PLN", "Kč": "CZK", "R$": "BRL", "A$": "AUD", "C$": "CAD",
	"NZ$": "NZD", "₺": "TRY", "₴": "UAH", "₪": "ILS", "฿": "THB", "₱": "PHP",
}

// currency returns the ISO 4217 code of a price stated in the venue's country: the source's
// code when it is one (any case), a symbol read as above, else the country's own currency.
// An unreadable statement is treated as none: the price is the venue's, in its currency.
func currency(stated, country string) string {
	c, _ := engine.LookupCountry(country)
	home := c.Currency
	s := strings.TrimSpace(stated)
	if len(s) == 3 && isLetters(s) {
		return strings.ToUpper(s)
	}
	code, ok := currencySymbols[s]
	switch {
	case !ok || code == "":
		return home
	case s == "$" && dollarCountries[home], s == "¥" && home == "CNY":
		return home // the local dollar or peso (CAD, AUD, MXN, …), the yuan
	}
	return code
}

// dollarCountries are the currencies written with a bare "$" where they are used.
var dollarCountries = map[string]bool{
	"USD": true, "CAD": true, "AUD": true, "NZD": true, "SGD": true, "HKD": true, "TWD": true,
	"MXN": true, "ARS": true, "CLP": true, "COP": true, "UYU": true, "JMD": true, "TTD": true,
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}
