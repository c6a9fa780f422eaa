package offline

import (
	"errors"

	"github.com/duetbot/duet/shared/brain"
)

// ErrPersona is returned by Reply for a request in a person's voice: those
// are served by package annex, not by this back end.
var ErrPersona = errors.New("offline: persona replies are served by package annex")

// Brain replies and rates without a network, deterministically. The zero
// value is ready to use and safe for concurrent use; a Brain must not be
// copied after first use.
type Brain struct {
	contexts contextCache // the chats' contexts, analysed once per chat
	read     readCache    // the chats' messages, read once
	// judge is the evaluator's model; nil: the committed one.
	judge *JudgeModel
}

// New returns a Brain.
func New() *Brain { return &Brain{} }

var (
	_ brain.Replier   = (*Brain)(nil)
	_ brain.Evaluator = (*Brain)(nil)
)
