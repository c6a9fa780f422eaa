package brain

import (
	"slices"
	"strings"
	"testing"
)

func TestRouterWords(t *testing.T) {
	for in, want := range map[string][]string{
		"I'm a nurse.":             {"i", "m", "a", "nurse"},
		"  ride_horses, at 5am!! ": {"ride_horses", "at", "5am"},
		"Café au lait":             {"café", "au", "lait"},
		"...":                      nil,
	} {
		if got := RouterWords(in); !slices.Equal(got, want) {
			t.Errorf("RouterWords(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRefuses(t *testing.T) {
	grams := ProfileTrigrams("i love reading mystery novels.\ni volunteer at the animal shelter.")
	for msg, want := range map[string]bool{
		"Have you ever read much about the animal shelter?": true,
		"I'm really into Reading, mystery... NOVELS!":       true, // case and punctuation do not hide it
		"novels I volunteer":                                true, // trigrams run across the profile's lines
		"I help out at our local animal shelter":            false,
		"mystery novels":                                    false, // two words are no trigram
		"":                                                  false,
	} {
		if got := grams.Refuses(msg); got != want {
			t.Errorf("Refuses(%q) = %v, want %v", msg, got, want)
		}
	}
	if (Trigrams{}).Refuses("anything at all here") {
		t.Error("an empty profile refuses a message")
	}
}

// FuzzRefuses checks the rule's properties on any profile and message: a
// profile of three words or more is refused as a reply; a refused message
// stays refused inside a longer one; and Refuses agrees with the plain
// reading, some trigram of the message's words is a trigram of the
// profile's.
func FuzzRefuses(f *testing.F) {
	f.Add("i like to ride horses.\ni help tend the fields.", "Do you like to ride horses?")
	f.Add("my dog is old", "My DOG, is old!")
	f.Add("i'm here", "I m here")
	f.Fuzz(func(t *testing.T, profile, msg string) {
		grams := ProfileTrigrams(profile)
		if len(RouterWords(profile)) >= 3 && !grams.Refuses(profile) {
			t.Errorf("profile %q does not refuse itself", profile)
		}
		got := grams.Refuses(msg)
		if got && !grams.Refuses("well, "+msg+" . ok") {
			t.Errorf("%q is refused, but not inside a longer message", msg)
		}
		ws := RouterWords(msg)
		want := false
		for i := 0; i+3 <= len(ws); i++ {
			want = want || grams.Has(strings.Join(ws[i:i+3], " "))
		}
		if got != want {
			t.Errorf("Refuses(%q) = %v, want %v (profile %q)", msg, got, want, profile)
		}
	})
}
