package offline

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestPersonaKnows checks the everyday knowledge the matching uses, on
// facts and questions of its own (none from the probe sets): a fact is
// told when the question asks about what its thing is, and not when the
// thing only looks like what is asked.
func TestPersonaKnows(t *testing.T) {
	for _, c := range []struct {
		fact, question string
		answers        bool
	}{
		{"i root for the boston red sox.", "do you like baseball?", true},
		// WordNet's kinds (kinds_wordnet.txt) and trades
		{"i play the accordion at weddings.", "do you play an instrument?", true},
		{"nothing beats my aunt's moussaka.", "what's your favorite food?", true},
		{"nothing beats a cold glass of lemonade.", "what's your favorite drink?", true},
		{"i am a midwife in leeds.", "what do you do for work?", true},
		{"my corgi is named biscuit.", "what's your favorite food?", false},
		{"i dance salsa on fridays.", "what kind of food do you like?", false},
		// pets, kin, sports, homes and fears read in place
		{"my dog ranger sleeps on my bed.", "do you have any pets?", true},
		{"i fish for trout whenever i can.", "do you have pets?", false},
		{"these days i sketch watercolors of owls.", "do you have pets?", false},
		{"i have not eaten anything from an animal in years.", "do you have pets?", false},
		{"i coach my daughter's soccer team.", "do you have kids?", true},
		{"i work at a children's hospital.", "do you have kids?", false},
		{"i bowl every tuesday night.", "do you play any sports?", true},
		{"i listen to jazz while i paint.", "what kind of tunes do you like?", true},
		{"i have never left the state of texas.", "where do you live?", true},
		{"my boyfriend and i share a loft downtown.", "where do you live?", true},
		{"i just got my driver's license.", "can you drive?", true},
		{"heights make me dizzy.", "what are you afraid of?", true},
		{"i go rock climbing every weekend.", "are you an outdoorsy person?", true},
		// names given after the pet or relative; facts told by what one does
		{"my husky juno howls at sirens.", "what's your dog's name?", true},
		{"i keep two ferrets named pickle and mustard.", "what's your dog's name?", false},
		{"my cat sleeps on my feet every night.", "what's your cat's name?", false},
		{"my younger sister tamsin is a dentist.", "what's your sister's name?", true},
		{"maureen and i have been married for forty years.", "what is your wife's name?", true},
		{"we have two boys, liam and noah.", "what are your kids names?", true},
		{"my husband and i are raising twin boys.", "do you have kids?", true},
		{"i keep racing pigeons in a loft.", "any pets?", true},
		{"even one peanut could send me to the hospital.", "any allergies?", true},
		{"i fish for cod off the coast of norway.", "where do you live?", true},
		{"i grow rice in the mekong delta.", "what do you do?", true},
		{"i practice yoga every morning.", "what do you do?", false},
		{"my partner and i are expecting our first baby.", "what do you do?", false},
		{"i build model airplanes.", "any hobbies?", true},
		{"i build model airplanes.", "do you play video games?", false},
		{"i'm mad about hurling.", "do you follow any sports?", true},
		{"i sell houses for a living.", "do you like your job?", false},
		{"my job is very stressful.", "do you like your job?", true},
		{"i support arsenal.", "do you exercise?", false},
		{"i support arsenal.", "what team do you support?", true},
		{"i get up at four every morning.", "what do you do on sundays?", false},
		{"i sing in a church choir on sundays.", "what do you do on weekends?", true},
		{"four cats live in my house.", "where do you live?", false},
		{"i cheer for the dallas cowboys.", "where do you live?", false},
		{"i am afraid of dogs.", "do you have a dog?", true},
		{"i have a severe fear of snakes.", "do you have pets?", false},
		{"i keep forty hives of honey bees.", "any allergies?", false},
		{"almonds make my throat swell up.", "any allergies?", true},
		{"i have a wave tattooed on my ankle.", "do you have tattoos?", true},
		{"i will be forty five next week.", "how old are you?", true},
		{"my little sister is eight.", "how old is your sister?", true},
		{"i have three older sisters.", "are you the oldest in your family?", true},
		{"my wife and i have two little girls.", "do you have kids?", true},
		{"i nearly drowned as a kid.", "do you have kids?", false},
		{"i grew up with two older brothers.", "where are you from?", false},
		{"i repair watches in a small shop in geneva.", "where do you live?", true},
		{"i like watching war documentaries.", "what is your job?", false},
		{"i get up at five every day to swim before class.", "are you an early riser?", true},
		{"i drink way too much coffee.", "what's your favourite drink?", true},
		{"i barrack for the collingwood magpies.", "do you follow any sports?", true},
		{"i barrack for the collingwood magpies.", "do you exercise?", false},
		{"my husband and i have a little girl called mai.", "do you have any children?", true},
		{"i wake up at four to buy fish at the port.", "do you have any pets?", false},
		{"i am the last born of nine children.", "do you have kids?", false},
		{"i am the last born of nine children.", "where were you born?", false},
		{"i play dominoes with my neighbours every evening.", "do you play any sports?", false},
		{"i keep about forty beehives on a hill in rural slovenia.", "what do you do for a living?", true},
		{"i keep about forty beehives on a hill in rural slovenia.", "where do you live?", true},
		// the gazetteer (places_wordnet.txt) and trades told by a town
		{"i drive a city bus in lodz.", "where do you live?", true},
		{"i mend fishing nets in valparaiso.", "what do you do for work?", true},
		{"i repair boilers all over rotterdam.", "where do you live?", true},
		{"i live in bordeaux.", "are you french?", true},
		{"i rent an apartment in dubai.", "do you have a job?", false},
		{"my son jackson loves trains.", "where do you live?", false},
		{"i play chess in the park in warsaw.", "what do you do for work?", false},
		{"i sip tea at the tea house on weekends.", "where do you live?", false},
		{"i run errands for my grandma.", "do you exercise?", false},
		// a fact with no "i" in it, said as the bot's own view
		{"metallica is the greatest band ever.", "what kind of music do you like?", true},
		{"i wait tables at a diner off the interstate.", "what do you do for a living?", true},
		{"i never miss a steelers game.", "who's your team?", true},
		{"i am a huge chicago bears fan.", "do you watch football?", true},
		{"i go to mosque every friday.", "are you religious?", true},
		{"i grew up in lisbon.", "do you speak portuguese?", true},
		{"i grew up in lisbon.", "are you european?", true},
		{"i live in denver.", "do you live in colorado?", true},
		{"i am a long haul trucker.", "what do you do for a living?", true},
		{"i fix cars at my own garage.", "what's your job?", true},
		{"i drive a prius.", "what kind of car do you have?", true},
		{"i have a siamese.", "oh i love cats! do you have one?", true},
		{"i am allergic to shellfish.", "i love shrimp, do you?", true},
		{"i am a professional chef.", "do you cook?", true},
		{"i have read every book by stephen king.", "who is your favorite author?", true},
		{"my favorite season is autumn.", "do you like fall?", true},
		{"i have a boxer named rocky.", "any pets?", true},
		{"i have a boyfriend who is a chef.", "what does your boyfriend do?", true},
		{"i am a wedding photographer.", "are you married?", false},
		{"i have a boyfriend who is a chef.", "what do you do for work?", false},
		{"i love hiking in colorado.", "where do you live?", false},
		{"i have been vegan since high school.", "are you in school?", false},
		{"i collect wooden birds.", "do you have pets?", false},
		{"i love tacos.", "are you mexican?", false},
		{"i pour drinks at a sports bar.", "what do you do?", true},
		{"i write software for an airline.", "how do you earn a living?", true},
		{"i bake bread at a cafe in dublin.", "which city do you live in?", true},
		{"i was raised in texas but now live in boston.", "where do you live now?", true},
		{"the godfather is the film i could watch forever.", "what's your favourite movie?", true},
		{"i go rock climbing every sunday.", "how do you keep fit?", true},
		{"i do the sudoku in the paper every day.", "are you into puzzles?", true},
		{"i paint model trains.", "what do you do for a living?", false},
		{"i volunteer at a dog shelter.", "do you have a dog?", false},
		{"we just adopted a retired racing greyhound.", "are you retired?", false},
		{"i plan to study art in florence.", "where are you from?", false},
		{"i preach at a baptist church.", "what do you do for a living?", true},
		{"i am in my first year of law school.", "so what do you do?", true},
		{"i dropped out of college.", "so what do you do?", false},
		{"i read stories to kids at the library.", "do you have kids?", false},
		{"i was raised with four sisters.", "where are you from?", false},
		// told by what one does; fears apart from what one can't eat
		{"i am a man.", "are you a guy or a girl?", true},
		{"i bowl on thursdays.", "do you play any sports?", true},
		{"i finally have time to knit.", "what do you do for fun?", true},
		{"i binge watch nature documentaries.", "what do you do in your free time?", true},
		{"i take pottery classes at night.", "are you in school?", true},
		{"i walk about ten miles a day.", "do you exercise?", true},
		{"i can not eat dairy.", "any food allergies?", true},
		{"i can not eat dairy.", "what are you afraid of?", false},
		{"i am allergic to bees.", "are you scared of anything?", false},
		{"i run into burning buildings for a living.", "do you work out?", false},
		{"i have twin boys who are six.", "how old are your kids?", true},
		{"i live alone with my parrot.", "do you live alone?", true},
		{"pad thai is the best dish.", "what's your favorite food?", true},
		{"smoked herring is my favourite snack.", "what's your favorite food?", true},
		{"my boyfriend is a chef.", "what does your bf do?", true},
		{"my husband is a pilot.", "what does your hubby do?", true},
		{"my parents are divorced.", "do your parents live together?", true},
		{"i paint watercolor horses.", "do you have any pets?", false},
		{"dogs make me sneeze.", "do you have any allergies?", true},
		{"i spend my days off fishing.", "what do you do on weekends?", true},
	} {
		context := c.fact + "\ni like the color blue.\ni have two sisters."
		got := reply(t, chat(t, context, c.question))
		if answered := answeredLine(context, got) == 0; answered != c.answers {
			t.Errorf("%q with %q: %q, answered %v, want %v", c.question, c.fact, got, answered, c.answers)
		}
	}
}

// FuzzAntecedent: whatever a partner types, the question a reply answers
// is the one typed, or one made of the message's own words (and "do
// you"): "oh i love dogs! do you have one?" asks "do you have dogs?".
func FuzzAntecedent(f *testing.F) {
	f.Add("oh i love dogs! do you have one?")
	f.Add("i love seafood, do you?")
	f.Add("i have two dogs, do you have any pets?")
	f.Add("do you?")
	f.Add(", do you have it?")
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		msg := analyze(s)
		qs := questionSentence(msg)
		got := withAntecedent(msg, qs)
		if !utf8.ValidString(got) {
			t.Fatalf("%q: question %q is not text", s, got)
		}
		if strings.HasSuffix(qs, got) {
			return // the question itself, or its part after a comma
		}
		if !strings.HasSuffix(got, "?") {
			t.Errorf("%q: question %q does not ask", s, got)
		}
		lower := strings.ToLower(s)
		for _, w := range strings.Fields(strings.TrimSuffix(got, "?")) {
			if w = strings.ToLower(w); w != "do" && w != "you" && !strings.Contains(lower, w) {
				t.Errorf("%q: question %q has %q, not in the message", s, got, w)
			}
		}
	})
}
