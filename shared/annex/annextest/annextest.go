// Package annextest generates realistic team-chat transcripts of one person,
// of any length and from a fixed seed, and annex requests asking that person
// new questions: the personas and the load of the annex benchmarks and of
// `make annex-loadtest`, which must not depend on big files in the
// repository.
package annextest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/duetbot/duet/shared/annex"
)

// Person is the user id of the person the transcripts are about; their
// username is PersonName.
const (
	Person     = "U01ADA"
	PersonName = "ada"
)

var users = []annex.User{
	{ID: Person, Username: PersonName},
	{ID: "U02BEN", Username: "ben"},
	{ID: "U03CHLOE", Username: "chloe"},
	{ID: "U04DEV", Username: "dev"},
	{ID: "U05EMMA", Username: "emma"},
	{ID: "U06FARID", Username: "farid"},
}

// Word lists. The topics are many and drawn with a skew (a few come up all
// the time, most rarely), as in a real team's chat.
var (
	topics = strings.Fields(`billing-service kubernetes postgres dynamodb redis kafka terraform
	integration-tests flaky-tests release-train on-call-rotation runbook dashboards alerts
	latency-budget error-budget cache-layer search-index migration schema backups snapshots
	feature-flags canary rollout rollback hotfix incident postmortem retro roadmap quarter-plan
	design-doc rfc code-review linter formatter monorepo build-cache ci-pipeline docker-images
	base-image cve-scan secrets-manager iam-roles vpc load-balancer cdn dns certificates
	rate-limiter queue workers cron-jobs batch-export data-warehouse analytics-events
	mobile-app web-app api-gateway graphql grpc websocket sdk docs onboarding interviews
	hiring-plan budget vendor-contract sso audit-log gdpr retention-policy staging sandbox
	load-test benchmarks profiling memory-leak goroutine-leak timeouts retries idempotency
	pagination search-ranking recommendations notifications email-service sms-provider
	payments invoices refunds fraud-checks ledger reconciliation accounting-export
	customer-support sla uptime status-page capacity-plan autoscaling spot-instances
	cost-report tagging-policy observability tracing logging metrics-pipeline`)
	verbs = strings.Fields(`move migrate rewrite split merge drop freeze ship delay review
	test benchmark document automate deprecate replace upgrade pin rollback cache shard
	monitor audit simplify refactor containerise outsource`)
	whens = []string{"this quarter", "before Friday", "next sprint", "today", "this week",
		"after the launch", "before the audit", "by Monday", "in Q3", "before the freeze"}
	askers = []string{
		"should we {v} the {t} {w}?",
		"what do you think about the {t}?",
		"can we {v} the {t} {w}, or is that too risky?",
		"the {t} failed again last night. {v} it {w}?",
		"any opinion on the {t} vs the {t2}?",
		"do we still need the {t} after the {t2} change?",
		"who owns the {t} now?",
		"is the {t} blocking the {t2}?",
		"I'd like to {v} the {t} {w}. Objections?",
		"how should we handle the {t} during the {t2} work?",
	}
	chatter = []string{
		"I can take the {t} part.",
		"Thanks, that makes sense.",
		"Ticket {id} is open for the {t}.",
		"Merged the {t} fix, {t2} next.",
		"Standup moved to 10:30 {w}.",
		"The {t} dashboard looks green again.",
	}
	openers  = []string{"Short answer:", "Honestly,", "Hmm,", "Fair point,"}
	verdicts = []string{"no", "yes, but carefully", "not yet", "yes", "let's wait",
		"only behind a flag", "depends on the numbers"}
	reasons = []string{
		"Boring tech wins — the {t} is fine as it is.",
		"The {t} has caused three pages this month.",
		"We have no metrics on the {t} yet, so we'd be guessing.",
		"The {t2} depends on it and nobody has load-tested that path.",
		"It's a one-way door: once we {v} the {t} we can't easily go back.",
		"The team is already stretched with the {t2}.",
		"Measure first: caches and rewrites hide bugs.",
		"The {t} costs us more in on-call than in servers.",
	}
	advice = []string{
		"Write a one-page design doc and we'll decide on {day}.",
		"Open a ticket, quarantine it, and fix the root cause {w}.",
		"Pair with {who} on it {w}.",
		"Ship it Monday morning with someone watching the dashboards.",
		"Put it behind a feature flag and roll it out to 5% first.",
		"Let's revisit when it actually hurts.",
		"Add an alert on the {t} first, then we talk.",
	}
	closers = []string{"🙂", "Ship it.", "Boring wins.", ""}
	days    = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday"}
)

// gen draws the parts of messages from one seeded source.
type gen struct{ r *rand.Rand }

func newGen(seed uint64) gen { return gen{rand.New(rand.NewPCG(seed, 0x5eed))} }

