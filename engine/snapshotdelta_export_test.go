package engine

import "github.com/gigs/gigs/engine/internal/bindelta"

// DeltaSections is how d codes each section of its file (see bindelta.Delta.Sections).
func DeltaSections(d *SnapshotDelta) ([]bindelta.Section, error) { return d.d.Sections() }
