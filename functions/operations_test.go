package functions_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/duetbot/duet/shared/metrics"
)

// resources is template.yaml's Resources, each kept as a YAML node.
type resources map[string]struct {
	Type       string    `yaml:"Type"`
	Condition  string    `yaml:"Condition"`
	Properties yaml.Node `yaml:"Properties"`
}

func readResources(t *testing.T) (resources, map[string]yaml.Node) {
	t.Helper()
	var tmpl struct {
		Parameters map[string]yaml.Node `yaml:"Parameters"`
		Resources  resources            `yaml:"Resources"`
	}
	readTemplate(t, &tmpl)
	return tmpl.Resources, tmpl.Parameters
}

// field returns the value of key in mapping n (nil when absent).
func field(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// path follows keys from n.
func path(n *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		n = field(n, k)
	}
	return n
}

// TestLogGroups: every function logs to a log group the template declares,
// kept LogRetentionDays (30 by default), and no two share one.
func TestLogGroups(t *testing.T) {
	res, params := readResources(t)
	days := params["LogRetentionDays"]
	if d := field(&days, "Default"); d == nil || d.Value != "30" {
		t.Errorf("LogRetentionDays default %v, want 30", d)
	}
	used := map[string]string{}
	for name, r := range res {
		if r.Type != "AWS::Serverless::Function" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			lg := path(&r.Properties, "LoggingConfig", "LogGroup")
			if lg == nil || lg.Tag != "!Ref" {
				t.Fatalf("LoggingConfig.LogGroup %v: want !Ref of a declared log group", lg)
			}
			group, ok := res[lg.Value]
			if !ok || group.Type != "AWS::Logs::LogGroup" {
				t.Fatalf("LogGroup !Ref %s is not an AWS::Logs::LogGroup of the template", lg.Value)
			}
			if r := field(&group.Properties, "RetentionInDays"); r == nil || r.Tag != "!Ref" || r.Value != "LogRetentionDays" {
				t.Errorf("%s RetentionInDays %v, want !Ref LogRetentionDays", lg.Value, r)
			}
			if other, dup := used[lg.Value]; dup {
				t.Errorf("%s shares log group %s with %s", name, lg.Value, other)
			}
			used[lg.Value] = name
		})
	}
	if len(used) != len(wantDynamoDB) {
		t.Errorf("%d functions with a log group, want all %d", len(used), len(wantDynamoDB))
	}
}

// parameterARN is how the template names the ARN of the SSM parameter whose
// name (without the leading slash) is template parameter p.
func parameterARN(p string) string {
	return "!Sub arn:${AWS::Partition}:ssm:${AWS::Region}:${AWS::AccountId}:parameter/${" + p + "}"
}

// wantSSM is every SSM grant of each role: ssm:GetParameter (the one call
// package paramstore makes) on exactly the parameters of the secrets the
// function reads. The OpenAI key's parameter is granted by
// ModelAccessPolicy to the two functions that call models.
var wantSSM = map[string][]string{
	"TelegramFunction": {
		"ssm:GetParameter on " + parameterARN("TelegramBotTokenParameter"),
		"ssm:GetParameter on " + parameterARN("TelegramWebhookSecretParameter"),
	},
	"SweeperFunction":   {"ssm:GetParameter on " + parameterARN("TelegramBotTokenParameter")},
	"AnnexFunction":     {"ssm:GetParameter on " + parameterARN("AnnexCallerKeyParameter")},
	"ModelAccessPolicy": {"ssm:GetParameter on " + parameterARN("OpenAIApiKeyParameter")},
}

