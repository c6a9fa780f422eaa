// Package metrics names what the bots count and measure, and records it
// through a small Recorder interface that the engines take at construction
// (nil records nothing). EMF, in this package, turns each record into one
// CloudWatch Embedded Metric Format line; on Lambda those lines go to
// stdout and CloudWatch Logs extracts the metrics, with no API call. The
// package imports nothing of AWS.
package metrics

import "time"

// Namespace is the CloudWatch namespace of every metric.
const Namespace = "Duet"

// Name is a metric's name in CloudWatch. Every Name is one of the constants
// below, and template.yaml's alarms and dashboard use them (functions'
// template test checks both ways).
type Name string

// The metrics. Dimensions, where a metric has them, are listed beside it;
// their values come from small fixed sets, never from a chat or a text.
const (
	// PartnerMessages counts the server messages a ConvAI engine accepted
	// and stored (/start, /begin, partner turns, /end).
	PartnerMessages Name = "PartnerMessages"
	// DuplicatesDropped counts updates recognised as a redelivery of one
	// already accepted: they produce no second reply.
	DuplicatesDropped Name = "DuplicatesDropped"
	// RepliesSent counts the bot's messages the Bot API accepted.
	RepliesSent Name = "RepliesSent"
	// RepliesGivenUp counts replies a sender stopped trying to deliver
	// (Reason: refused, bot_api, store). A refused one is dropped for good;
	// the others wait for a retry or the sweeper.
	RepliesGivenUp Name = "RepliesGivenUp"
	// ReplyLatency is the time from an update's arrival to the Bot API's
	// answer to the sendMessage of its reply, in milliseconds.
	ReplyLatency Name = "ReplyLatency"
	// ModelReplies counts model calls (replies, ratings, finals) whose
	// answer was used.
	ModelReplies Name = "ModelReplies"
	// ModelFallbacks counts model calls the offline engine answered instead
	// (Reason: timeout, budget, throttled, refused, invalid_output, error,
	// canceled).
	ModelFallbacks Name = "ModelFallbacks"
	// ChatsEnded counts chats ended (EndedBy: bot, partner, sweeper).
	ChatsEnded Name = "ChatsEnded"
	// AnnexRequests counts the annex bot's answered requests.
	AnnexRequests Name = "AnnexRequests"
	// AnnexLatency is the time the annex engine took to answer, in milliseconds.
	AnnexLatency Name = "AnnexLatency"
)

// CloudWatch units of the metrics.
const (
	Count        = "Count"
	Milliseconds = "Milliseconds"
)

var units = map[Name]string{
	PartnerMessages:   Count,
	DuplicatesDropped: Count,
	RepliesSent:       Count,
	RepliesGivenUp:    Count,
	ReplyLatency:      Milliseconds,
	ModelReplies:      Count,
	ModelFallbacks:    Count,
	ChatsEnded:        Count,
	AnnexRequests:     Count,
	AnnexLatency:      Milliseconds,
}

// Unit returns the metric's CloudWatch unit ("None" for a name not above).
func (n Name) Unit() string {
	if u, ok := units[n]; ok {
		return u
	}
	return "None"
}

// Names returns every metric name, in no particular order.
func Names() []Name {
	out := make([]Name, 0, len(units))
	for n := range units {
		out = append(out, n)
	}
	return out
}

// Dimension keys.
const (
	// FunctionKey names the function or command that recorded the metric
	// (telegram, sweeper, annex, serve); the EMF writer adds it.
	FunctionKey = "Function"
	ReasonKey   = "Reason"
	EndedByKey  = "EndedBy"
)

// Reasons of RepliesGivenUp.
const (
	GivenUpRefused = "refused" // the Bot API refused the message for good
	GivenUpBotAPI  = "bot_api" // the Bot API failed or did not answer in time
	GivenUpStore   = "store"   // the session store failed
)

// Values of EndedBy.
const (
	EndedByBot     = "bot"
	EndedByPartner = "partner"
	EndedBySweeper = "sweeper"
)

// Dimension is one dimension of a record: a key above and a value from a
// small fixed set.
type Dimension struct{ Key, Value string }

// Reason returns the Reason dimension.
func Reason(v string) Dimension { return Dimension{ReasonKey, v} }

// EndedBy returns the EndedBy dimension.
func EndedBy(v string) Dimension { return Dimension{EndedByKey, v} }

// Recorder records one value of a metric. Implementations are safe for
// concurrent use.
type Recorder interface {
	Record(name Name, value float64, dims ...Dimension)
}

// Add records n of name through r; a nil r records nothing.
func Add(r Recorder, name Name, n int, dims ...Dimension) {
	if r != nil && n != 0 {
		r.Record(name, float64(n), dims...)
	}
}

// Since records the milliseconds since start as name through r; a nil r
// records nothing.
func Since(r Recorder, name Name, start time.Time, dims ...Dimension) {
	if r != nil {
		r.Record(name, float64(time.Since(start).Microseconds())/1000, dims...)
	}
}
