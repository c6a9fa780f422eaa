package offline

import "strings"

// tmpl is a reply template. Slots: {a} and {b} are topics (with their
// article), {c} is a context topic other than {a}.
type tmpl struct {
	text string
	mask slotMask // the slots the text uses
}

type slotMask uint8

const (
	slotA slotMask = 1 << iota
	slotB
	slotC
)

func templates(texts ...string) []tmpl {
	out := make([]tmpl, len(texts))
	for i, s := range texts {
		out[i] = tmpl{text: s}
		for j, slot := range []string{"{a}", "{b}", "{c}"} {
			if strings.Contains(s, slot) {
				out[i].mask |= 1 << j
			}
		}
	}
	return out
}

// Openers: the bot speaks first, about the context.
var openers = templates(
	"{a} and {b}, huh? What would you do first?",
	"{a} and {b}: tricky. What's the first thing you'd do?",
	"So, {a} and {b}. Which would you deal with first?",
	"Hmm, {a}. Would you stay calm or act right away?",
	"Oh, {a}! Would you keep still or do something about it?",
	"So, {a}. What's your first move?",
	"What would you do about {a}? I'm curious.",
	"{a} would make me nervous, honestly. How would you handle it?",
	"Have you ever had to deal with {a} before?",
	"I'd keep an eye on {a} first. What about you?",
	"Interesting one. Would you deal with {a} right away or wait and see?",
	"What would you do in that situation?",
	"Interesting situation. How would you handle it?",
	"Hmm, tricky one. What's your first move?",
)

// Clarifying questions for a vague partner ("ok", "idk", "it depends").
var clarifyVague = templates(
	"What do you mean exactly \u2014 {a} or {b}?",
	"Could you say a bit more? Is it {a} that matters, or {b}?",
	"Okay, but which would you deal with first, {a} or {b}?",
	"Hmm, are we talking about {a} or {b} here?",
	"Okay, but what would you actually do about {a}?",
	"Could you be more specific? What about {a}?",
	"No worries. If you had to guess, what would you do about {a}?",
	"Do you mean you'd just ignore {a}?",
	"Fair enough, but how do you feel about {a}?",
	"Can you tell me a bit more about how you see {a}?",
	"Would {a} bother you at all?",
	"Say more? I'm curious what you'd do about {a}.",
	"What do you mean exactly?",
	"Could you tell me a bit more?",
	"Okay, but what would you actually do?",
	"Can you say a bit more about that?",
	"Hmm, how so?",
)

// Clarifying questions for a message that did not read as words.
var clarifyGarbled = templates(
	"Sorry, I didn't catch that. Did you mean {a} or {b}?",
	"Oops, that got scrambled. Were you saying something about {a} or {b}?",
	"Sorry, I didn't catch that. What would you do about {a}?",
	"Could you rephrase? I'd love to hear your take on {a}.",
	"I think something got garbled there. What do you make of {a}?",
	"Sorry, I didn't catch that. Could you rephrase?",
	"Hmm, that came out garbled. What did you mean?",
)

