package engine

import (
	"reflect"
	"testing"
	"time"
)

// TestGigInputsCoverEveryField changes each field of a gig, and of its lists' items, in
// turn: every change changes the gig's input hash, so that no gig whose body may differ
// is taken from the previous snapshot (a field added to Gig and not hashed fails here).
func TestGigInputsCoverEveryField(t *testing.T) {
	at := time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	price := 10.0
	ds := &Dataset{
		Cities:  []City{{Slug: "berlin", Name: "Berlin", Country: "DE", Timezone: "Europe/Berlin"}},
		Venues:  []Venue{{Slug: "so36", Name: "SO36", City: "berlin"}, {Slug: "lido", Name: "Lido", City: "berlin"}},
		Artists: []Artist{{Slug: "a", Name: "A"}, {Slug: "b", Name: "B"}},
		Genres:  []Genre{{Slug: "rock", Name: "Rock"}},
		Gigs: []Gig{{ID: "g1", Title: "T", Venue: "so36", Start: at, End: at.Add(time.Hour), Doors: at, PreviousStart: at, OnSale: at,
			Image: "https://i.example/x", MinAge: 16, HasMinAge: true, Artists: []Billing{{Artist: "a", Headliner: true}}, Genres: []string{"rock"},
			Tickets: []Ticket{{URL: "https://t.example/", Source: "s", PriceMin: &price, PriceMax: &price, Currency: "EUR", Availability: "in_stock"}},
			Sources: []Attribution{{Name: "s", URL: "https://s.example/"}}}},
	}
	sum := func() uint64 {
		t.Helper()
		cat, err := newCatalog(ds)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := cat.selectGigs(at.Add(-time.Hour))
		if err != nil || len(rows) != 1 {
			t.Fatalf("%d rows, %v", len(rows), err)
		}
		h, _ := newGigInputs(newGigWriter(cat)).sum(nil, cat, &rows[0])
		return h
	}
	base := sum()
	// change alters v, a field of the gig or of one of its lists' items, and checks the sum.
	var change func(v reflect.Value, path string)
	change = func(v reflect.Value, path string) {
		old := reflect.New(v.Type()).Elem()
		old.Set(v)
		switch v.Kind() {
		case reflect.Struct:
			if v.Type() != reflect.TypeFor[time.Time]() {
				for i := range v.NumField() {
					change(v.Field(i), path+"."+v.Type().Field(i).Name)
				}
				return
			}
			v.Set(reflect.ValueOf(v.Interface().(time.Time).Add(time.Second)))
		case reflect.Slice:
			if v.Type().Elem().Kind() == reflect.Struct {
				clone := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
				reflect.Copy(clone, v)
				v.Set(clone)
				change(v.Index(0), path+"[0]")
				v.Set(old)
			}
			v.Set(reflect.Append(reflect.MakeSlice(v.Type(), 0, v.Len()+1), v.Index(0)))
			v.Set(reflect.AppendSlice(v, old))
		case reflect.String:
			switch path {
			case ".Venue":
				v.SetString("lido")
			case ".Artists[0].Artist":
				v.SetString("b")
			case ".Genres":
			case ".Status":
				v.SetString(string(StatusCancelled))
			default:
				v.SetString(v.String() + "x")
			}
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.Int:
			v.SetInt(v.Int() + 1)
		case reflect.Pointer:
			v.Set(reflect.ValueOf(new(float64(11))))
		default:
			t.Fatalf("%s: a %s, which this test cannot change", path, v.Kind())
		}
		if sum() == base {
			t.Errorf("changing %s left the input hash as it was", path)
		}
		v.Set(old)
	}
	change(reflect.ValueOf(&ds.Gigs[0]).Elem(), "")
	if sum() != base {
		t.Fatal("the gig was not restored")
	}
}
