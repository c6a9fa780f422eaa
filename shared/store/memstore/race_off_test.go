//go:build !race

package memstore

// RaceDetector is whether the tests run under -race (see race_on_test.go).
const RaceDetector = false
