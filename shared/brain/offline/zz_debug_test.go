package offline

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// scratch: DEBUG_PROFILE="a|b|c" DEBUG_Q="q1|q2"
func TestZZDebug(t *testing.T) {
	p := os.Getenv("DEBUG_PROFILE")
	if p == "" {
		t.Skip()
	}
	context := strings.ReplaceAll(p, "|", "\n")
	pr := parseProfile(context)
	for i, f := range pr.facts {
		fmt.Printf("fact %d %q cats=%b intents=%b verb=%q kin=%b neg=%v wish=%v says=%q\n", i, f.source, f.cats, f.intents(), f.verb, f.kin, f.neg, f.wish, f.says[:min(2, len(f.says))])
	}
	for _, q := range strings.Split(os.Getenv("DEBUG_Q"), "|") {
		qt := analyze(q)
		fmt.Printf("Q %q intents=%b yesno=%v verb=%q answers=%v\n  -> %q\n", q, questionIntents(qt), asksYesNo(qt), questionVerb(qt), pr.answers(qt), reply(t, chat(t, context, q)))
	}
}
