//go:build !unix

package engine_test

import "time"

// processCPU is unknown on systems without getrusage.
func processCPU() (time.Duration, bool) { return 0, false }
