package offline

import (
	"hash/fnv"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/duetbot/duet/shared/brain"
)

// The features the judge's models weigh: of a partner message (dense
// ones built on Signals, and its words and word pairs hashed) and of a
// whole chat.

// messageFeatures names the dense features of a partner message, in order.
var messageFeatures = []string{
	"bias", "relevance", "substance", "novelty", "engagement",
	"log_words", "real_ratio", "question", "repeat", "copy", "copy_exact",
	"bot_asked", "ignored_question", "answered", "begging", "position",
	"i_statements", "long", "short", "context_overlap", "capitalised",
	"end_punct", "sentences", "no_content", "odd_tokens", "opens",
	"topic_jump", "greeting", "goodbye", "shouting", "repeat_partner_share",
	"own_log_words", "own_questions", "own_turns",
	"self_contradiction", "contradicts_earlier",
}

// dialogueFeatures names the features of a whole chat, in order.
var dialogueFeatures = []string{
	"bias", "mean_logit", "min_logit", "max_logit", "log_partner_turns",
	"no_partner", "one_partner", "log_bot_turns", "mean_words",
	"question_share", "repeat_share", "begging_any", "last_logit",
}

// hashBits is the size (as a power of two) of the hashed word features.
const hashBits = 12

// msgVector is a partner message's features.
type msgVector struct {
	dense [40]float64
	// texts whose words are hashed: the message, the bot's last message
	// and the one before (either may be nil), in hashSpaces.
	texts [3]*text
	// hashes, when set (for fitting), are the hashed words precomputed.
	hashes []uint32
}

// hashSpaces keep the words of the message and of the bot's last two
// messages apart.
var hashSpaces = [3]string{"", "b1", "b2"}

// withHashes returns v with its hashed words precomputed.
func (v msgVector) withHashes() msgVector {
	for k, t := range v.texts {
		if t != nil {
			hashWords(t, hashSpaces[k], func(h uint32) { v.hashes = append(v.hashes, h) })
		}
	}
	return v
}

// vector measures partner turn i.
func (d *dialogue) vector(i int) msgVector {
	var v msgVector
	msg := d.at(i)
	var bot, before *text
	earlier := make([]*text, 0, i) // the partner turns before i, latest first
	bots, ownWords, ownQuestions := 0, 0.0, 0.0
	for j := i - 1; j >= 0; j-- {
		switch d.turns[j].Role {
		case brain.Bot:
			t := d.at(j)
			if bot == nil {
				bot = t
			} else if before == nil {
				before = t
			}
			bots++
			ownWords += math.Log1p(float64(t.wordCount))
			ownQuestions += b2f(t.question)
		case brain.Partner:
			earlier = append(earlier, d.at(j))
		}
	}
	novel, repeat := novelty(msg, earlier)
	f := v.dense[:len(messageFeatures)]
	f[0] = 1
	f[1] = relevance(msg, d.ctx, bot)
	f[2] = substance(msg)
	f[3] = novel
	f[4] = engagement(msg)
	f[5] = math.Log1p(float64(msg.wordCount)) / 4
	f[6] = msg.realRatio()
	f[7] = b2f(msg.question)
	f[8] = b2f(repeat)
	if bot != nil {
		if len(msg.stems) > 0 {
			f[9] = overlap(msg.stems, bot.stems)
		} else {
			f[9] = overlap(msg.tokens, bot.tokens)
		}
		f[10] = b2f(msg.norm != "" && (msg.norm == bot.norm || (len(msg.norm) > 20 && strings.Contains(bot.norm, msg.norm))))
		f[11] = b2f(bot.question)
		shared := len(msg.stems) > 0 && overlap(msg.stems, bot.stems) > 0
		f[12] = b2f(bot.question && msg.question && !shared)
		f[13] = b2f(bot.question && !msg.question && msg.wordCount >= 2)
		f[26] = b2f(!msg.question && len(msg.stems) >= 2 && !shared && len(earlier) > 0 && overlap(msg.stems, earlier[0].stems) == 0)
	}
	f[14] = b2f(begging(msg))
	f[15] = math.Log1p(float64(len(earlier))) / 3
	f[16] = iStatements(msg)
	f[17] = min(1, float64(msg.wordCount)/40)
	f[18] = b2f(msg.wordCount <= 2)
	f[19] = overlap(msg.stems, d.ctx.stems)
	first, _ := utf8.DecodeRuneInString(d.turns[i].Text)
	f[20] = b2f(unicode.IsUpper(first))
	last := strings.TrimSpace(d.turns[i].Text)
	f[21] = b2f(last != "" && strings.ContainsAny(last[len(last)-1:], ".!?"))
	f[22] = float64(min(3, len(msg.sentences))) / 3
	f[23] = b2f(len(msg.stems) == 0)
	f[24] = b2f(oddTokens(d.turns[i].Text))
	f[25] = b2f(len(earlier) == 0 && bots == 0)
	if len(msg.words) > 0 {
		f[27] = b2f(judgeGreetings.has(msg.words[0].low))
	}
	f[28] = b2f(saysBye(msg))
	f[29] = b2f(msg.wordCount >= 2 && strings.ToUpper(d.turns[i].Text) == d.turns[i].Text && strings.ToLower(d.turns[i].Text) != d.turns[i].Text)
	f[30] = 1 - novel
	if bots > 0 {
		f[31] = ownWords / float64(bots) / 4
		f[32] = ownQuestions / float64(bots)
	}
	f[33] = math.Log1p(float64(bots)) / 3
	pos, neg := polarity(msg)
	f[34] = b2f(meets(pos, neg))
	for _, e := range earlier {
		ep, en := polarity(e)
		if meets(pos, en) || meets(neg, ep) {
			f[35] = 1
			break
		}
	}
	// What the bot itself said last tells how the chat is going (its
	// words answer the partner's earlier messages).
	v.texts = [3]*text{msg, bot, before}
	return v
}

