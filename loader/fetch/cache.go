package fetch

import (
	"container/list"
	"sync"
	"time"
)

// maxCacheEntries caps the entries of a condCache whatever their size, so tiny bodies cannot
// grow the per-entry overhead without bound.
const maxCacheEntries = 1 << 14

// condCache keeps, per URL, the validators and decoded body of the last 200 that had an ETag
// or a Last-Modified, for conditional GET. It is an LRU bounded by the total body bytes
// (maxBytes) and the entry count (maxEntries); entries not asked for in ttl are dropped.
// Memory is thus at most maxBytes plus maxEntries small headers.
type condCache struct {
	maxBytes   int64            // immutable
	maxEntries int              // immutable
	ttl        time.Duration    // immutable
	now        func() time.Time // immutable

	mu    sync.Mutex
	lru   *list.List               // of *condEntry, most recently used first; protected by mu
	byURL map[string]*list.Element // protected by mu
	bytes int64                    // sum of len(body); protected by mu
}

// condEntry is one kept answer. All fields but used are immutable once put.
type condEntry struct {
	url                string
	etag, lastModified string
	body               []byte // never handed out: callers get copies
	contentType        string
	charset, note      string
	used               time.Time // protected by condCache.mu
}

func newCondCache(maxBytes int64, maxEntries int, ttl time.Duration, now func() time.Time) *condCache {
	return &condCache{maxBytes: maxBytes, maxEntries: maxEntries, ttl: ttl, now: now,
		lru: list.New(), byURL: make(map[string]*list.Element)}
}

// get returns the entry for url, or nil, and marks it used.
func (cc *condCache) get(url string) *condEntry {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	now := cc.now()
	cc.expireLocked(now)
	el := cc.byURL[url]
	if el == nil {
		return nil
	}
	e := el.Value.(*condEntry)
	e.used = now
	cc.lru.MoveToFront(el)
	return e
}

// put keeps e, replacing any entry for its URL; a body larger than the whole cache is not
// kept.
func (cc *condCache) put(e *condEntry) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	cc.removeLocked(e.url)
	if int64(len(e.body)) > cc.maxBytes {
		return
	}
	e.used = cc.now()
	cc.byURL[e.url] = cc.lru.PushFront(e)
	cc.bytes += int64(len(e.body))
	for cc.bytes > cc.maxBytes || cc.lru.Len() > cc.maxEntries {
		cc.removeLocked(cc.lru.Back().Value.(*condEntry).url)
	}
	cc.expireLocked(e.used)
}

// remove forgets url.
func (cc *condCache) remove(url string) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	cc.removeLocked(url)
}

func (cc *condCache) removeLocked(url string) {
	el := cc.byURL[url]
	if el == nil {
		return
	}
	cc.lru.Remove(el)
	delete(cc.byURL, url)
	cc.bytes -= int64(len(el.Value.(*condEntry).body))
}

// expireLocked drops entries unused for ttl, oldest first.
func (cc *condCache) expireLocked(now time.Time) {
	for el := cc.lru.Back(); el != nil; el = cc.lru.Back() {
		e := el.Value.(*condEntry)
		if now.Sub(e.used) < cc.ttl {
			return
		}
		cc.removeLocked(e.url)
	}
}

// len returns the number of entries and their body bytes, for tests.
func (cc *condCache) len() (int, int64) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	return cc.lru.Len(), cc.bytes
}
