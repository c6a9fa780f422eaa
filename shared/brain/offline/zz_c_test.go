package offline

import (
	"os"
	"testing"
)

func TestZZSet(t *testing.T) {
	f := os.Getenv("ZZSET")
	if f == "" {
		t.Skip()
	}
	s := scoreProbes(t, readMadeUp(t, f), "made")
	t.Logf("%s: answerable %d: right %d (%.1f%%), wrong %d (%.1f%%), missed %d (%d unsayable); unanswerable %d: not answered %d (%.1f%%)",
		f, s.answerable, s.right, 100*s.rightShare(), s.wrong, 100*s.wrongShare(), s.missed, s.unsayable, s.unanswerable, s.unanswered, 100*s.unansweredShare())
}
