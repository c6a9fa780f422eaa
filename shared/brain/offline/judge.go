package offline

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/duetbot/duet/shared/brain"
)

// The learned part of the evaluator. A partner message is described by
// the dense features below (built on Signals) and by hashed words and word
// pairs; a logistic model of those gives the chance a human finds the
// message good, and cut points turn its logit into the 1..10 rating. The
// whole chat is described by dialogueFeatures; a linear model of those
// gives the 1..5 score. FitJudge learns both from labelled requests
// (`duet rate fit` reads them from the ConvAI2 releases); judge_model.json
// is the committed result.

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

// JudgeModel is the evaluator's learned parameters.
type JudgeModel struct {
	// MessageFeatures and DialogueFeatures name the weights, so that a
	// model fitted for other features is refused at load.
	MessageFeatures  []string `json:"message_features"`
	DialogueFeatures []string `json:"dialogue_features"`
	// Message weighs the dense features, Hashed the hashed words
	// (1<<hashBits), of a partner message.
	Message []float64 `json:"message"`
	Hashed  []float64 `json:"hashed"`
	// RatingCuts are the 9 increasing logits at which a rating becomes
	// 2, 3, …, 10.
	RatingCuts []float64 `json:"rating_cuts"`
	// Dialogue weighs the dialogue features; ScoreCuts are the 4 values at
	// which the whole-chat score becomes 2..5.
	Dialogue  []float64 `json:"dialogue"`
	ScoreCuts []float64 `json:"score_cuts"`
	// Profile is the learned lexicon of the profile guess (nil: exact
	// matches only, weighted within the candidates).
	Profile *ProfileLexicon `json:"profile,omitempty"`
	// Trained says what the model was fitted on, for people.
	Trained string `json:"trained,omitempty"`
}

//go:embed judge_model.json
var judgeModelJSON []byte

// defaultJudge returns the committed model, parsed on first use rather than
// at package initialisation: parsing takes 1-5 ms of every Lambda cold
// start, the annex bot, which links this package, never rates, and a
// binary whose model is stale (mid-refit) still starts and can run
// `duet rate fit`. TestCommittedJudge keeps the committed one valid.
var defaultJudge = sync.OnceValue(func() *JudgeModel {
	m, err := ParseJudgeModel(judgeModelJSON)
	if err != nil {
		panic("offline: judge_model.json: " + err.Error())
	}
	return m
})

// NeutralJudge is a model of this build's shape that rates every message
// alike: for replays whose ratings nobody reads, such as collecting the
// dialogues a fit learns from (FitJudge rates them anew), which must work
// while the committed model is stale.
func NeutralJudge() *JudgeModel {
	return &JudgeModel{
		MessageFeatures:  slices.Clone(messageFeatures),
		DialogueFeatures: slices.Clone(dialogueFeatures),
		Message:          make([]float64, len(messageFeatures)),
		Hashed:           make([]float64, 1<<hashBits),
		RatingCuts:       []float64{-4, -3, -2, -1, 0, 1, 2, 3, 4},
		Dialogue:         make([]float64, len(dialogueFeatures)),
		ScoreCuts:        []float64{-1.5, -0.5, 0.5, 1.5},
	}
}

// ParseJudgeModel reads a model written by JudgeModel's JSON encoding and
// checks that it fits this code's features.
func ParseJudgeModel(b []byte) (*JudgeModel, error) {
	var m JudgeModel
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	switch {
	case !slices.Equal(m.MessageFeatures, messageFeatures) || len(m.Message) != len(messageFeatures):
		return nil, fmt.Errorf("message features differ from this build's (refit with `duet rate fit`)")
	case !slices.Equal(m.DialogueFeatures, dialogueFeatures) || len(m.Dialogue) != len(dialogueFeatures):
		return nil, fmt.Errorf("dialogue features differ from this build's (refit with `duet rate fit`)")
	case len(m.Hashed) != 1<<hashBits:
		return nil, fmt.Errorf("hashed weights: %d, want %d", len(m.Hashed), 1<<hashBits)
	case len(m.RatingCuts) != 9 || !slices.IsSorted(m.RatingCuts):
		return nil, fmt.Errorf("rating_cuts: want 9 increasing values")
	case len(m.ScoreCuts) != 4 || !slices.IsSorted(m.ScoreCuts):
		return nil, fmt.Errorf("score_cuts: want 4 increasing values")
	}
	return &m, nil
}

// WithJudge returns a Brain that rates with m instead of the committed
// model.
func WithJudge(m *JudgeModel) *Brain { return &Brain{judge: m} }

func (b *Brain) model() *JudgeModel {
	if b.judge != nil {
		return b.judge
	}
	return defaultJudge()
}

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

// logit is the model's log-odds that the message of v is good.
func (m *JudgeModel) logit(v *msgVector) float64 {
	z := 0.0
	for k, w := range m.Message {
		z += w * v.dense[k]
	}
	if v.hashes != nil {
		h := 0.0
		for _, k := range v.hashes {
			h += m.Hashed[k]
		}
		return z + h/math.Sqrt(float64(len(v.hashes)))
	}
	h, n := 0.0, 0
	for k, t := range v.texts {
		if t == nil {
			continue
		}
		sum := 0.0 // each text summed apart, as the committed ratings were
		hashWords(t, hashSpaces[k], func(i uint32) { sum += m.Hashed[i]; n++ })
		h += sum
	}
	if n > 0 {
		z += h / math.Sqrt(float64(n))
	}
	return z
}

// rating turns a logit into 1..10 by the cut points.
func (m *JudgeModel) rating(z float64) int {
	n := 1
	for _, c := range m.RatingCuts {
		if z >= c {
			n++
		}
	}
	return n
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

// judged is what the model says of a whole request.
type judged struct {
	logits []float64
	vs     []msgVector
	value  float64 // the dialogue model's value, before the score cuts
}

func (b *Brain) judgeAll(d *dialogue) judged {
	m := b.model()
	var j judged
	for i, t := range d.turns {
		if t.Role != brain.Partner {
			continue
		}
		v := d.vector(i)
		j.vs = append(j.vs, v)
		j.logits = append(j.logits, m.logit(&v))
	}
	f := d.dialogueVector(j.logits, j.vs)
	for k, w := range m.Dialogue {
		j.value += w * f[k]
	}
	return j
}

// score turns a dialogue value into 1..5.
func (m *JudgeModel) score(v float64) int {
	n := 1
	for _, c := range m.ScoreCuts {
		if v >= c {
			n++
		}
	}
	return n
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
