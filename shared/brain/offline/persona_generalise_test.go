package offline

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// testdata/persona_made_up*.json hold made-up profiles in the ConvAI2
// style and partner questions in everyday chat phrasing, not taken from
// the releases, each labelled with the profile sentences that answer it
// or none. Sets a and b were written by hand; c to zc by writers who never
// saw the matcher, one or two sets at a time. Each pair was first run cold, its
// figures recorded as an estimate for profiles the rules never saw
// (docs/offline-engine.md), and only then were its misses read for
// general rules. They check that the matching holds on profiles and
// questions it was not tuned on.
type madeUpProfile struct {
	Profile   []string `json:"profile"`
	Questions []struct {
		Q string `json:"q"`
		A []int  `json:"a"`
	} `json:"questions"`
}

// readMadeUpProfiles reads a made-up set as it is written.
func readMadeUpProfiles(t testing.TB, file string) []madeUpProfile {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var mps []madeUpProfile
	if err := json.Unmarshal(b, &mps); err != nil {
		t.Fatalf("read made-up probes: %v", err)
	}
	return mps
}

// readMadeUp reads a made-up set as probes, one for each question.
func readMadeUp(t testing.TB, file string) []probe {
	t.Helper()
	var ps []probe
	for _, mp := range readMadeUpProfiles(t, file) {
		for _, q := range mp.Questions {
			for _, a := range q.A {
				if a < 0 || a >= len(mp.Profile) {
					t.Fatalf("%q: answer %d outside the profile", q.Q, a)
				}
			}
			ps = append(ps, probe{Half: "made", Question: q.Q, Profile: mp.Profile, Answers: q.A})
		}
	}
	return ps
}

// TestPersonaMadeUp replays the made-up questions and counts what the
// replies answer with, as TestPersonaProbes does for the real ones.
func TestPersonaMadeUp(t *testing.T) {
	files, err := filepath.Glob("testdata/persona_made_up*.json")
	if err != nil || len(files) < 29 {
		t.Fatalf("made-up probe sets %v (%v), want a to z and za to zc", files, err)
	}
	var all probeScore
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			ps := readMadeUp(t, file)
			if len(ps) < 120 {
				t.Fatalf("%d made-up probes, want at least 120", len(ps))
			}
			s := scoreProbes(t, ps, "made")
			t.Logf("made: answerable %d: right %d (%.1f%%), wrong %d (%.1f%%), missed %d (%d not sayable yet); unanswerable %d: not answered %d (%.1f%%), answered %d",
				s.answerable, s.right, 100*s.rightShare(), s.wrong, 100*s.wrongShare(), s.missed, s.unsayable,
				s.unanswerable, s.unanswered, 100*s.unansweredShare(), s.invented)
			if s.rightShare() < madeRightFloor || s.wrongShare() > madeWrongCeiling || s.unansweredShare() < madeUnansweredFloor {
				t.Errorf("right %.3f (floor %.2f), wrong %.3f (ceiling %.2f), unanswered %.3f (floor %.2f)",
					s.rightShare(), madeRightFloor, s.wrongShare(), madeWrongCeiling, s.unansweredShare(), madeUnansweredFloor)
			}
			all = all.add(s)
		})
	}
	t.Logf("all sets: answerable %d: right %.1f%%, wrong %.1f%%; unanswerable %d: not answered %.1f%%",
		all.answerable, 100*all.rightShare(), 100*all.wrongShare(), all.unanswerable, 100*all.unansweredShare())
	if all.rightShare() < madePooledRightFloor || all.wrongShare() > madePooledWrongCeiling {
		t.Errorf("all sets: right %.3f (floor %.2f), wrong %.3f (ceiling %.2f)",
			all.rightShare(), madePooledRightFloor, all.wrongShare(), madePooledWrongCeiling)
	}
}

// The made-up floors. Each set: a little under the lowest a set measures
// (right 68.6 % on x; wrong 3.9 % on d; unanswered 89.5 % on r, where
// "do you speak spanish" is labelled unanswered by "i'm from puerto rico"
// though 14 labels in the other sets count such an origin as an answer),
// low because sets w and x were written to say things less plainly and
// were tuned on least. All sets together: a little under what they measure (right
// 89.6 %, wrong 2.2 %). docs/offline-engine.md gives each set's figures
// when first run cold.
const (
	madeRightFloor         = 0.64
	madeWrongCeiling       = 0.045
	madeUnansweredFloor    = 0.89
	madePooledRightFloor   = 0.88
	madePooledWrongCeiling = 0.03
)

