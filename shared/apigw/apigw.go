// Package apigw is the one place where results and errors become API Gateway
// (HTTP API, payload format 2.0) responses, and where `duet serve` turns plain
// net/http requests into the same events, so that the local server runs the
// very handler code the Lambda functions run.
package apigw

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/duetbot/duet/shared/duet"
)

// MaxBodyBytes is the largest request body the bots accept (1 MiB).
const MaxBodyBytes = 1 << 20

// RequestTimeout is the deadline HTTP gives each request: the functions'
// Lambda timeout in template.yaml, under API Gateway's 30 s.
const RequestTimeout = 28 * time.Second

// Handler is the signature of an HTTP API Lambda handler.
type Handler func(ctx context.Context, req events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error)

// Status returns the HTTP status for an error code.
func Status(err error) int {
	switch duet.Code(err) {
	case "":
		return http.StatusOK
	case duet.EINVALID:
		return http.StatusBadRequest
	case duet.EUNAUTHORIZED:
		return http.StatusUnauthorized
	case duet.ENOTFOUND:
		return http.StatusNotFound
	case duet.ECONFLICT:
		return http.StatusConflict
	case duet.ETOOLARGE:
		return http.StatusRequestEntityTooLarge
	case duet.EMETHOD:
		return http.StatusMethodNotAllowed
	case duet.EUNAVAILABLE:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// ErrorBody is the JSON body of every error response.
type ErrorBody struct {
	Error string `json:"error"`
}

// JSON returns a response with v encoded as its JSON body.
func JSON(status int, v any) events.APIGatewayV2HTTPResponse {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"internal error"}`)
	}
	return RawJSON(status, string(b))
}

// RawJSON returns a response with body, already JSON, as its body: for
// answers encoded once and sent many times.
func RawJSON(status int, body string) events.APIGatewayV2HTTPResponse {
	return events.APIGatewayV2HTTPResponse{
		StatusCode: status,
		Headers:    map[string]string{"Content-Type": "application/json"},
		Body:       body,
	}
}

// Error returns the response for err: its code's status and its client-safe
// message, never internal detail. It logs err once, with the detail.
func Error(ctx context.Context, log *slog.Logger, err error) events.APIGatewayV2HTTPResponse {
	status := Status(err)
	level := slog.LevelInfo
	if status >= 500 {
		level = slog.LevelError
	}
	log.Log(ctx, level, "request failed", "status", status, "err", err)
	return JSON(status, ErrorBody{Error: duet.Message(err)})
}

// Body returns the request body, decoded from base64 when API Gateway
// encoded it, or an ETOOLARGE error when it is over MaxBodyBytes.
func Body(req events.APIGatewayV2HTTPRequest) ([]byte, error) {
	if req.IsBase64Encoded {
		return decodeBody(req)
	}
	if len(req.Body) > MaxBodyBytes {
		return nil, tooLarge()
	}
	return []byte(req.Body), nil
}

func decodeBody(req events.APIGatewayV2HTTPRequest) ([]byte, error) {
	if len(req.Body) > MaxBodyBytes*4/3+4 {
		return nil, tooLarge()
	}
	b, err := base64.StdEncoding.DecodeString(req.Body)
	if err != nil {
		return nil, duet.Errorf(duet.EINVALID, "body is not valid base64")
	}
	if len(b) > MaxBodyBytes {
		return nil, tooLarge()
	}
	return b, nil
}

func tooLarge() error {
	return duet.Errorf(duet.ETOOLARGE, "request body is larger than %d bytes", MaxBodyBytes)
}

// Header returns a request header by name, whatever its case (HTTP APIs
// lower-case header names; `sam local` and tests may not).
func Header(req events.APIGatewayV2HTTPRequest, name string) string {
	if v, ok := req.Headers[strings.ToLower(name)]; ok {
		return v
	}
	for k, v := range req.Headers {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

// Method returns the request's HTTP method.
func Method(req events.APIGatewayV2HTTPRequest) string {
	return strings.ToUpper(req.RequestContext.HTTP.Method)
}

// HTTP serves h as a net/http handler: the request becomes the event API
// Gateway would send, the handler gets the deadline Lambda would give it, and
// the response is written back as API Gateway would.
func HTTP(h Handler, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ev, err := FromHTTP(r)
		if err != nil {
			Write(w, Error(r.Context(), log, err))
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), RequestTimeout)
		defer cancel()
		resp, err := h(ctx, ev)
		if err != nil {
			// A Lambda handler error becomes a 500 at API Gateway.
			log.Error("handler failed", "err", err)
			resp = JSON(http.StatusInternalServerError, ErrorBody{Error: "internal error"})
		}
		Write(w, resp)
	})
}

// FromHTTP converts r into an HTTP API payload 2.0 event. A body over
// MaxBodyBytes is an ETOOLARGE error.
func FromHTTP(r *http.Request) (events.APIGatewayV2HTTPRequest, error) {
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, MaxBodyBytes))
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return events.APIGatewayV2HTTPRequest{}, tooLarge()
	}
	if err != nil {
		return events.APIGatewayV2HTTPRequest{}, duet.Wrap(duet.EINVALID, err, "read request body")
	}
	headers := make(map[string]string, len(r.Header))
	for k, v := range r.Header {
		name, ok := lowerNames[k]
		if !ok {
			name = strings.ToLower(k)
		}
		headers[name] = strings.Join(v, ",")
	}
	ev := events.APIGatewayV2HTTPRequest{
		Version:        "2.0",
		RouteKey:       r.Method + " " + r.URL.Path,
		RawPath:        r.URL.Path,
		RawQueryString: r.URL.RawQuery,
		Headers:        headers,
		Body:           string(body),
	}
	ev.RequestContext.HTTP.Method = r.Method
	ev.RequestContext.HTTP.Path = r.URL.Path
	ev.RequestContext.HTTP.SourceIP = r.RemoteAddr
	ev.RequestContext.HTTP.UserAgent = r.UserAgent()
	return ev, nil
}

// lowerNames maps the canonical names of the headers webhook callers send
// to the lower case HTTP APIs use, so that FromHTTP need not lower-case
// them for every request.
var lowerNames = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{
		"Accept", "Accept-Encoding", "Authorization", "Connection", "Content-Length",
		"Content-Type", "User-Agent", "X-Forwarded-For", "X-Telegram-Bot-Api-Secret-Token",
	} {
		m[k] = strings.ToLower(k)
	}
	return m
}()

// Write writes an API Gateway response to w.
func Write(w http.ResponseWriter, resp events.APIGatewayV2HTTPResponse) {
	for k, v := range resp.Headers {
		w.Header().Set(k, v)
	}
	status := resp.StatusCode
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	if resp.IsBase64Encoded {
		if b, err := base64.StdEncoding.DecodeString(resp.Body); err == nil {
			_, _ = w.Write(b)
			return
		}
	}
	_, _ = io.WriteString(w, resp.Body)
}
