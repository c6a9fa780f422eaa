package transcript

import (
	"errors"

	"github.com/duetbot/duet/shared/annex"
)

// Annex returns the annex bot's exchanges (ordered by conversation, then
// time, as an Archive returns them) as one transcript of the bot's
// person: each request the hive sent, then the bot's reply. `duet eval`
// replays it, scoring a new version's replies against the ones the bot gave.
func Annex(exchanges []annex.Exchange) (annex.Transcript, error) {
	if len(exchanges) == 0 {
		return annex.Transcript{}, errors.New("no annex exchanges stored (none yet, or all expired)")
	}
	t := annex.Transcript{Person: annex.BotFrom, Users: []annex.User{}}
	for _, ex := range exchanges {
		req, reply := ex.Request, ex.Reply
		if req.From == "" {
			req.From = "unknown"
		}
		if reply.From == "" {
			reply.From = annex.BotFrom
		}
		t.Messages = append(t.Messages, req, reply)
	}
	return t, nil
}
