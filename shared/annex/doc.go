// Package annex is the hive/annex bot: the wire types of its endpoint
// (Request, Message, Conversation, User, Response) with their validation,
// transcripts of a person's conversations, the persona that learns how that
// person answers, and the Engine that answers a request as the person and
// records the exchange through a Store. It knows nothing of HTTP or AWS:
// package httpapi serves it, and the stores live under package store.
package annex
