package endpoint

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/duetbot/duet/shared/annex"
)

// DefaultTimeout bounds one request when the caller sets no HTTP client.
const DefaultTimeout = 30 * time.Second

// maxAnswer is the largest answer read from a bot.
const maxAnswer = 1 << 20

// Client calls one annex bot endpoint.
type Client struct {
	url  string
	key  string
	http *http.Client
}

// New returns a Client for the bot at url authenticating with key. A nil
// httpClient means one with DefaultTimeout.
func New(url, key string, httpClient *http.Client) *Client {
	if httpClient == nil {
		httpClient = &http.Client{Timeout: DefaultTimeout}
	}
	return &Client{url: url, key: key, http: httpClient}
}

// URL returns the endpoint's URL.
func (c *Client) URL() string { return c.url }

// Ask sends req and returns the bot's message. Errors say what went wrong
// in a line: a transport failure or timeout, a non-2xx status (with the
// bot's JSON error message when it gave one), or an answer that is not
// {"message": "<non-empty text>"}.
func (c *Client) Ask(ctx context.Context, req annex.Request) (string, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return "", fmt.Errorf("encode request: %w", err)
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("bad endpoint URL: %w", err)
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("X-CALLER-KEY", c.key)
	resp, err := c.http.Do(hr)
	if err != nil {
		return "", fmt.Errorf("request failed: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return "", fmt.Errorf("read answer: %w", err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		var e struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(raw, &e) == nil && e.Error != "" {
			return "", fmt.Errorf("endpoint answered %d: %s", resp.StatusCode, snippet([]byte(e.Error), 200))
		}
		return "", fmt.Errorf("endpoint answered %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	var out struct {
		Message *string `json:"message"`
	}
	if err := json.Unmarshal(raw, &out); err != nil || out.Message == nil {
		return "", fmt.Errorf(`endpoint answered something other than {"message": "..."}: %q`, snippet(raw, 80))
	}
	if strings.TrimSpace(*out.Message) == "" {
		return "", fmt.Errorf("endpoint answered an empty message")
	}
	return *out.Message, nil
}

// snippet is b on one line, cut to n characters: what a bot answers ends
// up in the evaluation report.
func snippet(b []byte, n int) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if r := []rune(s); len(r) > n {
		s = string(r[:n]) + "…"
	}
	return s
}
