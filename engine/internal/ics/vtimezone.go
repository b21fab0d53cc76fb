package ics

import (
	"strconv"
	"time"
)

// AppendVTimezone writes the VTIMEZONE of loc (TZID its name) covering the instants from
// from to to: one STANDARD or DAYLIGHT component for the observance in effect at from,
// and one per transition of Go's zone database up to to, each with its onset as DTSTART
// (the local time before the change, as RFC 5545 3.6.5 reads it), TZOFFSETFROM,
// TZOFFSETTO and TZNAME, without RRULE: what any reader computes from it is the
// database's offsets, with no rule to interpret. from must not be after to.
func (w *Writer) AppendVTimezone(loc *time.Location, from, to time.Time) {
	w.Line("BEGIN", "VTIMEZONE")
	w.Prop("TZID").Raw(loc.String()).End()
	at := from.In(loc)
	start, _ := at.ZoneBounds()
	before := at
	onset := time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC) // a zone without transitions
	if !start.IsZero() {
		before = start.Add(-time.Second).In(loc)
		onset = start
	}
	w.observance(at, before, onset)
	for {
		_, end := at.ZoneBounds()
		if end.IsZero() || end.After(to) {
			break
		}
		next := end.In(loc)
		w.observance(next, at, end)
		at = next
	}
	w.Line("END", "VTIMEZONE")
}

// observance writes the component of the observance in effect at t, begun at the
// instant onset, after the one in effect at prev.
func (w *Writer) observance(t, prev, onset time.Time) {
	kind := "STANDARD"
	if t.IsDST() {
		kind = "DAYLIGHT"
	}
	name, off := t.Zone()
	_, prevOff := prev.Zone()
	w.Line("BEGIN", kind)
	w.Prop("DTSTART").Local(onset.UTC().Add(time.Duration(prevOff) * time.Second)).End()
	w.Prop("TZOFFSETFROM").offset(prevOff).End()
	w.Prop("TZOFFSETTO").offset(off).End()
	w.Prop("TZNAME").Text(name).End()
	w.Line("END", kind)
}

// offset appends a UTC offset in seconds as RFC 5545's UTC-OFFSET: "+0100", "-0930",
// "+053328" when it has seconds.
func (w *Writer) offset(sec int) *Writer {
	sign := byte('+')
	if sec < 0 {
		sign, sec = '-', -sec
	}
	w.line = append(w.line, sign)
	w.line = append2(w.line, sec/3600)
	w.line = append2(w.line, sec/60%60)
	if sec%60 != 0 {
		w.line = append2(w.line, sec%60)
	}
	return w
}

func append2(b []byte, n int) []byte {
	if n < 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, int64(n), 10)
}
