//go:build race

package memstore

// RaceDetector is whether the tests run under -race, which makes the
// floods of the byte-cap tests some twenty times slower: they run shorter.
const RaceDetector = true
