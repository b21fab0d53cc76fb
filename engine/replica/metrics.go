package replica

import "github.com/prometheus/client_golang/prometheus"

// newResults returns a counter of outcomes by result, ok and error, with both series at
// zero from the start: an alert on the first error needs its zero. The caller registers it.
func newResults(name, help string) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, []string{"result"})
	c.WithLabelValues("ok")
	c.WithLabelValues("error")
	return c
}
