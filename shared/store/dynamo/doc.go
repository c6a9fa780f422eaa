// Package dynamo keeps Duet's sessions in one DynamoDB table (keys pk/sk),
// with TTL expiry on the expires_at attribute and a sparse global secondary
// index, by_activity, that lets the sweeper find idle or undelivered chats
// with Queries, never a Scan.
//
// A ConvAI chat is one item: pk "CHAT#<id>", sk "CHAT", the convai.Chat
// fields under their dynamodbav names, version (N), expires_at (N, Unix
// seconds) and, while the chat needs the sweeper's attention, gsi1pk/gsi1sk:
// "OUTBOX#<shard>" with the time the oldest undelivered message was stored,
// or "ACTIVE#<shard>" with the last activity of an open chat rounded down to
// 5 minutes. An ended chat with nothing left to deliver carries no index
// keys at all. The index projects only keys, so a message that leaves them
// alone costs no index write; Idle and Undelivered read each chat the index
// names to apply the exact times and expiry.
//
// TTL deletion lags by up to days, so every read treats an item whose
// expires_at has passed as absent. Expiry has a resolution of one second:
// expires_at is the expiry instant rounded up, so a chat never expires early.
//
// The names of the table's attributes and index are the exported constants;
// the SAM template declares the same.
package dynamo