// grants collects the grants of every statement under n whose actions
// start with prefix, as "action on resource"; a wildcard action or
// resource is an error.
func grants(t *testing.T, n *yaml.Node, prefix string, got *[]string) {
	t.Helper()
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			grants(t, c, prefix, got)
		}
	case yaml.MappingNode:
		action := field(n, "Action")
		if action == nil {
			for i := 1; i < len(n.Content); i += 2 {
				grants(t, n.Content[i], prefix, got)
			}
			return
		}
		var acts []string
		for _, a := range scalars(action) {
			if strings.HasPrefix(strings.ToLower(a), prefix) || a == "*" {
				acts = append(acts, a)
			}
		}
		if len(acts) == 0 {
			return
		}
		res := field(n, "Resource")
		if res == nil {
			t.Errorf("statement at line %d grants %v on no Resource", n.Line, acts)
			return
		}
		var rs []string
		if res.Kind == yaml.SequenceNode {
			for _, r := range res.Content {
				rs = append(rs, resource(r))
			}
		} else {
			rs = append(rs, resource(res))
		}
		for _, a := range acts {
			if strings.Contains(a, "*") {
				t.Errorf("statement at line %d grants wildcard action %s", n.Line, a)
			}
			for _, r := range rs {
				if strings.HasSuffix(r, "*") || strings.Contains(r, "*}") {
					t.Errorf("statement at line %d grants %s on wildcard %s", n.Line, a, r)
				}
				*got = append(*got, a+" on "+r)
			}
		}
	}
}

// TestSSMGrants: each function may read exactly its secrets' parameters,
// and no policy grants any other SSM call or parameter; no KMS grant
// either (SecureStrings under the default aws/ssm key need none).
func TestSSMGrants(t *testing.T) {
	res, _ := readResources(t)
	seen := 0
	for name, r := range res {
		var doc *yaml.Node
		switch r.Type {
		case "AWS::Serverless::Function":
			doc = field(&r.Properties, "Policies")
		case "AWS::IAM::ManagedPolicy", "AWS::IAM::Policy", "AWS::IAM::Role":
			doc = &r.Properties
		default:
			continue
		}
		if doc == nil {
			continue
		}
		var got, kms []string
		grants(t, doc, "ssm:", &got)
		grants(t, doc, "kms:", &kms)
		if len(kms) > 0 {
			t.Errorf("%s grants %q: the default aws/ssm key needs no grant", name, kms)
		}
		slices.Sort(got)
		want := wantSSM[name]
		if !slices.Equal(got, want) {
			t.Errorf("%s SSM grants:\n got %q\nwant %q", name, got, want)
		}
		if len(got) > 0 {
			seen++
		}
	}
	if seen != len(wantSSM) {
		t.Errorf("%d resources grant SSM, want %d", seen, len(wantSSM))
	}
}

// TestSecretsOnlyByParameter: no secret is a template parameter any more
// (NoEcho values end up in the functions' environment); each function gets
// the names of its secrets' parameters, and its plain variables empty, for
// `sam local invoke --env-vars` to fill.
func TestSecretsOnlyByParameter(t *testing.T) {
	res, params := readResources(t)
	for name, p := range params {
		if e := field(&p, "NoEcho"); e != nil && e.Value == "true" {
			t.Errorf("parameter %s is NoEcho: secrets belong in SSM, the template takes their parameters' names", name)
		}
	}
	want := map[string]map[string]string{
		"TelegramFunction": {"TELEGRAM_BOT_TOKEN_PARAMETER": "TelegramBotTokenParameter", "TELEGRAM_WEBHOOK_SECRET_PARAMETER": "TelegramWebhookSecretParameter", "OPENAI_API_KEY_PARAMETER": "OpenAIApiKeyParameter"},
		"SweeperFunction":  {"TELEGRAM_BOT_TOKEN_PARAMETER": "TelegramBotTokenParameter"},
		"AnnexFunction":    {"ANNEX_CALLER_KEY_PARAMETER": "AnnexCallerKeyParameter", "OPENAI_API_KEY_PARAMETER": "OpenAIApiKeyParameter"},
	}
	for fn, vars := range want {
		props := res[fn].Properties
		env := path(&props, "Environment", "Variables")
		for v, p := range vars {
			if got := field(env, v); got == nil || got.Tag != "!Ref" || got.Value != p {
				t.Errorf("%s %s = %v, want !Ref %s", fn, v, got, p)
			}
			if _, ok := params[p]; !ok {
				t.Errorf("no template parameter %s", p)
			}
			plain := strings.TrimSuffix(v, "_PARAMETER")
			if plain == "OPENAI_API_KEY" {
				continue
			}
			if got := field(env, plain); got == nil || got.Value != "" {
				t.Errorf("%s %s = %v, want declared empty", fn, plain, got)
			}
		}
	}
}

