// Package lambdatest runs a function's main as Lambda's provided.al2023
// runtime runs its bootstrap: a separate process, with only the
// environment it is given, taking its events from the Runtime API at
// AWS_LAMBDA_RUNTIME_API. The Runtime API here is a stand-in that speaks
// its wire format (GET …/invocation/next, POST …/response and …/error).
// The process is the test binary itself, re-executed: a test package's
// TestMain calls Main with the function's main.
package lambdatest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// bootstrapVar, set in a re-executed test binary, makes Main run the
// function instead of the tests.
const bootstrapVar = "DUET_LAMBDATEST_BOOTSTRAP"

// Main runs fn (the function's main) when the binary was started by Run,
// and the package's tests otherwise. Call it from TestMain.
func Main(m *testing.M, fn func()) {
	if os.Getenv(bootstrapVar) == "1" {
		fn()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Result is what a run of the bootstrap did.
type Result struct {
	// Responses are the bodies the function posted for each event, in
	// order; an invocation error's body is prefixed with "error: ".
	Responses []string
	// Output is everything the process wrote to stdout and stderr.
	Output string
	// Exited is how the process ended when it stopped by itself before
	// answering every event (a refusal to start); nil when it answered
	// them all and was stopped.
	Exited error
}

// Run starts the bootstrap with env (and nothing else of the test's
// environment but PATH and HOME), hands it events one at a time through
// the Runtime API, and stops it once it has answered them all, or returns
// when it exits first. It fails the test after a minute.
func Run(t testing.TB, env map[string]string, events ...[]byte) Result {
	t.Helper()
	var (
		mu        sync.Mutex
		next      int
		responses = make([]string, len(events))
		answered  int
	)
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		const prefix = "/2018-06-01/runtime/invocation/"
		switch {
		case r.Method == http.MethodGet && r.URL.Path == prefix+"next":
			mu.Lock()
			i := next
			if i < len(events) {
				next++
			}
			mu.Unlock()
			if i >= len(events) {
				<-r.Context().Done() // no more events: the runtime waits, as on Lambda
				return
			}
			h := w.Header()
			h.Set("Lambda-Runtime-Aws-Request-Id", "req-"+strconv.Itoa(i))
			h.Set("Lambda-Runtime-Deadline-Ms", strconv.FormatInt(time.Now().Add(28*time.Second).UnixMilli(), 10))
			h.Set("Lambda-Runtime-Invoked-Function-Arn", "arn:aws:lambda:us-east-1:123456789012:function:duet-test")
			h.Set("Lambda-Runtime-Trace-Id", "Root=1-00000000-000000000000000000000000")
			_, _ = w.Write(events[i])
		case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, prefix+"req-"):
			rest := strings.TrimPrefix(r.URL.Path, prefix+"req-")
			id, kind, _ := strings.Cut(rest, "/")
			i, err := strconv.Atoi(id)
			body, _ := io.ReadAll(r.Body)
			if err != nil || i < 0 || i >= len(events) || kind != "response" && kind != "error" {
				http.Error(w, "unknown invocation", http.StatusBadRequest)
				return
			}
			if kind == "error" {
				body = append([]byte("error: "), body...)
			}
			mu.Lock()
			responses[i] = string(body)
			answered++
			if answered == len(events) {
				close(done)
			}
			mu.Unlock()
			w.WriteHeader(http.StatusAccepted)
		default:
			http.Error(w, "not a Runtime API path", http.StatusNotFound)
		}
	}))
	defer srv.Close()

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = []string{
		bootstrapVar + "=1",
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + os.Getenv("HOME"),
		"AWS_LAMBDA_RUNTIME_API=" + strings.TrimPrefix(srv.URL, "http://"),
		"AWS_LAMBDA_FUNCTION_NAME=duet-test",
		"AWS_LAMBDA_FUNCTION_MEMORY_SIZE=256",
		"AWS_LAMBDA_LOG_FORMAT=JSON",
		"AWS_LAMBDA_LOG_LEVEL=INFO",
	}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start the bootstrap: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	var res Result
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	select {
	case res.Exited = <-exited:
		if res.Exited == nil {
			res.Exited = fmt.Errorf("exited with status 0")
		}
	case <-done:
		_ = cmd.Process.Kill()
		<-exited
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		<-exited
		t.Fatalf("the bootstrap answered %d of %d events in a minute; its output:\n%s", answered, len(events), out.String())
	}
	mu.Lock()
	res.Responses = append([]string(nil), responses...)
	mu.Unlock()
	res.Output = out.String()
	return res
}

// lockedBuffer is the process's output: stdout and stderr copied by two
// goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
