//go:build unix

package engine_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has used, user and system, on every thread:
// what a build costs on a machine others share, where its wall time also counts theirs.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