// topic draws a topic with a Zipf-like skew.
func (g gen) topic() string {
	i := int(float64(len(topics)) * g.r.Float64() * g.r.Float64())
	return strings.ReplaceAll(topics[i], "-", " ")
}

func (g gen) pick(list []string) string { return list[g.r.IntN(len(list))] }

// fill expands one template with fresh words (all drawn, used or not, so
// that a template does not change what the next one draws).
func (g gen) fill(tmpl string) string {
	words := map[string]string{
		"v": g.pick(verbs), "t": g.topic(), "w": g.pick(whens), "t2": g.topic(),
		"id": fmt.Sprintf("OPS-%d", 1000+g.r.IntN(9000)), "day": g.pick(days),
		"who": users[1+g.r.IntN(len(users)-1)].Username,
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(tmpl, '{')
		j := strings.IndexByte(tmpl[max(i, 0):], '}')
		if i < 0 || j < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		b.WriteString(tmpl[:i])
		b.WriteString(words[tmpl[i+1:i+j]])
		tmpl = tmpl[i+j+1:]
	}
}

// question is something a colleague asks the person.
func (g gen) question() string {
	q := g.fill(g.pick(askers))
	if g.r.IntN(3) == 0 {
		q = "Ada, " + q
	}
	return upper(q)
}

// answer is the person's reply, in their manner: an opener, a verdict, a
// reason, often advice, sometimes a closer.
func (g gen) answer() string {
	var b strings.Builder
	if g.r.IntN(3) > 0 {
		b.WriteString(g.pick(openers) + " ")
	}
	b.WriteString(g.pick(verdicts) + ". ")
	b.WriteString(g.fill(g.pick(reasons)))
	if g.r.IntN(2) == 0 {
		b.WriteString(" " + g.fill(g.pick(advice)))
	}
	if c := g.pick(closers); c != "" {
		b.WriteString(" " + c)
	}
	return upper(b.String())
}

func upper(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Transcript returns a transcript of n messages (n ≥ 1) of a team chat in
// which the person answers most of what they are asked, the same for the
// same n and seed.
func Transcript(n int, seed uint64) annex.Transcript {
	g := newGen(seed)
	t := annex.Transcript{Person: Person, Users: users}
	at := time.Date(2024, 3, 4, 9, 0, 0, 0, time.UTC)
	for len(t.Messages) < n {
		asker := users[1+g.r.IntN(len(users)-1)].ID
		var text string
		var tagged []string
		if g.r.IntN(4) == 0 {
			text = upper(g.fill(g.pick(chatter)))
		} else {
			text, tagged = g.question(), []string{Person}
		}
		t.Messages = append(t.Messages, message(len(t.Messages), asker, text, at, tagged))
		at = at.Add(time.Duration(1+g.r.IntN(30)) * time.Minute)
		if len(t.Messages) < n && tagged != nil {
			t.Messages = append(t.Messages, message(len(t.Messages), Person, g.answer(), at, nil))
			at = at.Add(time.Duration(1+g.r.IntN(30)) * time.Minute)
		}
	}
	return t
}

func message(i int, from, text string, at time.Time, tagged []string) annex.Message {
	return annex.Message{From: from, ID: fmt.Sprintf("m%06d", i), Text: text, Timestamp: at.Format(time.RFC3339), Tagged: tagged}
}

// Requests returns n annex requests asking the person new questions (drawn
// from a seed other than the transcripts'), each with a short context of
// the channel that holds one earlier exchange with the person: the bot
// learns from it as it would from a live channel.
func Requests(n int, seed uint64) []annex.Request {
	g := newGen(seed ^ 0x9e3779b97f4a7c15)
	at := time.Date(2025, 6, 2, 14, 0, 0, 0, time.UTC)
	out := make([]annex.Request, n)
	for i := range out {
		asker := users[1+g.r.IntN(len(users)-1)].ID
		id := func(k int) string { return fmt.Sprintf("r%06d-%d", i, k) }
		ctx := []annex.Message{
			{From: users[1+g.r.IntN(len(users)-1)].ID, ID: id(0), Text: upper(g.fill(g.pick(chatter))), Timestamp: at.Format(time.RFC3339)},
			{From: asker, ID: id(1), Text: g.question(), Timestamp: at.Add(time.Minute).Format(time.RFC3339), Tagged: []string{Person}},
			{From: annex.BotFrom, ID: id(2), Text: g.answer(), Timestamp: at.Add(2 * time.Minute).Format(time.RFC3339)},
		}
		out[i] = annex.Request{
			Context: ctx,
			Users:   users,
			Message: annex.Message{From: asker, ID: id(3), Text: g.question(), Timestamp: at.Add(3 * time.Minute).Format(time.RFC3339), Tagged: []string{Person}},
		}
		at = at.Add(5 * time.Minute)
	}
	return out
}
