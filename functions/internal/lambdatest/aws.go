package lambdatest

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/ssm"
	ssmtypes "github.com/aws/aws-sdk-go-v2/service/ssm/types"

	"github.com/duetbot/duet/shared/paramstore"
	"github.com/duetbot/duet/shared/store/dynamo"
)

// AWS returns the environment of a bootstrap on moto (DynamoDB and SSM,
// started by .ci/moto) with dummy credentials and a new sessions table,
// and a fresh prefix for the test's SSM parameters. It skips the test
// without both endpoints.
func AWS(t testing.TB) (env map[string]string, prefix string) {
	t.Helper()
	db, ssmURL := os.Getenv("DYNAMODB_ENDPOINT"), os.Getenv("AWS_ENDPOINT_URL_SSM")
	if db == "" || ssmURL == "" {
		t.Skip("DYNAMODB_ENDPOINT or AWS_ENDPOINT_URL_SSM is not set; run `eval \"$(.ci/moto)\"` first (make test does)")
	}
	env = map[string]string{
		"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test", "AWS_REGION": "us-east-1",
		"DYNAMODB_ENDPOINT": db, "AWS_ENDPOINT_URL_SSM": ssmURL,
	}
	for k, v := range env {
		if os.Getenv(k) == "" {
			t.Setenv(k, v)
		}
	}
	ctx := context.Background()
	client, err := dynamo.NewClient(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	env["SESSIONS_TABLE"] = fmt.Sprintf("bootstrap-%d", time.Now().UnixNano())
	if err := dynamo.CreateTable(ctx, client, env["SESSIONS_TABLE"]); err != nil {
		t.Fatal(err)
	}
	return env, "duet-bootstrap-" + strings.ToLower(rand.Text()[:8])
}

// PutSecureStrings stores each name → value as a SecureString parameter
// on the SSM at AWS_ENDPOINT_URL_SSM (AWS must have run).
func PutSecureStrings(t testing.TB, params map[string]string) {
	t.Helper()
	api, err := paramstore.NewClient(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for name, value := range params {
		if _, err := api.(*ssm.Client).PutParameter(context.Background(), &ssm.PutParameterInput{
			Name: &name, Value: &value, Type: ssmtypes.ParameterTypeSecureString}); err != nil {
			t.Fatalf("put parameter %s: %v", name, err)
		}
	}
}

// Metrics returns, from a bootstrap's output, the sum of each metric its
// EMF lines carry, by "Name" and by "Name{Dimension=value}" for each
// dimension of the line; lines that are not EMF are skipped.
func Metrics(t testing.TB, output string) map[string]float64 {
	t.Helper()
	sums := map[string]float64{}
	sc := bufio.NewScanner(strings.NewReader(output))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line map[string]any
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue
		}
		meta, ok := line["_aws"].(map[string]any)
		if !ok {
			continue
		}
		directives, _ := meta["CloudWatchMetrics"].([]any)
		for _, d := range directives {
			dir, _ := d.(map[string]any)
			if dir["Namespace"] != "Duet" {
				t.Errorf("EMF line in namespace %v: %s", dir["Namespace"], sc.Text())
			}
			metrics, _ := dir["Metrics"].([]any)
			sets, _ := dir["Dimensions"].([]any)
			for _, m := range metrics {
				name, _ := m.(map[string]any)["Name"].(string)
				v, ok := line[name].(float64)
				if !ok {
					t.Errorf("EMF line without the value of %s: %s", name, sc.Text())
					continue
				}
				sums[name] += v
				for _, set := range sets {
					for _, k := range set.([]any) {
						sums[fmt.Sprintf("%s{%s=%v}", name, k, line[k.(string)])] += v
					}
				}
			}
		}
	}
	return sums
}

// NoSecrets fails the test if output holds any of the secret values.
func NoSecrets(t testing.TB, output string, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(output, s) {
			t.Errorf("the bootstrap's output holds a secret value (%d characters)", len(s))
		}
	}
}