// Answers to questions, by the question's first word.
var (
	answerSelf = templates( // "what would you do?", "and you?"
		"Honestly, I'd stay calm and deal with {a} first.",
		"I'd probably keep still and watch {a} for a moment.",
		"I'd take it slowly; {a} isn't worth panicking over.",
		"Me? I'd deal with {a} first and think later.",
		"I'd stay calm and deal with it step by step.",
		"Me? I'd keep calm and see what happens.",
	)
	answerWhat = templates(
		"Honestly, I'd go with {a}.",
		"Probably {a}, if I had to pick.",
		"I'd say {a} is the main thing here.",
		"For me it comes down to {a} and {b}.",
		"I'd stay calm and take it step by step.",
	)
	answerWhy = templates(
		"Mostly because of {a}, I guess.",
		"I think {a} is the reason, to be honest.",
		"Because {a} changes everything, at least for me.",
		"Hard to say exactly, but I think it has to do with {a}.",
		"Hard to say exactly, it's more of a gut feeling.",
	)
	answerHow = templates(
		"Carefully, I think. {a} can go either way.",
		"Slowly and calmly, starting with {a}.",
		"I'd take it one step at a time and watch {a}.",
		"Slowly and calmly, one step at a time.",
	)
	answerWhen = templates(
		"Right away, before {a} gets out of hand.",
		"Probably as soon as I noticed {a}.",
		"Probably right away, I don't like waiting.",
	)
	answerWhere = templates(
		"Somewhere away from {a}, I'd guess.",
		"Close to {a}, probably.",
		"Somewhere quiet, I'd guess.",
	)
	answerWho = templates(
		"Probably whoever is closest to {a}.",
		"Someone who knows about {a}, ideally.",
		"Probably someone I trust.",
	)
	answerYouYesNo = templates( // "do you like wasps?"
		"I'd say yes, at least when it comes to {a}.",
		"Not really, I'm not big on {a}.",
		"Sometimes! It depends on {a}, to be honest.",
		"Yes, I think so, especially with {a}.",
		"I think so, yes.",
		"Not really, to be honest.",
	)
	answerYesNo = templates( // "is it dangerous?"
		"I think so, {a} can be unpredictable.",
		"Probably not, but {a} can surprise you.",
		"It might, depending on {a}.",
		"I think so, but I'm not completely sure.",
	)
	answerOther = templates(
		"Good question. I think {a} matters most here.",
		"Honestly, I'm not sure, but I'd keep an eye on {a}.",
		"I'd say it depends on {a}.",
		"Good question. I'm honestly not sure.",
	)
)

// questionsBack follow an answer.
var questionsBack = templates(
	"What about you?",
	"And you?",
	"Would you do the same?",
	"What would you do?",
	"How about you?",
	"Do you see it differently?",
	"Have you ever been in a situation like that?",
	"",
)

// choiceReasons follow a pick between two options.
var choiceReasons = []string{
	"",
	" It feels like the safer choice.",
	" It just seems more sensible to me.",
	" That's my gut feeling, anyway.",
}

// Reactions to a partner's statement, and the follow-ups after them.
var (
	reactions = templates(
		"Oh, {a}, I hadn't thought of that.",
		"{a}, really? Interesting.",
		"Good point about {a}.",
		"Fair enough, {a} makes sense.",
		"I see what you mean about {a}.",
		"Ha, {a}. That's a fair point.",
		"I see what you mean.",
		"Fair enough.",
		"That makes sense.",
		"Interesting, I hadn't thought of it that way.",
	)
	followUps = templates(
		"How does that connect to {c}?",
		"Would that change what you'd do about {c}?",
		"And what about {c}?",
		"What made you think of that?",
		"Can you tell me more about that?",
		"Have you been in a situation like that before?",
		"What would you do next?",
		"Does {c} still matter, then?",
	)
)

// lastResort clauses make an otherwise repeated reply distinct.
var lastResort = []string{
	"Just to be sure.",
	"I'm still curious.",
	"Humour me.",
	"Sorry if I'm repeating myself.",
}

// A voice is the set of templates that depend on what kind of context the
// chat discusses. The 2017 server sent either a situation to react to (the
// seed's "…a wasp crawling on your wrist. What you gonna do?") or a
// paragraph of facts to discuss (SQuAD-style: "The Trans-Siberian Railway
// is the longest railway line in the world…"): "what would you do about
// the longest railway?" makes sense only for the first.
type voice struct {
	openers, clarifyVague, answerSelf, answerHow, answerWhen, answerWhere,
	answerWho, questionsBack, followUps []tmpl
}

// situationVoice reacts to a situation the reader is put in.
var situationVoice = &voice{
	openers: openers, clarifyVague: clarifyVague, answerSelf: answerSelf, answerHow: answerHow,
	answerWhen: answerWhen, answerWhere: answerWhere, answerWho: answerWho,
	questionsBack: questionsBack, followUps: followUps,
}

