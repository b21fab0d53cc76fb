//go:build race

package engine_test

// raceEnabled: sync.Pool drops items on purpose under -race, so pooled allocation gates skip.
const raceEnabled = true
