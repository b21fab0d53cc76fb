// Package loader turns upstream sources into published snapshots.
//
// One run fetches every configured source in parallel, normalizes what they yield (places,
// time zones, names, genres) into an engine.Dataset, builds a snapshot, checks it, and
// publishes it to an engine.Live. A source that fails contributes its last good events (up to
// an age limit); a build that fails or fails its sanity checks is not published, and the last
// good snapshot keeps serving. Run repeats this on an hourly schedule with jitter and tells
// the Live when the next refresh is due, which drives Cache-Control.
package loader
