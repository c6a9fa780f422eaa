// Package storetest is the contract every convai.Store honours, as a test
// suite: each implementation's tests call Run with a constructor, so the
// in-memory store that local runs use and the DynamoDB store that Lambda uses
// cannot drift apart.
//
// What the suite holds a store to, beyond the doc comments of convai.Store:
//   - every field of a chat round-trips; times keep their instant to the
//     nanosecond (compared with time.Time.Equal: neither the location nor
//     the monotonic clock reading need survive);
//   - a chat expires TTL after its LastActivity, with a resolution of one
//     second: a store may let a chat live up to a second longer, never
//     shorter, so the suite looks two seconds either side of the instant;
//   - Idle and Undelivered compare with the cutoff to the nanosecond and
//     strictly (a chat exactly at the cutoff is not returned); their order
//     is not part of the contract.
//
// The fakes those tests drive a convai.Engine with are in convaitest.
package storetest
