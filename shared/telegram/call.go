package telegram

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
	"time"

	"github.com/duetbot/duet/shared/retry"
)

// ErrMaybeSent is in the chain of a sendMessage error when the request was
// written in full and the connection then failed (dropped, reset, timed
// out) before an answer: the server may have recorded the message. The
// client does not retry it, since a retry could make a second copy; the
// chat engine decides, under its lease, whether to send it again.
var ErrMaybeSent = errors.New("request sent but no answer: the server may have recorded it")

// Whether a method may be sent twice: getUpdates and the webhook methods
// may (a second getUpdates asks for the same offset), sendMessage may not.
const (
	idempotent    = true
	notIdempotent = false
)

// call posts params as JSON to method and decodes the result into out
// (ignored when nil), retrying what a retry can help and cannot duplicate.
func (c *Client) call(ctx context.Context, method string, params any, idem bool, longPoll time.Duration, out any) error {
	body, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("telegram %s: encode request: %w", method, err)
	}
	for attempt := 1; ; attempt++ {
		result, again, err := c.attempt(ctx, method, body, idem, longPoll)
		if err == nil {
			if out == nil {
				return nil
			}
			if err := json.Unmarshal(result, out); err != nil {
				return fmt.Errorf("telegram %s: decode result: %w", method, err)
			}
			return nil
		}
		if !again || ctx.Err() != nil || attempt >= c.maxAttempts {
			return fmt.Errorf("telegram %s: %w", method, err)
		}
		wait, limit := c.backoff.Delay(attempt), time.Duration(0)
		if apiErr, ok := errors.AsType[*APIError](err); ok && apiErr.RetryAfter > 0 {
			wait, limit = apiErr.RetryAfter, DefaultMaxRetryAfter
		}
		if werr := retry.Check(ctx, wait, limit); werr != nil {
			return fmt.Errorf("telegram %s: %w (not retried: %v)", method, err, werr)
		}
		c.log.WarnContext(ctx, "telegram call failed, retrying", "method", method, "attempt", attempt, "wait", wait, "err", err)
		if serr := c.sleep(ctx, wait); serr != nil {
			return fmt.Errorf("telegram %s: %w", method, err)
		}
	}
}

// attempt makes one HTTP request and returns the raw result, or an error
// and whether a retry may help. A request that is not idem is retried
// after a network failure only if it was not written in full.
func (c *Client) attempt(ctx context.Context, method string, body []byte, idem bool, longPoll time.Duration) (json.RawMessage, bool, error) {
	if c.requestTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.requestTimeout+longPoll)
		defer cancel()
	}
	var written atomic.Bool // set on the transport's goroutine
	if !idem {
		ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
			WroteRequest: func(i httptrace.WroteRequestInfo) {
				if i.Err == nil {
					written.Store(true)
				}
			},
		})
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.prefix+"/"+method, bytes.NewReader(body))
	if err != nil {
		return nil, false, c.redact(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		if written.Load() {
			return nil, false, fmt.Errorf("%w: %w", ErrMaybeSent, c.redact(err))
		}
		return nil, true, c.redact(err)
	}
	defer resp.Body.Close()
	answer, err := readAnswer(resp.Body)
	if err != nil {
		// The server answered: an idem request is safe to send again, any
		// other may have been acted on.
		err = fmt.Errorf("read answer: %w", err)
		if !idem {
			return nil, false, fmt.Errorf("%w: %w", ErrMaybeSent, c.redact(err))
		}
		return nil, true, c.redact(err)
	}
	result, err := decodeAnswer(resp, answer)
	if apiErr, ok := errors.AsType[*APIError](err); ok {
		apiErr.Description = redactToken(apiErr.Description, c.token)
		return nil, apiErr.retryable(), err
	}
	if err != nil {
		// A 2xx answer that is not JSON will not become JSON on a retry.
		return nil, false, c.redact(err)
	}
	return result, false, nil
}

// readAnswer reads an answer of at most maxBody bytes.
func readAnswer(body io.Reader) ([]byte, error) {
	return io.ReadAll(io.LimitReader(body, maxBody))
}
