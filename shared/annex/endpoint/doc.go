// Package endpoint calls an annex bot over HTTP the way the hive platform
// does: a JSON POST with the X-CALLER-KEY header, answered by
// {"message": "..."}. `duet eval` uses it to replay transcripts against
// deployed or local bots.
package endpoint
