// Package functions_test checks template.yaml against what the functions
// do, so that their permissions cannot drift silently.
package functions_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// wantDynamoDB is every DynamoDB grant of each function, as "action on
// resource": exactly the calls its code makes (see shared/store/dynamo).
// A change of the store's calls must change this list and the template.
var wantDynamoDB = map[string][]string{
	// One consistent Query of a chat's head and recent records, conditional
	// PutItems of a record and of the head, UpdateItem of a record's lease,
	// and GetItem when a lease claim fails on a record it cannot see.
	"TelegramFunction": {
		"dynamodb:GetItem on !GetAtt SessionsTable.Arn",
		"dynamodb:PutItem on !GetAtt SessionsTable.Arn",
		"dynamodb:Query on !GetAtt SessionsTable.Arn",
		"dynamodb:UpdateItem on !GetAtt SessionsTable.Arn",
	},
	// The same, plus Queries of the sparse index for idle and stuck chats.
	"SweeperFunction": {
		"dynamodb:GetItem on !GetAtt SessionsTable.Arn",
		"dynamodb:PutItem on !GetAtt SessionsTable.Arn",
		"dynamodb:Query on !GetAtt SessionsTable.Arn",
		"dynamodb:Query on !Sub ${SessionsTable.Arn}/index/by_activity",
		"dynamodb:UpdateItem on !GetAtt SessionsTable.Arn",
	},
	// shared/store/dynamo/annex.go: GetItem, PutItem and Query, no index.
	"AnnexFunction": {
		"dynamodb:GetItem on !GetAtt SessionsTable.Arn",
		"dynamodb:PutItem on !GetAtt SessionsTable.Arn",
		"dynamodb:Query on !GetAtt SessionsTable.Arn",
	},
}

func TestFunctionsDynamoDBPermissions(t *testing.T) {
	var tmpl struct {
		Resources map[string]struct {
			Type       string `yaml:"Type"`
			Properties struct {
				Policies yaml.Node `yaml:"Policies"`
			} `yaml:"Properties"`
		} `yaml:"Resources"`
	}
	readTemplate(t, &tmpl)
	seen := 0
	for name, res := range tmpl.Resources {
		if res.Type != "AWS::Serverless::Function" {
			continue
		}
		seen++
		t.Run(name, func(t *testing.T) {
			want, ok := wantDynamoDB[name]
			if !ok {
				t.Fatalf("function %s is not in wantDynamoDB: list the DynamoDB calls it makes", name)
			}
			var got []string
			walk(t, &res.Properties.Policies, &got)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("DynamoDB grants:\n got %q\nwant %q", got, want)
			}
		})
	}
	if seen != len(wantDynamoDB) {
		t.Errorf("template has %d functions, wantDynamoDB lists %d", seen, len(wantDynamoDB))
	}
}

// walk collects the DynamoDB grants of every statement under n, as
// "action on resource", and fails on grants it cannot read exactly: a
// wildcard, a Deny or NotAction, or a SAM policy template for DynamoDB.
func walk(t *testing.T, n *yaml.Node, got *[]string) {
	t.Helper()
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			walk(t, c, got)
		}
	case yaml.MappingNode:
		fields := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i].Value
			fields[key] = n.Content[i+1]
			if strings.HasPrefix(key, "DynamoDB") {
				t.Errorf("SAM policy template %s grants more than the functions call; use a Statement", key)
			}
			if key == "NotAction" {
				t.Errorf("NotAction at line %d: list the actions", n.Content[i].Line)
			}
		}
		action, ok := fields["Action"]
		if !ok {
			for _, v := range fields {
				walk(t, v, got)
			}
			return
		}
		var dynamo []string
		for _, a := range scalars(action) {
			if strings.HasPrefix(strings.ToLower(a), "dynamodb:") || a == "*" {
				dynamo = append(dynamo, a)
			}
		}
		if len(dynamo) == 0 {
			return
		}
		if e := fields["Effect"]; e == nil || e.Value != "Allow" {
			t.Errorf("statement at line %d: want Effect Allow", n.Line)
		}
		res, ok := fields["Resource"]
		if !ok {
			t.Errorf("statement at line %d grants %v on no Resource", n.Line, dynamo)
			return
		}
		var resources []string
		if res.Kind == yaml.SequenceNode {
			for _, r := range res.Content {
				resources = append(resources, resource(r))
			}
		} else {
			resources = append(resources, resource(res))
		}
		for _, a := range dynamo {
			for _, r := range resources {
				*got = append(*got, a+" on "+r)
			}
		}
	}
}

// scalars returns the values of a scalar or a sequence of scalars.
func scalars(n *yaml.Node) []string {
	if n.Kind == yaml.ScalarNode {
		return []string{n.Value}
	}
	var out []string
	for _, c := range n.Content {
		out = append(out, c.Value)
	}
	return out
}

// resource renders a Resource entry with its intrinsic function tag
// (!GetAtt, !Sub), or as YAML when it is anything else.
func resource(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		if strings.HasPrefix(n.Tag, "!") && n.Tag != "!!str" {
			return n.Tag + " " + n.Value
		}
		return n.Value
	}
	b, err := yaml.Marshal(n)
	if err != nil {
		return fmt.Sprint(n)
	}
	return strings.TrimSpace(string(b))
}

// TestModelAccessStatedOnce: the model back ends' grants (Bedrock, the
// OpenAI key's parameter) are one managed policy attached to the roles of
// the functions that call models (not the sweeper, which writes only
// offline finals), not a block repeated per function; and no managed
// policy grants DynamoDB, which only the functions' own statements do.
func TestModelAccessStatedOnce(t *testing.T) {
	var tmpl struct {
		Resources map[string]struct {
			Type       string `yaml:"Type"`
			Properties struct {
				Roles          []yaml.Node `yaml:"Roles"`
				PolicyDocument yaml.Node   `yaml:"PolicyDocument"`
			} `yaml:"Properties"`
		} `yaml:"Resources"`
	}
	b := readTemplate(t, &tmpl)
	if n := strings.Count(string(b), "bedrock:InvokeModel"); n != 1 {
		t.Errorf("bedrock:InvokeModel granted in %d places, want 1", n)
	}
	if n := strings.Count(string(b), "parameter/${OpenAIApiKeyParameter}"); n != 1 {
		t.Errorf("the OpenAI key's parameter is granted in %d places, want 1", n)
	}
	policy, ok := tmpl.Resources["ModelAccessPolicy"]
	if !ok || policy.Type != "AWS::IAM::ManagedPolicy" {
		t.Fatal("no ModelAccessPolicy managed policy")
	}
	var roles []string
	for _, r := range policy.Properties.Roles {
		roles = append(roles, resource(&r))
	}
	slices.Sort(roles)
	if want := []string{"!Ref AnnexFunctionRole", "!Ref TelegramFunctionRole"}; !slices.Equal(roles, want) {
		t.Errorf("ModelAccessPolicy roles %q, want %q", roles, want)
	}
	for name, res := range tmpl.Resources {
		if res.Type != "AWS::IAM::ManagedPolicy" {
			continue
		}
		var got []string
		walk(t, &res.Properties.PolicyDocument, &got)
		if len(got) > 0 {
			t.Errorf("managed policy %s grants DynamoDB %q: grant it in the functions' Policies, where TestFunctionsDynamoDBPermissions checks it", name, got)
		}
	}
}

// readTemplate decodes ../template.yaml into v and returns its text.
func readTemplate(t *testing.T, v any) []byte {
	t.Helper()
	b, err := os.ReadFile("../template.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, v); err != nil {
		t.Fatalf("parse template.yaml: %v", err)
	}
	return b
}
