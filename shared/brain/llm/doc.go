// Package llm lets a large language model write the bots' words. It is
// neutral about who serves the model: a back end (package brain/openai for
// OpenAI-compatible Chat Completions APIs, package brain/bedrock for the
// Amazon Bedrock Converse API) implements the one-method Model interface, and
// Brain turns it into a brain.Replier and brain.Evaluator.
//
// A Brain never lets a chat stall on the model. Every model call runs under
// a time budget (Options.Timeout, and never past the caller's deadline less
// Options.Reserve); throttled calls are retried only while the budget lasts;
// and whenever the model errs, refuses, times out or answers something
// unusable (an empty reply, an evaluation that is not the JSON asked for),
// the offline back end answers instead. Each call is logged once, with the
// back end, model, latency, tokens and whether the fallback answered; never
// with the prompt or any credential.
package llm