// metricNames returns the Duet metric names a node mentions: MetricName
// of namespace Duet, and the names in the dashboard's metric arrays and
// SEARCH expressions.
func metricNames(t *testing.T, res resources) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	var walk func(owner string, n *yaml.Node)
	walk = func(owner string, n *yaml.Node) {
		if n.Kind == yaml.MappingNode {
			if ns, mn := field(n, "Namespace"), field(n, "MetricName"); ns != nil && mn != nil && ns.Value == metrics.Namespace {
				out[mn.Value] = append(out[mn.Value], owner)
			}
		}
		for _, c := range n.Content {
			walk(owner, c)
		}
	}
	for name, r := range res {
		walk(name, &r.Properties)
	}
	dash := res["Dashboard"].Properties
	body := path(&dash, "DashboardBody")
	if body == nil {
		t.Fatal("no Dashboard with a DashboardBody")
	}
	// CloudFormation substitutes ${…}; what is left must be JSON.
	var parsed struct {
		Widgets []json.RawMessage `json:"widgets"`
	}
	subbed := regexp.MustCompile(`\$\{[A-Za-z:]+\}`).ReplaceAllString(body.Value, "x")
	if err := json.Unmarshal([]byte(subbed), &parsed); err != nil || len(parsed.Widgets) == 0 {
		t.Errorf("DashboardBody is not a dashboard's JSON: %v", err)
	}
	for _, m := range regexp.MustCompile(`\["Duet", "([A-Za-z]+)"|MetricName=\\"([A-Za-z]+)\\"`).FindAllStringSubmatch(body.Value, -1) {
		out[m[1]+m[2]] = append(out[m[1]+m[2]], "Dashboard")
	}
	return out
}

