// Package testkit is the test harness: what the tests, make run and the bench drive, and
// nothing gigsd serves from. Its packages are the demo corpus generator (demo), the
// fixture server that plays the corpus's hundreds of hosts (fixture), the ticketing
// platform emulators (emulator), synthetic datasets of any size and their churn between
// refreshes (scale), and the bench's realistic request mix (mix). gigsd never
// imports any of them; the import-rule test in this folder says so.
package testkit
