//go:build race

package server

// raceEnabled is set under -race, where sync.Pool drops items on purpose and allocation
// counts mean nothing; `make test` runs the allocation gates in a pass without -race.
const raceEnabled = true