// TestPersonaWorld plays the sets held apart from the made-up ones:
// testdata/persona_world*.json, lives from many countries, facts said
// less plainly; and testdata/persona_harness*.json, profiles and
// questions as the author of an outside harness would write them, asked
// in the order of a chat. They were written cold like the made-up sets and
// are held apart because they measure what the engine still lacks (first
// run cold: 50.2 % right and 9.3 % wrong on the first world set, 62.9 %
// and 6.5 % on the second, written after the gazetteer; 73.4 % and 6.8 %
// on the first harness set, 83.2 % and 3.2 % on b, 71.0 % and 5.6 % on c,
// 77.0 % and 6.9 % on d, 65.6 % and 4.8 % on e, written to be diverse;
// 85.2 % and 6.6 % on f, 69.1 % and 5.5 % on g, 85.3 % and 2.8 % on h,
// 81.5 % and 1.9 % on i, 82.0 % and 5.7 % on j, 80.4 % and 2.9 % on k,
// 70.6 % and 5.9 % on l, longer sentences, 74.7 % and 3.3 % on m,
// 78.4 % and 3.0 % on n, 63.0 % and 3.6 % on o, sentences of two
// details, 79.2 % and 2.9 % on p, chat typing, 72.1 % and 5.2 % on q,
// yes-or-no questions a fact answers in other words, 78.0 % and 4.2 % on
// r and 78.0 % and 2.2 % on s, written after the rules for p and q;
// 84.2 % and 0.7 % on t, a harness author's plain questions, 84.5 % and
// 1.9 % on u, PersonaChat's style, 71.3 % and 6.7 % on v, every fact
// asked about in other words; 80.4 % and 2.5 % on w, chat typing on
// long profiles, 71.1 % and 5.6 % on x, open questions about varied
// lives, 90.2 % and 0.4 % on y, detail questions; 82.6 % and 4.5 % on
// z, older lives asked politely, 71.6 % and 2.4 % on za, young lives in
// chat typing, 83.4 % and 1.7 % on zb, likes, dislikes, health and
// beliefs; 71.7 % and 5.3 % on zc, working lives, 78.8 % and 2.2 % on
// zd, pastimes, 82.5 % and 8.0 % on ze, origins and languages; 83.2 %
// and 5.1 % on zf, students, 81.8 % and 2.7 % on zg, retirees, 91.2 %
// and 1.1 % on zh, parents and favourites; 90.7 % and 1.2 % on zi,
// PersonaChat's style, 95.3 % and 0.4 % on zj, a harness author's
// battery, 75.0 % and 5.4 % on zk, unusual lives asked in other words,
// written last):
// the floors keep what each reads today and say how far it is from the
// others.
func TestPersonaWorld(t *testing.T) {
	for _, c := range []struct {
		file                string
		right, wrong, unans float64
	}{
		{"testdata/persona_world.json", 0.55, 0.08, 0.95},
		{"testdata/persona_world_b.json", 0.60, 0.08, 0.95},
		{"testdata/persona_harness.json", 0.78, 0.06, 0.93},
		{"testdata/persona_harness_b.json", 0.84, 0.04, 0.95},
		{"testdata/persona_harness_c.json", 0.75, 0.07, 0.92},
		{"testdata/persona_harness_d.json", 0.80, 0.05, 0.88},
		{"testdata/persona_harness_e.json", 0.70, 0.05, 0.94},
		{"testdata/persona_harness_f.json", 0.86, 0.07, 0.94},
		{"testdata/persona_harness_g.json", 0.75, 0.04, 0.93},
		{"testdata/persona_harness_h.json", 0.85, 0.04, 0.86},
		{"testdata/persona_harness_i.json", 0.80, 0.04, 0.88}, // "can you swim?" is answered by a fear of deep water, which its labels leave unanswered
		{"testdata/persona_harness_j.json", 0.83, 0.05, 0.85},
		{"testdata/persona_harness_k.json", 0.81, 0.03, 0.71},
		{"testdata/persona_harness_l.json", 0.68, 0.07, 0.92},
		{"testdata/persona_harness_m.json", 0.72, 0.04, 0.77},
		{"testdata/persona_harness_n.json", 0.80, 0.03, 0.81},
		{"testdata/persona_harness_o.json", 0.69, 0.04, 0.82},
		{"testdata/persona_harness_p.json", 0.82, 0.04, 0.89},
		{"testdata/persona_harness_q.json", 0.72, 0.05, 0.85},
		{"testdata/persona_harness_r.json", 0.77, 0.05, 0.85},
		{"testdata/persona_harness_s.json", 0.77, 0.03, 0.93},
		{"testdata/persona_harness_t.json", 0.84, 0.02, 0.90},
		{"testdata/persona_harness_u.json", 0.85, 0.03, 0.80},
		{"testdata/persona_harness_v.json", 0.72, 0.06, 0.90},
		{"testdata/persona_harness_w.json", 0.82, 0.035, 0.92},
		{"testdata/persona_harness_x.json", 0.77, 0.045, 0.91},
		{"testdata/persona_harness_y.json", 0.89, 0.015, 0.97},
		{"testdata/persona_harness_z.json", 0.84, 0.04, 0.91},
		{"testdata/persona_harness_za.json", 0.78, 0.03, 0.77},
		{"testdata/persona_harness_zb.json", 0.85, 0.025, 0.84},
		{"testdata/persona_harness_zc.json", 0.76, 0.055, 0.95},
		{"testdata/persona_harness_zd.json", 0.88, 0.04, 0.97},
		{"testdata/persona_harness_ze.json", 0.88, 0.04, 0.92},
		{"testdata/persona_harness_zf.json", 0.85, 0.05, 0.91},
		{"testdata/persona_harness_zg.json", 0.84, 0.03, 0.97},
		{"testdata/persona_harness_zh.json", 0.89, 0.015, 0.94},
		{"testdata/persona_harness_zi.json", 0.88, 0.02, 0.97},
		{"testdata/persona_harness_zj.json", 0.93, 0.01, 0.99},
		{"testdata/persona_harness_zk.json", 0.74, 0.06, 0.95},
	} {
		t.Run(c.file, func(t *testing.T) {
			s := scoreProbes(t, readMadeUp(t, c.file), "made")
			t.Logf("world: answerable %d: right %d (%.1f%%), wrong %d (%.1f%%), missed %d (%d not sayable yet); unanswerable %d: not answered %d (%.1f%%), answered %d",
				s.answerable, s.right, 100*s.rightShare(), s.wrong, 100*s.wrongShare(), s.missed, s.unsayable,
				s.unanswerable, s.unanswered, 100*s.unansweredShare(), s.invented)
			if s.rightShare() < c.right || s.wrongShare() > c.wrong || s.unansweredShare() < c.unans {
				t.Errorf("right %.3f (floor %.2f), wrong %.3f (ceiling %.2f), unanswered %.3f (floor %.2f)",
					s.rightShare(), c.right, s.wrongShare(), c.wrong, s.unansweredShare(), c.unans)
			}
		})
	}
}

