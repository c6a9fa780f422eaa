package annex

import (
	"context"
	"strings"
	"time"
)

// Store records exchanges and keeps imported personas. Implementations live
// in packages store/memstore and store/dynamo.
type Store interface {
	// SaveExchange records one exchange; it expires after the store's TTL.
	// Saving the same exchange twice (a retried request) keeps one copy.
	SaveExchange(ctx context.Context, ex Exchange) error
	// LoadPersona returns the persona imported under name, matched as
	// PersonaKey matches (case and spacing aside), or an error wrapping
	// duet.ErrNotFound when there is none.
	LoadPersona(ctx context.Context, name string) (PersonaData, error)
	// SavePersona replaces the persona stored under PersonaKey(p.Name),
	// keeping p.Name as given for display.
	SavePersona(ctx context.Context, p PersonaData) error
}

// Exchange is one request message and the bot's reply, under the
// conversation they belong to.
type Exchange struct {
	Conversation string  `json:"conversation"`
	Request      Message `json:"request"`
	Reply        Message `json:"reply"`
	// At is when the reply was made; the TTL runs from it.
	At time.Time `json:"at"`
}

// Key returns the exchange's position in its conversation,
// "<timestamp>#<message id>": the request's timestamp as sent (the reply
// time when it has none), so that a retried request maps to the same key.
func (ex Exchange) Key() string {
	ts := ex.Request.Timestamp
	if ts == "" {
		ts = ex.At.UTC().Format("2006-01-02T15:04:05.000000000Z")
	}
	return ts + "#" + ex.Request.ID
}

// PersonaData is what `duet persona import` stores: who the person is and
// the pairs learned from their transcripts.
type PersonaData struct {
	Name     string `json:"name"`
	ID       string `json:"id,omitempty"`
	Username string `json:"username,omitempty"`
	Pairs    []Pair `json:"pairs"`
}

// PersonaKey is the key a persona is stored and looked up under: its name in
// lower case with spacing collapsed, so that ANNEX_PERSON_NAME=ada finds
// the persona imported as "Ada".
func PersonaKey(name string) string {
	return strings.ToLower(strings.Join(strings.Fields(name), " "))
}
