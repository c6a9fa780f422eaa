// Package awslog hands the AWS SDK's own log lines (a response body it
// could not drain, a clock skew it corrected …) to log/slog, so that they
// read as every other line of the program instead of the SDK's
// "SDK <date> WARN …" format.
package awslog

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/aws/smithy-go/logging"
)

// Logger returns the SDK's logging.Logger that writes each line through
// slog.Default() as it is at the time, marked source=aws-sdk: the
// programs set their logger as the default at start (the Lambda functions'
// JSON, the CLI's text). Give it to the SDK's configuration with
// config.WithLogger.
func Logger() logging.Logger {
	return logging.LoggerFunc(func(c logging.Classification, format string, v ...any) {
		level := slog.LevelInfo
		if c == logging.Warn {
			level = slog.LevelWarn
		}
		slog.Default().Log(context.Background(), level, fmt.Sprintf(format, v...), "source", "aws-sdk")
	})
}
