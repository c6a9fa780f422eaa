package convaisim

import (
	"math/rand/v2"
	"strings"
	"unicode"
)

// personaSentences are the simulator's own first-person profile sentences,
// in the style of the ConvAI2 (PersonaChat) profiles: lower case, one fact
// each, a full stop. Profiles are drawn from them; no data file is needed.
var personaSentences = []string{
	"i like to ride horses.", "i help tend the fields.", "i have three horses.", "i love the sunrise.",
	"i work as a nurse in a big hospital.", "my favorite food is sushi.", "i have two cats named salt and pepper.",
	"i play the violin in an orchestra.", "i grew up on a farm in iowa.", "i am afraid of the dark.",
	"my father was a police officer.", "i run five miles every morning.", "i drive an old red truck.",
	"i am learning to speak japanese.", "i collect vintage postcards.", "my best friend lives in canada.",
	"i do not eat meat.", "i watch horror movies every weekend.", "i have never left my home state.",
	"i am a student at a small college.", "i build model airplanes.", "my mother is a math teacher.",
	"i bake bread on sundays.", "i am allergic to peanuts.", "i volunteer at the animal shelter.",
	"i prefer tea to coffee.", "i have four younger brothers.", "i work night shifts at a gas station.",
	"i want to become a pilot.", "i love country music.", "i just moved into a new apartment.",
	"i paint landscapes in my free time.", "my car broke down last week.", "i am training for a marathon.",
	"i like to go fishing with my grandfather.", "i am a retired firefighter.", "i write poems nobody reads.",
	"i hate the cold weather.", "i sing in the church choir.", "my dog is a golden retriever.",
	"i spend too much money on video games.", "i grow tomatoes in my backyard.", "i am scared of spiders.",
	"i speak three languages.", "i love reading mystery novels.", "i am saving up for a trip to italy.",
	"my sister is a famous chef.", "i dye my hair blue.",
}

// randomProfile returns n distinct persona sentences, none of them in avoid.
func randomProfile(rng *rand.Rand, n int, avoid map[string]bool) []string {
	var out []string
	for _, i := range rng.Perm(len(personaSentences)) {
		if s := personaSentences[i]; !avoid[s] {
			out = append(out, s)
			avoid[s] = true
			if len(out) == n {
				break
			}
		}
	}
	return out
}

// routerWords splits text into words as the 2018 router did: every run of
// non-word characters becomes one space, the text is lower-cased and split
// on single spaces (so that leading or trailing punctuation leaves an
// empty word, as in the router).
func routerWords(text string) []string {
	var b strings.Builder
	gap := false
	for _, r := range text {
		if unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_' {
			b.WriteRune(r)
			gap = false
		} else if !gap {
			b.WriteByte(' ')
			gap = true
		}
	}
	return strings.Split(strings.ToLower(b.String()), " ")
}

// routerTrigrams is the router's set of word trigrams of text. Like the
// router (range(len(words) - 3)), it leaves out the last trigram.
func routerTrigrams(text string) map[[3]string]bool {
	w := routerWords(text)
	out := map[[3]string]bool{}
	for i := 0; i < len(w)-3; i++ {
		out[[3]string{w[i], w[i+1], w[i+2]}] = true
	}
	return out
}

// profileTrigrams returns the trigrams of a bot message that the router
// finds in the bot's profile: any one makes the message "bad".
func profileTrigrams(profile map[[3]string]bool, msg string) []string {
	var out []string
	for t := range routerTrigrams(msg) {
		if profile[t] {
			out = append(out, strings.Join(t[:], " "))
		}
	}
	return out
}

// badInARow is how many bad messages in a row end a chat
// (n_bad_messages_in_a_row_threshold in the router's shipped config).
const badInARow = 10

// partnerLines returns the partner's messages of a router chat: the
// script's lines, every other one opened by a sentence of the partner's own
// profile, as ConvAI2's humans volunteered the facts of their role.
func partnerLines(lines, profile []string) []string {
	out := make([]string, len(lines))
	p := 0
	for i, l := range lines {
		out[i] = l
		if i%2 == 0 && p < len(profile) {
			fact := profile[p]
			out[i] = strings.ToUpper(fact[:1]) + fact[1:] + " " + l
			p++
		}
	}
	return out
}
