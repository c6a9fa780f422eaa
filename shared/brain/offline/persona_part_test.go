package offline

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPartSays: a sentence too long to say whole is said in part, the
// router's way clean, and the sayable share does not count it.
func TestPartSays(t *testing.T) {
	line := "i work night shifts as a baker at a little shop called rosie's in portland, maine."
	pr := parseProfile(line + "\ni have a pet snake named noodle.\ni drink black coffee all day.")
	if saysWhole(pr, line) {
		t.Fatalf("%q is said whole now: pick a sentence that is not", line)
	}
	f := factOf(pr, line)
	if f == nil {
		t.Fatalf("%q has no fact: the bot never says it", line)
	}
	if !strings.Contains(f.says[0], "baker") {
		t.Errorf("%q is said %q, want its first part, with the job", line, f.says[0])
	}
	// Cut before "but", this one would lose what it denies.
	line = "i would love to sail around the world on a big boat but my wife will not let me."
	pr = parseProfile(line + "\ni have a pet snake named noodle.\ni drink black coffee all day.")
	if f := factOf(pr, line); f != nil {
		for _, s := range f.says {
			if !slicesHasAny(tokens(s), negations) {
				t.Errorf("%q is said %q, without its negation", line, s)
			}
		}
	}
}

// TestPartsKeepTheirSense: over the harness sets, every sentence said in
// part is said without a profile trigram, and what it leaves out holds no
// negation, which could turn the part around.
func TestPartsKeepTheirSense(t *testing.T) {
	files, err := filepath.Glob("testdata/persona_harness*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no harness sets: %v", err)
	}
	parts := 0
	for _, file := range files {
		for _, mp := range readMadeUpProfiles(t, file) {
			pr := parseProfile(strings.Join(mp.Profile, "\n"))
			for _, line := range mp.Profile {
				f := factOf(pr, line)
				if f == nil || !f.part {
					continue
				}
				if saysWhole(pr, line) {
					t.Errorf("%q is said in part, and counted sayable whole", line)
				}
				parts++
				for _, s := range f.says {
					if pr.router.Refuses(s) {
						t.Errorf("%q: %q repeats the profile", line, s)
					}
					said := set{}
					for _, w := range tokens(s) {
						said.add(strings.ToLower(w))
					}
					for _, w := range tokens(line) {
						if negations.has(w) && !said.has(w) {
							t.Errorf("%q: %q leaves out %q", line, s, w)
						}
					}
				}
			}
		}
	}
	if parts == 0 {
		t.Error("no sentence is said in part: the test checks nothing")
	}
	t.Logf("%d sentences said in part", parts)
}

// factOf is the fact of profile sentence line when it is one sentence.
func factOf(pr *profile, line string) *fact {
	sentences := profileSentences(line)
	if pr == nil || len(sentences) != 1 {
		return nil
	}
	for i := range pr.facts {
		if pr.facts[i].source == strings.Join(sentences[0], " ") {
			return &pr.facts[i]
		}
	}
	return nil
}