// TestPersonaYesNoLeads checks that a yes/no question gets a "Yes!" or
// "I do!" only when the fact says yes, a "no" only when it denies what
// was asked, and otherwise the fact as it is, never "that's a personal
// one" before it.
func TestPersonaYesNoLeads(t *testing.T) {
	for _, c := range []struct {
		fact, question, lead string // lead: yes, no or none
	}{
		{"i have two dogs.", "do you have any pets?", "yes"},
		{"i play the violin.", "do you play an instrument?", "yes"},
		{"i was in the navy for eight years.", "were you in the military?", "yes"},
		{"my wife and i just had a baby girl.", "do you have kids?", "yes"},
		{"i do not drink alcohol.", "do you drink?", "no"},
		{"i hate my job.", "do you like your job?", "no"},
		{"one of the languages i am studying is spanish.", "do u speak spanish?", "none"},
		{"i have a motorcycle.", "do you ride a motorcycle?", "none"},
		{"i play soccer.", "do you play tennis?", "none"},
		{"i am allergic to cats.", "do you have a cat?", "none"},
		{"i am unemployed.", "do you have a job?", "none"},
		{"i can't swim.", "can you swim?", "none"},
		{"i am getting married next year.", "are you married?", "none"},
		{"my wife passed away last year.", "are you married?", "none"},
		{"i am divorced.", "are you married?", "none"},
		{"i am an only child.", "do you have any siblings?", "none"},
		{"i work at a school.", "are you a student?", "none"},
		{"i hate school.", "are you a student?", "none"},
		{"i am saving money for college.", "are you in college?", "none"},
		{"i hate the rain.", "do you like rainy weather?", "none"}, // never "I don't mind rainy weather", which contradicts it
	} {
		context := c.fact + "\ni like the color blue.\ni live in a small town."
		got := reply(t, chat(t, context, c.question))
		if answeredLine(context, got) != 0 {
			t.Errorf("%q with %q: %q, want the fact", c.question, c.fact, got)
			continue
		}
		lead := "none"
		for s := range sentencesOf(got) {
			switch {
			case slices.Contains(yesLeads, s) || slices.Contains(slices.Collect(maps.Values(yesEcho)), s):
				lead = "yes"
			case slices.Contains(noLeads, s):
				lead = "no"
			}
			break
		}
		if lead != c.lead {
			t.Errorf("%q with %q: %q, want lead %s", c.question, c.fact, got, c.lead)
		}
	}
}

