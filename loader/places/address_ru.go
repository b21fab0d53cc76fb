package places

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// settlementTypes are the words, and their abbreviations, that addresses written in
// Cyrillic put before a town's name: "г." (город, a town), "пос."/"п." (посёлок), "пгт"
// and "рп" (urban-type and workers' settlements), "с." (село), "д." (деревня), "ст." and
// "ст-ца" (станица), "х." (хутор), the Ukrainian "м." (місто) and "смт", "аул". A type of
// one or two letters is read with its dot only ("г. Чита", not the "с" of "с 9:00").
var settlementTypes = []string{
	"г", "гор", "город", "п", "пос", "посёлок", "поселок", "пгт", "рп", "с", "село", "д", "дер", "деревня",
	"ст", "ст-ца", "станица", "х", "хутор", "м", "місто", "смт", "аул",
}

// settlementTown reads a line written in Cyrillic one of whose parts is a town after its
// settlement's type, as Russian, Ukrainian and Belarusian addresses write it, whatever
// comes before the part (a postcode, the region) or after it (the street): "658083
// Алтайский край, г. Новоалтайск", "Липецкая область, г. Липецк, ул. Л. Толстого, дом 1",
// "г.Пермь, ул. Дзержинского 15". The town is that part without its type; the place's
// stated region and country stay.
func settlementTown(_ *Gazetteer, r *lineReading) bool {
	if scriptOf(r.p.Locality) != cyrillicScript {
		return false
	}
	// "м." is the Ukrainian місто only in Ukrainian text: in Russian it is a metro station
	// ("Клуб, м. Сокол, Москва" is in Moscow).
	ukrainian := strings.ContainsAny(r.p.Locality, "іїєґІЇЄҐ")
	for s := r.p.Locality; s != ""; {
		var part string
		part, s, _ = strings.Cut(s, ",")
		if town, ok := afterSettlementType(strings.TrimSpace(part), ukrainian); ok {
			q := r.p
			q.Locality = stripPostal(town)
			r.out = append(r.out, q)
			return true
		}
	}
	return false
}

// afterSettlementType returns the name after a settlement's type that starts s (see
// settlementTypes), when a capital letter starts it: "Новоалтайск" of "г. Новоалтайск",
// not the house of "д. 41". The Ukrainian "м." counts only when ukrainian is set.
func afterSettlementType(s string, ukrainian bool) (string, bool) {
	i := strings.IndexAny(s, ". ")
	if i <= 0 {
		return "", false
	}
	word, dot := s[:i], s[i] == '.'
	found := false
	for _, t := range settlementTypes {
		if strings.EqualFold(word, t) && (dot || utf8.RuneCountInString(t) >= 3) && (t != "м" || ukrainian) {
			found = true
			break
		}
	}
	if !found {
		return "", false
	}
	name := strings.TrimSpace(s[i+1:])
	first, _ := utf8.DecodeRuneInString(name)
	return name, unicode.IsUpper(first)
}