// TestAlarmsAndMetrics: the alarms the issue asks for exist, all notify the
// alarm topic, and every Duet metric the template reads is one the code
// emits (package metrics), and every metric the code emits is on the
// dashboard.
func TestAlarmsAndMetrics(t *testing.T) {
	res, params := readResources(t)
	defined := map[string]bool{}
	for _, n := range metrics.Names() {
		defined[string(n)] = true
	}
	used := metricNames(t, res)
	for name, owners := range used {
		if !defined[name] {
			t.Errorf("%v read Duet metric %q, which the code does not emit (shared/metrics)", owners, name)
		}
	}
	for name := range defined {
		if !slices.Contains(used[name], "Dashboard") {
			t.Errorf("metric %s is not on the dashboard", name)
		}
	}

	type want struct {
		namespace, metric, dimension string
		missing, comparison          string
	}
	alarms := map[string]want{
		"RepliesGivenUpAlarm":    {"Duet", "RepliesGivenUp", "", "notBreaching", "GreaterThanOrEqualToThreshold"},
		"TelegramErrorsAlarm":    {"AWS/Lambda", "Errors", "!Ref TelegramFunction", "notBreaching", "GreaterThanOrEqualToThreshold"},
		"SweeperErrorsAlarm":     {"AWS/Lambda", "Errors", "!Ref SweeperFunction", "notBreaching", "GreaterThanOrEqualToThreshold"},
		"AnnexErrorsAlarm":       {"AWS/Lambda", "Errors", "!Ref AnnexFunction", "notBreaching", "GreaterThanOrEqualToThreshold"},
		"Api5xxAlarm":            {"AWS/ApiGateway", "5xx", "!Ref HttpApi", "notBreaching", "GreaterThanOrEqualToThreshold"},
		"SweeperNotRunningAlarm": {"AWS/Lambda", "Invocations", "!Ref SweeperFunction", "breaching", "LessThanThreshold"},
	}
	for name, w := range alarms {
		t.Run(name, func(t *testing.T) {
			r, ok := res[name]
			if !ok || r.Type != "AWS::CloudWatch::Alarm" {
				t.Fatalf("no alarm %s", name)
			}
			p := &r.Properties
			got := fmt.Sprint(field(p, "Namespace").Value, " ", field(p, "MetricName").Value)
			if got != w.namespace+" "+w.metric {
				t.Errorf("metric %s, want %s %s", got, w.namespace, w.metric)
			}
			dims := field(p, "Dimensions")
			switch {
			case w.dimension == "" && dims != nil:
				t.Errorf("dimensions %v: the alarm reads the total, published without any", resource(dims))
			case w.dimension != "" && (dims == nil || len(dims.Content) != 1 || resource(field(dims.Content[0], "Value")) != w.dimension):
				t.Errorf("dimensions %v, want one: %s", dims, w.dimension)
			}
			if m := field(p, "TreatMissingData"); m == nil || m.Value != w.missing {
				t.Errorf("TreatMissingData %v, want %s", m, w.missing)
			}
			if c := field(p, "ComparisonOperator"); c == nil || c.Value != w.comparison {
				t.Errorf("ComparisonOperator %v, want %s", c, w.comparison)
			}
			checkActions(t, p)
		})
	}

	t.Run("FallbackShareAlarm", func(t *testing.T) {
		props := res["FallbackShareAlarm"].Properties
		p := &props
		if th := field(p, "Threshold"); th == nil || resource(th) != "!Ref FallbackAlarmThreshold" {
			t.Errorf("Threshold %v, want !Ref FallbackAlarmThreshold", th)
		}
		threshold := params["FallbackAlarmThreshold"]
		if d := field(&threshold, "Default"); d == nil || d.Value != "20" {
			t.Errorf("FallbackAlarmThreshold default %v, want 20 (percent)", d)
		}
		var stats []string
		var expr string
		for _, m := range field(p, "Metrics").Content {
			if e := field(m, "Expression"); e != nil {
				expr = e.Value
				continue
			}
			stat := field(m, "MetricStat")
			stats = append(stats, fmt.Sprintf("%s=%s/%s/%s", field(m, "Id").Value, path(stat, "Metric", "MetricName").Value,
				path(stat, "Period").Value, path(stat, "Stat").Value))
		}
		slices.Sort(stats)
		if want := []string{"fallbacks=ModelFallbacks/900/Sum", "replies=ModelReplies/900/Sum"}; !slices.Equal(stats, want) {
			t.Errorf("metrics %q, want %q (15 minutes)", stats, want)
		}
		if !strings.Contains(expr, "100 *") || !strings.Contains(expr, "fallbacks") || !strings.Contains(expr, "replies") {
			t.Errorf("expression %q: want the fallbacks' percentage of all model calls", expr)
		}
		checkActions(t, p)
	})

	t.Run("AlarmEmail", func(t *testing.T) {
		sub, ok := res["AlarmEmailSubscription"]
		if !ok || sub.Type != "AWS::SNS::Subscription" || sub.Condition != "HasAlarmEmail" {
			t.Fatalf("AlarmEmailSubscription: %+v, want an SNS subscription under Condition HasAlarmEmail", sub)
		}
		if e := field(&sub.Properties, "Endpoint"); e == nil || resource(e) != "!Ref AlarmEmail" {
			t.Errorf("Endpoint %v, want !Ref AlarmEmail", e)
		}
		email := params["AlarmEmail"]
		if d := field(&email, "Default"); d == nil || d.Value != "" {
			t.Errorf("AlarmEmail default %v, want empty (no subscription)", d)
		}
	})
}

func checkActions(t *testing.T, p *yaml.Node) {
	t.Helper()
	for _, k := range []string{"AlarmActions", "OKActions"} {
		a := field(p, k)
		if a == nil || len(a.Content) != 1 || resource(a.Content[0]) != "!Ref AlarmTopic" {
			t.Errorf("%s %v, want [!Ref AlarmTopic]", k, a)
		}
	}
}

// TestLogLevelKeepsMetrics: Lambda's log filter gives the level INFO to the
// metric lines (JSON without a level); WARN or ERROR would drop them all.
func TestLogLevelKeepsMetrics(t *testing.T) {
	_, params := readResources(t)
	p := params["LogLevel"]
	allowed := scalars(field(&p, "AllowedValues"))
	for _, v := range allowed {
		if v != "DEBUG" && v != "INFO" && v != "TRACE" {
			t.Errorf("LogLevel allows %s, which drops the metric lines", v)
		}
	}
}
