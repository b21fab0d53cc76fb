package gzipbytes

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the CPU time of the calling thread (who: syscall.RUSAGE_THREAD) or of
// the process (syscall.RUSAGE_SELF).
func cpuTime(t *testing.T, who int) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestPartsWriterOneWorkerOnCallersThread compresses a body on one worker from a goroutine
// locked to its thread, as gigsd's refresh runs at a lower priority than its server: most of
// the process's CPU time must be the caller's thread's. pgzip, which compresses each block on
// a goroutine of its own, spent almost none of it there.
func TestPartsWriterOneWorkerOnCallersThread(t *testing.T) {
	raw := body(16 * blockSize)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	runtime.GC()
	thread, self := cpuTime(t, 1 /* RUSAGE_THREAD */), cpuTime(t, syscall.RUSAGE_SELF)
	w, err := NewPartsWriter(1, 4<<20, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(raw); err != nil {
		t.Fatal(err)
	}
	if _, _, err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	thread, self = cpuTime(t, 1)-thread, cpuTime(t, syscall.RUSAGE_SELF)-self
	if thread < self/2 {
		t.Fatalf("the caller's thread spent %s of the process's %s compressing", thread, self)
	}
	t.Logf("the caller's thread spent %s of the process's %s compressing", thread, self)
}
