// Package paramstore reads the bots' secrets (the Telegram bot token, the
// webhook secret, the annex caller key, the OpenAI key) from AWS Systems
// Manager Parameter Store: the deployed functions get only the names of
// SecureString parameters (<VAR>_PARAMETER) and read each once per cold
// start. It is the one place that does; values never reach a log or an
// error.
package paramstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/ssm"

	"github.com/duetbot/duet/shared/awslog"
	"github.com/duetbot/duet/shared/config"
)

// API is the one SSM call the package makes (*ssm.Client has it).
type API interface {
	GetParameter(ctx context.Context, in *ssm.GetParameterInput, opts ...func(*ssm.Options)) (*ssm.GetParameterOutput, error)
}

var _ API = (*ssm.Client)(nil)

// NewClient returns an SSM client on the default AWS configuration (which
// honours AWS_ENDPOINT_URL_SSM, as tests against moto set it).
func NewClient(ctx context.Context) (API, error) {
	cfg, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithLogger(awslog.Logger()))
	if err != nil {
		return nil, fmt.Errorf("AWS configuration: %w", err)
	}
	return ssm.NewFromConfig(cfg), nil
}

// Resolve fills every secret of cfg that names a parameter and has no plain
// value (cfg.Unresolved), or only those of the variables only lists
// ("TELEGRAM_BOT_TOKEN"), reading each parameter with its decryption. It
// makes the client with newClient only when there is something to read, so
// that a local run with plain variables needs no AWS. The error names the
// variable and the parameter that failed, never a value.
func Resolve(ctx context.Context, cfg *config.Config, newClient func(context.Context) (API, error), only ...string) error {
	secrets := cfg.Unresolved()
	if len(only) > 0 {
		secrets = slices.DeleteFunc(secrets, func(s config.Secret) bool { return !slices.Contains(only, s.Var) })
	}
	if len(secrets) == 0 {
		return nil
	}
	api, err := newClient(ctx)
	if err != nil {
		return fmt.Errorf("%s=%s: %w", secrets[0].ParameterVar(), secrets[0].Parameter, err)
	}
	var errs []error
	for _, s := range secrets {
		v, err := Read(ctx, api, s.Parameter)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", s.ParameterVar(), err))
			continue
		}
		*s.Value = v
	}
	return errors.Join(errs...)
}

// Read returns the decrypted value of the SecureString parameter name,
// without surrounding white space (a value stored from a file often ends in
// a newline, which no API accepts). A hierarchical name may be given with
// or without its leading slash (the template's parameters leave it out).
func Read(ctx context.Context, api API, name string) (string, error) {
	name = qualify(name)
	decrypt := true
	out, err := api.GetParameter(ctx, &ssm.GetParameterInput{Name: &name, WithDecryption: &decrypt})
	if err != nil {
		return "", fmt.Errorf("read SSM parameter %s: %w", name, err)
	}
	if out.Parameter == nil || out.Parameter.Value == nil || strings.TrimSpace(*out.Parameter.Value) == "" {
		return "", fmt.Errorf("SSM parameter %s is empty", name)
	}
	return strings.TrimSpace(*out.Parameter.Value), nil
}

// qualify returns the name SSM knows: a name with a slash starts with one
// ("duet/bot-token" is "/duet/bot-token"); a flat name ("duet-bot-token")
// and an ARN stay as they are.
func qualify(name string) string {
	name = strings.TrimSpace(name)
	if strings.HasPrefix(name, "arn:") || strings.HasPrefix(name, "/") || !strings.Contains(name, "/") {
		return name
	}
	return "/" + name
}
