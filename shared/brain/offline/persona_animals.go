package offline

import (
	"slices"
	"strings"
)

// Animals named in a profile that are no pets of one's own.

// noPetAt reports an animal's name at ws[i] that names no pet: "wooden
// birds", "frozen fish", "i buy fish at the port", "grew up on a sheep
// farm", "i don't eat meat or fish", "bird watching", "portraits of
// pups", "i fish for walleye", "i paint watercolor birds".
func noPetAt(ws []string, i int) bool {
	w, prev, next, prev2 := ws[i], "", "", ""
	if i > 0 {
		prev = ws[i-1]
	}
	if i > 1 {
		prev2 = ws[i-2]
	}
	if i+1 < len(ws) {
		next = ws[i+1]
	}
	raisedOn := (next == "farm" || next == "ranch") && slicesHasAny(ws[:i], farmLives) // "i live on a cattle ranch": stock, not pets
	return madeOf.has(prev) || foodAdjectives.has(prev) || tradeAnimals.has(prev) || tradeAnimals.has(prev2) && determiners.has(prev) ||
		raisedOn || slicesHasAny(ws, eatWords) || strings.HasSuffix(next, "ing") || animalGoods.has(next) ||
		prev == "of" && depictions.has(prev2) || w == "fish" && (prev == "i" || prev == "to") ||
		depictVerbs.has(prev) || depictVerbs.has(prev2) && (depictions.has(prev) || prev == "watercolor")
}

// animalGoods are things named after an animal: "goldfish crackers".
var animalGoods = newSet("crackers cracker cookies gummies shaped costume costumes onesie slippers")

// farmLives tell a life on a farm: its animals are stock.
var farmLives = newSet("grew raised live lives living")

// depictVerbs and depictions show an animal without having it: "i paint
// watercolor birds", "portraits of pups".
var depictVerbs = newSet("paint paints draw draws sketch sketches photograph photographs")

var depictions = newSet("portraits pictures photos photographs paintings drawings sketches watercolors watercolours statues videos")

// eatWords make an animal food: "i have not eaten anything from an
// animal", "i can't stand the taste of fish".
var eatWords = newSet("eat eats ate eaten eating taste")

// madeOf are the words before an animal that make it a thing.
var madeOf = newSet("wooden stuffed toy plastic ceramic glass paper")

// tradeAnimals buy, sell or catch animals that are no pets: "i buy fish at
// the port".
var tradeAnimals = newSet("buy buys sell sells catch catches cook cooks fry shear shears butcher")

// foodAdjectives make an animal food: "frozen fish".
var foodAdjectives = newSet("frozen fresh fried smoked raw grilled canned roast roasted")

// namesKindAsked reports that fact f speaks of the kind of animal a
// question asks the name of: "what's your dog's name?" is not answered
// by "two ferrets named pickle and mustard".
func (f *fact) namesKindAsked(topics []topic) bool {
	for _, t := range topics {
		if kindOfAnimal(t) && !f.speaksOf(t.stem) {
			return false
		}
	}
	return true
}

// kindOfAnimal reports a topic naming a kind of animal, not any pet.
func kindOfAnimal(t topic) bool { return t.cat&catPet != 0 && t.stem != "pet" && t.stem != "anim" }

// fearsAnimal reports a fact of a fear of animals: "i have a severe fear
// of snakes", not "my dog is afraid of thunder".
func fearsAnimal(f *fact) bool {
	ws := f.words
	fi := slices.IndexFunc(ws, fearAsks.has)
	return fi >= 0 && !slicesHasAny(ws[:fi], possessives) && !slices.ContainsFunc(ws[:fi], func(w string) bool { return intentOf(w)&catPet != 0 })
}

// namesAnimal reports a question naming a kind of animal fact f speaks
// of: "do you have a dog?" and "i am afraid of dogs".
func (a *asked) namesAnimal(f *fact) bool {
	return slices.ContainsFunc(a.topics, func(t topic) bool { return kindOfAnimal(t) && f.speaksOf(t.stem) })
}
