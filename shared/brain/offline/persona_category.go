package offline

import (
	"strings"
)

// category says what a fact is about, to match questions ("do you have
// pets?") and to ask the partner about the same.
type category uint32

const (
	catPet category = 1 << iota
	catJob
	catFamily
	catHobby
	catFood
	catMusic
	catSport
	catPlace
	catCar
	catStudy
	catBooks
	catFilms
	catAge
	catLooks
	catPlans
	catFear
	catLanguage
	catDrink
	catTravel
	catReligion
	catHealth
	catRhythm // when one wakes and sleeps: "i get up at four every morning"

	// Marks, not intents: what factIntents found that the sentence's
	// shape alone would get wrong. The paraphraser guesses intents from
	// the shape ("i love …" a pastime, "i am in …" a place); a mark
	// overrides the guess when the profile's fact is matched to a
	// question (fact.intents).
	catNotPastime // a liking of a thing, not of doing something: "i love donuts"
	catNotPlace   // "i am in the army", "i work from home"
	catSpareTime  // a pastime named as one: "in my spare time", "as a hobby"
	catNotJob     // "i'm a college student"
)

// marks are the bits of a category that are not intents.
const marks = catNotPastime | catNotPlace | catSpareTime | catNotJob

// intents returns what fact f answers questions about: its categories,
// the paraphraser's guesses that factIntents overrode taken out.
func (f *fact) intents() category {
	c := f.cats
	if c&catNotPastime != 0 || f.neg {
		c &^= catHobby // a dislike or a liked thing is not a pastime
	}
	if c&catNotPlace != 0 {
		c &^= catPlace
	}
	if c&catNotJob != 0 {
		c &^= catJob
	}
	return c &^ marks
}

// categoryWords maps words to what they are about.
var categoryWords = func() map[string]category {
	m := map[string]category{}
	for c, words := range map[category]string{
		catPet: `pet pets dog dogs cat cats horse horses puppy puppies kitten kittens fish
hamster hamsters parrot parrots bird birds rabbit rabbits snake snakes animal
animals pony ponies`,
		catJob: `job jobs work works working living career boss office company retired
employed unemployed profession occupation business shift`,
		catFamily: `family mom mother dad father parents sister sisters brother brothers
kids kid children child son sons daughter daughters wife husband married
grandma grandmother grandpa grandfather siblings sibling twins baby babies`,
		catHobby: `hobby hobbies fun free weekend weekends spare`,
		catFood: `food foods eat eating pizza cook cooking meat vegan vegetarian dish
dinner lunch breakfast bake baking coffee tea chocolate drink`,
		catMusic: `music song songs band bands sing singing guitar piano concert concerts
rock country jazz rap musician musicians instrument instruments drums hip hop
pop metal classical blues punk opera singer rapper album albums violin`,
		catSport: `sport sports football soccer basketball baseball tennis hockey golf
team gym run running swim swimming exercise`,
		catPlace: `live from city town country state grew born move moved where`,
		catCar:   `car cars drive driving truck`,
		catStudy: `school college university study studying student class degree`,
		catBooks: `book books read reading novel novels poetry poems writing write`,
		catFilms: `movie movies film films tv show shows watch watching`,
		catAge:   `age old young years`,
		catLooks: `hair eyes tall short height skin look looks beard tattoo tattoos male female
man woman boy girl guy lady`,
	} {
		for w := range strings.FieldsSeq(words) {
			m[w] |= c
		}
	}
	return m
}()

func categoryOf(w string) category { return categoryWords[w] }

// categoryNames name a whole category, as opposed to one thing in it:
// "pets", not "fish".
var categoryNames = newSet(`pet pets animal animals job jobs work working living career
profession occupation family kids children siblings hobby hobbies fun free spare
weekend weekends food foods eat cook cooking drink drinks music band bands instruments sport
sports exercise active live from city town country grew born car cars drive school
college university study studying student language languages book books read reading movie movies
film films tv show shows watch watching age old hair eyes look looks tall
fears phobias allergies drinks vehicle vehicles languages plans goals dreams afraid scared fear phobia
allergic business stories bilingual health travel traveling travelling traveled travelled trips abroad`)
