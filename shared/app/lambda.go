package app

import (
	"context"
	"os"

	"github.com/duetbot/duet/shared/config"
	"github.com/duetbot/duet/shared/metrics"
	"github.com/duetbot/duet/shared/paramstore"
)

// LambdaConfig reads a function's configuration from its environment and
// the secrets that its <VAR>_PARAMETER variables name from SSM Parameter
// Store, once per cold start. Its error names what is missing or
// malformed (a variable, a parameter), never a secret's value: the
// function then refuses to start.
func LambdaConfig(ctx context.Context) (config.Config, error) {
	cfg, err := config.FromEnv()
	if err != nil {
		return config.Config{}, err
	}
	if err := paramstore.Resolve(ctx, &cfg, paramstore.NewClient); err != nil {
		return config.Config{}, err
	}
	return cfg, nil
}

// LambdaMetrics returns the metrics recorder of a function: CloudWatch
// Embedded Metric Format lines on stdout, which Lambda's log agent sends to
// the function's log group and CloudWatch turns into metrics in namespace
// Duet, with the Function dimension function.
func LambdaMetrics(function string) metrics.Recorder { return metrics.NewEMF(os.Stdout, function) }
