package engine_test

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gigs/gigs/engine"
	"github.com/gigs/gigs/testkit/scale"
)

func TestDatasetFile(t *testing.T) {
	ds := scale.Generate(scale.Config{Gigs: 500, Seed: 3, Now: time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)})
	var buf bytes.Buffer
	if err := engine.WriteDataset(&buf, ds); err != nil {
		t.Fatal(err)
	}
	file := buf.Bytes()
	got, err := engine.ReadDataset(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	// What is read back builds the same bodies.
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	bodies := func(ds *engine.Dataset) string {
		snap, err := engine.Build(ds, engine.Options{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		export, err := io.ReadAll(snap.Export().Body(snap, false, 0, snap.Export().Size))
		if err != nil {
			t.Fatal(err)
		}
		return string(export) + string(snap.Venues().Raw) + string(snap.Artists().Raw)
	}
	if bodies(got) != bodies(ds) {
		t.Fatal("the dataset read back builds other bodies")
	}
	for name, tt := range map[string]struct {
		data []byte
		want string
	}{
		"empty":         {nil, "not a dataset file"},
		"not one":       {[]byte("{\"gigs\": []}"), "not a dataset file"},
		"other version": {append([]byte("gigs-dataset\n\x07"), file[14:]...), "version 7"},
		"cut short":     {file[:len(file)/2], "cannot decode dataset"},
	} {
		if _, err := engine.ReadDataset(bytes.NewReader(tt.data)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", name, err, tt.want)
		}
	}
}
