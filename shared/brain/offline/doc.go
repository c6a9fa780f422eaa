// Package offline is the deterministic, network-free back end of the ConvAI
// bot: a reply engine that keeps to the topic of the context and an evaluator
// that rates the partner from named, testable signals.
//
// The same Request always gives the same output: choices among templates are
// made by hashing the request (FNV-1a, hash/fnv), never with a clock or an
// unseeded random source.
//
// A chat's context is analysed once, when the chat starts, and kept in a
// Brain's least-recently-used cache of the contexts of the chats in
// progress (contextCacheSize); the messages of a chat are analysed once
// too, not once per later turn.
//
// # Replies in a profile's voice
//
// When the context is a ConvAI2 profile ("i like to ride horses.\ni help
// tend the fields.\n…": first-person sentences), the bot plays that person.
// Each sentence becomes a fact with paraphrases in the bot's own words
// ("I'm really into riding horses"), none repeating a word trigram of the
// profile as the router reads them (the router refuses such a message;
// router.go), and
// with the categories of question it answers (pets, job, family…). A reply
// is a lead (an answer from the matching fact, or a reaction to the
// partner's words), one fact not told yet, and a question about the partner
// on something they have not talked about. What the partner says about
// themselves ("i have two dogs") is remembered and brought back later; a
// question the profile does not cover gets neither a yes nor a no.
//
// # Replies to a paragraph
//
// For the 2017 server's paragraph, the reply engine extracts content words from the context and from the
// partner's last message (lower-cased, stopwords and chat fillers dropped,
// gibberish rejected) and ranks them as topics, preferring noun-like words:
// those after a determiner ("a wasp", "your wrist"), plurals, acronyms and
// proper nouns, and short determiner-led phrases ("a birthday party"). Words
// with verb or adverb endings (-ing, -ed, -ly) rank low. It then picks one of
// four moves:
//
//   - the bot speaks first: a question about the context's key topics;
//   - the partner asked a question: a short answer that reuses the question's
//     topics (or picks one side of an "A or B?" question), often followed by
//     a question back;
//   - the partner was vague ("ok", "idk", "it depends") or wrote gibberish: a
//     clarifying question about the context's topics;
//   - otherwise: a reaction to the partner's topic, linked back to the
//     context, with a follow-up question.
//
// Templates are filled with the topics and polished (capitals, punctuation,
// spacing). The engine never repeats one of its earlier messages in the chat:
// when the chosen template collides it tries the next templates and topic
// rotations, and as a last resort appends a distinguishing clause.
//
// # Ratings
//
// Rate scores the partner's last message from four signals in 0..1, combined
// with the weights WeightRelevance, WeightSubstance, WeightNovelty and
// WeightEngagement into 1..10 (see Signals.Rating):
//
//   - relevance: overlap of the message's (lightly stemmed) content words
//     with the context, and at half weight with the bot's last message;
//   - substance: number of content words and of words, scaled by the share
//     of words that look like English (a gibberish detector);
//   - novelty: one minus the overlap with the partner's earlier messages;
//   - engagement: a question back, and addressing the bot ("you").
//
// Gibberish, messages of one or two words and exact repeats are capped low.
// Final recomputes the rating of every partner message for quality, counts
// the distinct topics the partner brought in for breadth, and the share of
// engaged messages and the number of partner turns for engagement.
package offline