// TestPersonaMadeUpInOneChat plays each made-up and harness profile's
// questions in one chat, after a "hi! how are you?", as a partner would
// ask them. A question the fact the bot has just told answers gets the
// part it asks for ("Toronto, like I said!") or, asked whole or by a short
// follow-up ("what subject?"), the fact again said so; a yes or no on the
// fact's own words gets "Like I just said!" alone. The bot tells a fact
// only when asked, so a fact is never held back because the bot told it
// unasked the turn before.
func TestPersonaMadeUpInOneChat(t *testing.T) {
	for _, c := range []struct {
		glob  string
		floor float64
	}{
		{"testdata/persona_made_up*.json", 0.87},
		{"testdata/persona_harness*.json", 0.81},
	} {
		files, err := filepath.Glob(c.glob)
		if err != nil || len(files) == 0 {
			t.Fatalf("probe sets %v (%v)", files, err)
		}
		var right, answerable, again, withheld int
		for _, file := range files {
			for _, mp := range readMadeUpProfiles(t, file) {
				context := strings.Join(mp.Profile, "\n")
				lines := []string{"hi! how are you?"}
				for _, q := range mp.Questions {
					lines = append(lines, q.Q)
				}
				got := talk(t, context, lines...)
				if line := answeredLine(context, got[0]); line >= 0 {
					t.Errorf("%q: the greeting is answered with a fact: %q", mp.Profile, got[0])
				}
				pr := parseProfile(context)
				for k, q := range mp.Questions {
					prev, r := got[k], got[k+1]
					line := answeredLine(context, r)
					if len(q.A) == 0 {
						continue
					}
					answerable++
					switch {
					case slices.Contains(q.A, line):
						right++
					case line < 0 && slices.ContainsFunc(q.A, func(a int) bool { return tells(pr, context, prev, a) }):
						again++
						// Told unasked: the reply before answered no fact of
						// this question, nor told one its question asked
						// after a remark ("Oh wow, a teacher? … My job: …").
						askedBefore := slices.Contains(q.A, answeredLine(context, prev)) || k > 0 && slices.ContainsFunc(q.A, func(a int) bool {
							return tells(pr, context, prev, a) && slices.Contains(mp.Questions[k-1].A, a)
						})
						if !askedBefore {
							withheld++
							t.Errorf("%q: %q is answered %q: its fact was told unasked just before: %q", mp.Profile, q.Q, r, prev)
						}
					}
				}
			}
		}
		share := float64(right) / float64(max(answerable, 1))
		t.Logf("%s in one chat: answerable %d: right %d (%.1f%%); %d asked again right after their fact was told and pointed to it, %d of those told unasked",
			c.glob, answerable, right, 100*share, again, withheld)
		if share < c.floor {
			t.Errorf("%s: right %.3f in one chat, under the floor %.2f", c.glob, share, c.floor)
		}
	}
}

// tells reports whether reply tells the fact of profile line i in any of
// its sentences.
func tells(pr *profile, context, reply string, i int) bool {
	for s := range sentencesOf(reply) {
		if f, ok := pr.index[s]; ok && lineOf(context, pr.facts[f].source) == i {
			return true
		}
	}
	return false
}
