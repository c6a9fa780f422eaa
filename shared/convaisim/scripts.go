package convaisim

import (
	"math"
	"math/rand/v2"
	"strings"
)

// Script is one scripted partner.
type Script struct {
	Name string
	// Context is the situation sent with /start, one or more lines.
	Context []string
	// Begin makes the server send /begin after /start: the bot speaks first.
	Begin bool
	// Lines are the partner's messages, each sent after the bot's reply
	// to the one before.
	Lines []string
	// Goodbye marks a script whose last line says goodbye: the bot may end
	// the chat itself.
	Goodbye bool
	// ServerEnds makes the server end the chat with /end right after Lines,
	// without giving the bot time to end it.
	ServerEnds bool
}

// startText is the first message of a chat in dialect d.
func (s Script) startText(d Dialect) string {
	if d == Dialect2018 {
		return "/start\n" + strings.Join(s.Context, "\n")
	}
	return "/start " + strings.Join(s.Context, " ")
}

// endText is the server's /end in dialect d (the 2018 router sends its
// evaluation request instead: see chat.cast).
func endText(Dialect) string { return "/end" }

// Scripts are the partners the simulator plays, assigned to chats in turn.
var Scripts = []Script{
	{
		Name:    "wasp",
		Context: []string{"You're sitting watching TV, and suddenly you discover a wasp crawling on your wrist. What you gonna do?"},
		Lines:   []string{"A stinging bug that flies.", "They died out because of the dust.", "What would you do if one landed on you?"},
	},
	{
		Name:    "begin",
		Context: []string{"The Trans-Siberian Railway is the longest railway line in the world.", "It connects Moscow with Vladivostok."},
		Begin:   true,
		Lines:   []string{"Have you ever travelled by train for a week?", "I think it would be boring after two days."},
	},
	{
		Name:    "goodbye",
		Context: []string{"Libraries lend books, music and films for free."},
		Lines:   []string{"Hi there! Do you use libraries?", "I mostly read history books.", "OK, I have to go now. Bye!"},
		Goodbye: true,
	},
	{
		Name:       "server-end",
		Context:    []string{"Coffee is one of the most traded goods in the world."},
		Lines:      []string{"How many cups do you drink a day?"},
		ServerEnds: true,
	},
	{
		Name:    "long",
		Context: []string{"Chess is a board game for two players.", "It is played on a board of 64 squares."},
		Lines: []string{
			"Do you play chess?", "I learned it from my grandfather.", "He always opened with the king's pawn.",
			"What is your favourite opening?", "I never understood the Sicilian defence.", "Do computers play better than people now?",
			"I think so, since the nineties.", "Does that make the game less interesting?", "I still enjoy playing in the park.",
			"There is an old man there who never loses.", "He says he has played for sixty years.", "Do you think talent matters more than practice?",
			"I practise a little every evening.", "Mostly puzzles, not whole games.", "Puzzles teach you to see tactics.",
			"Have you heard of blindfold chess?", "Some masters play ten games blindfolded at once.", "That sounds impossible to me.",
			"Memory is a strange thing.", "I forget where I put my keys every day.", "Yet I remember games from years ago.",
			"Maybe it is about what we care for.", "What do you care for most?", "That is a good answer.", "Let's talk about something else.",
		},
	},
}

// chatIDs returns n distinct non-zero chat ids for dialect d, drawn from
// rng: positive, negative, and beyond 32 bits where the dialect allows
// (the 2017 server's ids are signed 32-bit, and it uses their extremes).
// A fresh rng per run gives every run its own chats, so that a bot that
// remembers chats (a shared table) sees new ones each time.
func chatIDs(d Dialect, n int, rng *rand.Rand) []int64 {
	ids := make([]int64, n)
	seen := map[int64]bool{0: true}
	for i := range ids {
		for {
			var id int64
			switch i % 4 {
			case 0:
				id = 100_000 + rng.Int64N(1<<30) // positive, 32-bit
			case 1:
				id = -(100_000 + rng.Int64N(1<<30)) // negative, 32-bit
			case 2:
				if d == Dialect2017 {
					id = math.MaxInt32 - rng.Int64N(1<<20) // near the top of int32
				} else {
					id = 1<<40 + rng.Int64N(1<<40) // beyond 32 bits
				}
			default:
				if d == Dialect2017 {
					id = math.MinInt32 + rng.Int64N(1<<20) // near the bottom of int32
				} else {
					id = -(1<<41 + rng.Int64N(1<<40))
				}
			}
			if !seen[id] {
				seen[id] = true
				ids[i] = id
				break
			}
		}
	}
	return ids
}