// dialogueVector measures the whole chat of d, given the logit of each
// partner turn (in order).
func (d *dialogue) dialogueVector(logits []float64, vs []msgVector) []float64 {
	f := make([]float64, len(dialogueFeatures))
	f[0] = 1
	n := len(logits)
	bots := 0
	for _, t := range d.turns {
		if t.Role == brain.Bot {
			bots++
		}
	}
	f[4] = math.Log1p(float64(n))
	f[5] = b2f(n == 0)
	f[6] = b2f(n == 1)
	f[7] = math.Log1p(float64(bots))
	if n == 0 {
		return f
	}
	lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
	var words, questions, repeats, beg float64
	for k, z := range logits {
		sum += z
		lo, hi = min(lo, z), max(hi, z)
		words += vs[k].dense[5]
		questions += vs[k].dense[7]
		repeats += vs[k].dense[8]
		beg = max(beg, vs[k].dense[14])
	}
	fn := float64(n)
	f[1], f[2], f[3] = sum/fn, lo, hi
	f[8] = words / fn
	f[9] = questions / fn
	f[10] = repeats / fn
	f[11] = beg
	f[12] = logits[n-1]
	return f
}

var judgeGreetings = newSet("hi hello hey hiya howdy greetings yo")

func saysBye(t *text) bool {
	for _, w := range t.words {
		switch w.low {
		case "bye", "goodbye", "cya", "farewell":
			return true
		}
	}
	return false
}

// begging reports a message that asks to be rated ("give me 5 stars").
func begging(t *text) bool {
	rate, number := false, false
	for _, w := range t.words {
		switch w.low {
		case "star", "stars", "rate", "rating", "score", "scores", "evaluate", "evaluation", "grade", "points", "upvote", "thumbs":
			rate = true
		case "1", "2", "3", "4", "5", "10", "five", "ten", "high", "good", "me", "best", "max", "maximum", "highest":
			number = true
		}
	}
	return rate && number
}

// iStatements is the share of sentences that start with "i" or "my": a
// partner reciting its profile.
func iStatements(t *text) float64 {
	if len(t.sentences) == 0 {
		return 0
	}
	n, starts := 0, 0
	for _, w := range t.words {
		if !w.start {
			continue
		}
		starts++
		if w.low == "i" || w.low == "my" || w.low == "i'm" {
			n++
		}
	}
	if starts == 0 {
		return 0
	}
	return float64(n) / float64(starts)
}

// oddTokens reports machine residue: unknown-word markers, underscores,
// angle brackets.
func oddTokens(s string) bool {
	return strings.Contains(s, "unk") && strings.ContainsAny(s, "_<[") ||
		strings.Contains(s, "__") || strings.ContainsAny(s, "<>{}\\|")
}

// hashWords calls fn with the hashed words and word pairs of t (lower
// case), and a marker of its first word, in the name space space.
func hashWords(t *text, space string, fn func(uint32)) {
	const mask = 1<<hashBits - 1
	prev := space + "^"
	for _, w := range t.words {
		fn(hash2(space, w.low) & mask)
		fn(hash2(prev, w.low) & mask)
		prev = w.low
	}
	if len(t.words) == 0 {
		fn(hash2(space, "<empty>") & mask)
	}
}

// hash2 is FNV-1a (hash/fnv) of a, a zero byte and b. The fitted
// weights in judge_model.json are indexed by it: a change of hash would
// scramble every rating.
func hash2(a, b string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(a))
	h.Write([]byte{0})
	h.Write([]byte(b))
	return h.Sum32()
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// negators turn the rest of their clause negative.
var negators = newSet("not no never nothing nobody none neither nor cannot don't dont doesn't doesnt didn't didnt isn't isnt aren't arent wasn't wasnt can't cant won't wont haven't havent hasn't hasnt")

// polarity splits the topic stems of t by whether their clause is negated
// ("i do not have cats, but i do have a cat": cat in both). A clause ends
// at punctuation or "but".
func polarity(t *text) (pos, neg []string) {
	negated := false
	for _, w := range t.words {
		if w.start || !w.joined || w.low == "but" {
			negated = false
		}
		if negators.has(w.low) {
			negated = true
			continue
		}
		if !w.content || w.generic {
			continue
		}
		if negated {
			neg = append(neg, w.stem)
		} else {
			pos = append(pos, w.stem)
		}
	}
	return pos, neg
}

// meets reports whether a and b share a stem.
func meets(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}
