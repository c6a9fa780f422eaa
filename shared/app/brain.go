package app

import (
	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/brain"
	"github.com/duetbot/duet/shared/brain/offline"
)

// Brains are the back ends of the bots: one for ConvAI replies and
// evaluations, one for the annex bot's persona replies. Package app/brains
// builds those BRAIN names (model back ends, ClariQ); a function that needs
// none of them (the sweeper) uses OfflineBrains and links none of their
// SDKs.
type Brains struct {
	Replier   brain.Replier
	Evaluator brain.Evaluator
	Persona   brain.Replier
}

// OfflineBrains returns the offline back ends: deterministic, no network.
// They are the default and every model back end's fallback.
func OfflineBrains() Brains {
	off := offline.New()
	return Brains{Replier: off, Evaluator: off, Persona: annex.Offline{}}
}
