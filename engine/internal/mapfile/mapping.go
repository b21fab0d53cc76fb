package mapfile

// Bytes returns the file's bytes, which must not be written, valid until the mapping is
// removed (see UnmapAfter).
func (m Mapping) Bytes() []byte { return m.b }
