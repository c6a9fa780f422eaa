package offline

// The words breakSay reads to choose how to break a sentence: which verbs
// take a longer preposition, which adjectives say a kind, which places
// "the local" names, which words it may add and where.

// placeVerbs say where one is: a longer preposition after them reads
// well ("I live over in ohio"), after another verb hardly ("born over in").
var placeVerbs = newSet("live lives lived living work works worked working stay stays stayed based located")

// kindWords are adjectives that say what kind, not how much: never "a
// really part time job".
var kindWords = newSet("part full former ex real true single public private local medical dental legal")

// colours name a kind more than they describe: "a black lab".
var colours = newSet("red orange yellow green blue purple pink brown black white grey gray blonde blond")

// localPlaces are the places of a town, or the first word of one's name,
// that "the local" may name: "the local library", "the local animal
// shelter".
var localPlaces = newSet("library zoo park pool gym church market museum theater theatre cinema mall diner cafe pub bar clinic pharmacy supermarket animal fire community grocery coffee hardware")

// thinkVerbs take a clause: "i know that…", "i think who…" are no
// relative clauses.
var thinkVerbs = newSet("know knows think thinks say says said hope hopes wish believe believes feel feels guess mean means realize realized found find finds")

// softenerWords are the words breakSay adds that a sentence may already
// say: never twice (repeatsSoftener).
var softenerWords = newSet("over actually really very own along")

// veryWords are the ends and ranks "the very" may stand before.
var veryWords = newSet("first last best end beginning start top bottom same")

// weekdays and dayParts name a time of the week, which goes whole: "every
// thursday night".
var (
	weekdays = newSet("monday tuesday wednesday thursday friday saturday sunday")
	dayParts = newSet("night nights morning mornings evening evenings afternoon afternoons")
)

// objectPronouns go right after their verb: never "who annoys, like, me".
var objectPronouns = newSet("me it them him her us")

// seasons are the times of year and day chat names without "the".
var seasons = newSet("winter summer spring fall autumn")

// looseSwaps are words whose swap fits some sentences only: "a new job"
// is not "a new work", "home depot" not "house depot".
var looseSwaps = newSet("job home house pizza going tend together")

// chatPhrases are set phrases as people type them in chat: "gonna".
var chatPhrases = [][2]string{{"going to", "gonna"}, {"want to", "wanna"}, {"kind of", "kinda"}, {"sort of", "sorta"}}

// digits are the numbers written out that swaps does not give as digits.
var digits = map[string]string{
	"eleven": "11", "twelve": "12", "thirteen": "13", "fourteen": "14", "fifteen": "15", "sixteen": "16",
	"seventeen": "17", "eighteen": "18", "nineteen": "19", "thirty": "30", "forty": "40", "fifty": "50",
	"sixty": "60", "seventy": "70", "eighty": "80", "ninety": "90", "hundred": "100",
}

// subjectsOfLike stand before "like" the verb, which may be said "enjoy":
// "i like", "would like", never "feel like".
var subjectsOfLike = newSet("i we they you also really still to would do don't")

// amounts say how long or how much after "a", never a place: "for a
// decade", "for a living", "in a while".
var amounts = newSet("decade decades century while living bit lot couple few little week long")

// placePrepositions bring in a place or an employer: "at a diner", "for a
// bank".
var placePrepositions = newSet("at in for on from near by")

// prepositionWords are prepositions a filler after reads badly.
var prepositionWords = newSet("in at on with from by of for about into onto over under near as during")