// paragraphVoice discusses a paragraph of facts.
var paragraphVoice = &voice{
	openers: templates(
		"{a} and {b}, interesting. What do you make of it?",
		"So, {a}. Did you know that before?",
		"I didn't know that about {a}. Did you?",
		"Have you ever read much about {a}?",
		"What do you think about {a}?",
		"Fun one, {a}. Does any of it surprise you?",
		"Interesting read. What stood out to you?",
		"What do you make of that?",
		"Did any of that surprise you?",
	),
	clarifyVague: templates(
		"What do you mean exactly — {a} or {b}?",
		"Could you say a bit more? Is it {a} that interests you, or {b}?",
		"Hmm, are we talking about {a} or {b} here?",
		"Could you be more specific? What about {a}?",
		"Fair enough, but how do you feel about {a}?",
		"Can you tell me a bit more about how you see {a}?",
		"No worries. Had you heard of {a} before?",
		"What do you mean exactly?",
		"Could you tell me a bit more?",
		"Can you say a bit more about that?",
		"Hmm, how so?",
	),
	answerSelf: templates(
		"Honestly, I find {a} the most interesting part.",
		"Me? I'd like to know more about {a}.",
		"I think I'd read more about {a}.",
		"{a} caught my eye, to be honest.",
		"I find it interesting, honestly.",
		"Me? I'm curious to learn more.",
	),
	answerHow: templates(
		"I'm not sure how, but I think it has a lot to do with {a}.",
		"Good question. I'd guess it comes down to {a}.",
		"I don't know the details, but it has to do with {a}.",
		"Good question, I'm not sure how exactly.",
	),
	answerWhen: templates(
		"I'm not sure when; I'd have to read up on {a}.",
		"Hard to say when exactly, I'd have to look up {a}.",
		"I'm not sure when, to be honest.",
	),
	answerWhere: templates(
		"Somewhere near {a}, if I remember right.",
		"I'd have to look that up, but I'd start with {a}.",
		"I'm not sure where, to be honest.",
	),
	answerWho: templates(
		"I'm not sure who, but it has to do with {a}.",
		"Probably someone who knows {a} well.",
		"I'm not sure who, to be honest.",
	),
	questionsBack: templates(
		"What about you?",
		"And you?",
		"What do you think?",
		"How about you?",
		"Do you see it differently?",
		"What's your take?",
		"",
	),
	followUps: templates(
		"How does that connect to {c}?",
		"And what about {c}?",
		"What made you think of that?",
		"Can you tell me more about that?",
		"Have you read much about {c}?",
		"Are you into {c} too?",
		"What else do you know about it?",
	),
}

// voiceOf returns the voice for a context: a situation when it speaks to
// the reader or asks something, else a paragraph (also for no context).
func voiceOf(t *text) *voice {
	if t.addresses || t.question {
		return situationVoice
	}
	return paragraphVoice
}

// templateVocab holds the stems of the templates' own content words: the
// partner echoing them shows no interest in the topic.
var templateVocab = func() set {
	s := set{}
	lists := [][]tmpl{clarifyGarbled, answerWhat, answerWhy, answerYouYesNo, answerYesNo, answerOther, reactions}
	for _, v := range []*voice{situationVoice, paragraphVoice} {
		lists = append(lists, v.openers, v.clarifyVague, v.answerSelf, v.answerHow, v.answerWhen,
			v.answerWhere, v.answerWho, v.questionsBack, v.followUps)
	}
	for _, list := range lists {
		for _, t := range list {
			for st := range analyze(t.text).stems {
				s.add(st)
			}
		}
	}
	for _, r := range append(choiceReasons, lastResort...) {
		for st := range analyze(r).stems {
			s.add(st)
		}
	}
	return s
}()
