// Command runtimeapi runs one Lambda bootstrap the way the Lambda service
// does, for .ci/coldstart/run: it serves the Lambda Runtime API
// (2018-06-01: invocation/next, response, error, init/error) on a loopback
// port, starts the bootstrap with AWS_LAMBDA_RUNTIME_API pointing at it,
// hands it the given events one invocation each, then kills it.
//
// It prints lines of its own, named after the Lambda service's log lines
// but not in the format of the AWS Lambda runtime interface emulator
// (aws-lambda-rie, which the Go module proxy does not serve here): Lambda
// and the emulator put Init Duration in the first REPORT line, beside
// Billed Duration and memory, which this does not measure.
//
//	INIT_REPORT Init Duration: 12.34 ms	Phase: init	Status: success
//	REPORT RequestId: …	Duration: 1.23 ms	Status: 200
//
// The Init Duration is, as on Lambda, the time from starting the process to
// its first call of invocation/next: the Go runtime's start, package
// initialisation and everything main does before lambda.Start. Duration is
// the time from handing an event over to receiving its response. Status is
// the response's statusCode when it has one (API Gateway responses).
//
// It exits non-zero if the bootstrap reports an init or invocation error,
// exits before answering every event, an API Gateway response has a status
// of 400 or more, or -timeout passes.
//
//	go run ./cmd/coldstart/runtimeapi -event events/telegram-start.json -- ./bootstrap
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// events is a repeatable -event flag.
type events []string

func (e *events) String() string     { return strings.Join(*e, ",") }
func (e *events) Set(v string) error { *e = append(*e, v); return nil }

// result is what the runtime answered to one invocation.
type result struct {
	body  []byte
	isErr bool
	at    time.Time
}

func main() {
	var files events
	flag.Var(&files, "event", "event file to invoke with, once per -event, in order (at least one)")
	memory := flag.Int("memory", 256, "AWS_LAMBDA_FUNCTION_MEMORY_SIZE the function sees (MB)")
	timeout := flag.Duration("timeout", 60*time.Second, "give up after this long")
	logFile := flag.String("log", "", "write the bootstrap's stdout and stderr here (default: discard)")
	flag.Parse()
	if len(files) == 0 || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: runtimeapi -event file [-event file]... -- bootstrap [args]")
		os.Exit(2)
	}
	if err := run(files, flag.Args(), *memory, *timeout, *logFile); err != nil {
		fmt.Fprintln(os.Stderr, "runtimeapi:", err)
		os.Exit(1)
	}
}

func run(files, command []string, memory int, timeout time.Duration, logFile string) error {
	payloads := make([][]byte, len(files))
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		payloads[i] = b
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer ln.Close()

	// next hands out the events, one per GET invocation/next; results and
	// failures come back from the response, error and init/error routes.
	next := make(chan int)
	results := make(chan result, 1)
	failed := make(chan string, 1)
	fail := func(msg string) {
		select {
		case failed <- msg:
		default:
		}
	}
	firstNext := make(chan time.Time, 1)
	handedOver := make(chan time.Time, 1) // when the current event went out

	mux := http.NewServeMux()
	mux.HandleFunc("GET /2018-06-01/runtime/invocation/next", func(w http.ResponseWriter, r *http.Request) {
		select {
		case firstNext <- time.Now():
		default:
		}
		select {
		case i := <-next:
			h := w.Header()
			h.Set("Lambda-Runtime-Aws-Request-Id", requestID(i))
			h.Set("Lambda-Runtime-Deadline-Ms", strconv.FormatInt(time.Now().Add(28*time.Second).UnixMilli(), 10))
			h.Set("Lambda-Runtime-Invoked-Function-Arn", "arn:aws:lambda:us-east-1:123456789012:function:coldstart")
			h.Set("Lambda-Runtime-Trace-Id", "Root=1-00000000-000000000000000000000000;Sampled=0")
			h.Set("Content-Type", "application/json")
			handedOver <- time.Now()
			w.Write(payloads[i])
		case <-r.Context().Done():
		}
	})
	answer := func(isErr bool) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			body, err := io.ReadAll(r.Body)
			at := time.Now()
			if err != nil {
				fail("reading a response: " + err.Error())
				return
			}
			w.WriteHeader(http.StatusAccepted)
			results <- result{body: body, isErr: isErr, at: at}
		}
	}
	mux.HandleFunc("POST /2018-06-01/runtime/invocation/{id}/response", answer(false))
	mux.HandleFunc("POST /2018-06-01/runtime/invocation/{id}/error", answer(true))
	mux.HandleFunc("POST /2018-06-01/runtime/init/error", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.WriteHeader(http.StatusAccepted)
		fail("init error: " + string(body))
	})
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Env = append(os.Environ(),
		"AWS_LAMBDA_RUNTIME_API="+ln.Addr().String(),
		"AWS_LAMBDA_FUNCTION_NAME=coldstart",
		"AWS_LAMBDA_FUNCTION_VERSION=$LATEST",
		"AWS_LAMBDA_FUNCTION_MEMORY_SIZE="+strconv.Itoa(memory),
		"AWS_LAMBDA_LOG_GROUP_NAME=/aws/lambda/coldstart",
		"AWS_LAMBDA_LOG_STREAM_NAME=coldstart",
		"AWS_LAMBDA_LOG_FORMAT=JSON",
		"AWS_LAMBDA_LOG_LEVEL=INFO",
		"_HANDLER=bootstrap",
		"LAMBDA_TASK_ROOT=.",
	)
	if logFile != "" {
		f, err := os.Create(logFile)
		if err != nil {
			return err
		}
		defer f.Close()
		cmd.Stdout, cmd.Stderr = f, f
	}
	exited := make(chan error, 1)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { exited <- cmd.Wait() }()
	defer func() {
		cmd.Process.Kill()
		<-exited
	}()

	// hasExited reports the bootstrap's exit; the deferred kill still
	// waits for it.
	hasExited := func(err error, what string) error {
		exited <- err
		return fmt.Errorf("the bootstrap exited (%v) %s", err, what)
	}

	var initEnd time.Time
	select {
	case initEnd = <-firstNext:
	case msg := <-failed:
		return errors.New(msg)
	case err := <-exited:
		return hasExited(err, "before asking for an invocation")
	case <-ctx.Done():
		return errors.New("timed out before the bootstrap asked for an invocation")
	}
	fmt.Printf("INIT_REPORT Init Duration: %.2f ms\tPhase: init\tStatus: success\n", ms(initEnd.Sub(start)))

	for i := range payloads {
		what := fmt.Sprintf("in invocation %d (%s)", i+1, files[i])
		var res result
		for sent := false; res.at.IsZero(); {
			var out chan<- int
			if !sent {
				out = next // nil once sent: that case is then never chosen
			}
			select {
			case out <- i:
				sent = true
			case res = <-results:
			case msg := <-failed:
				return errors.New(msg)
			case err := <-exited:
				return hasExited(err, what)
			case <-ctx.Done():
				return errors.New("timed out " + what)
			}
		}
		line := fmt.Sprintf("REPORT RequestId: %s\tDuration: %.2f ms", requestID(i), ms(res.at.Sub(<-handedOver)))
		if res.isErr {
			return fmt.Errorf("%s: invocation %d (%s) failed: %s", line, i+1, files[i], res.body)
		}
		var resp struct {
			StatusCode *int `json:"statusCode"`
		}
		if json.Unmarshal(res.body, &resp) == nil && resp.StatusCode != nil {
			line += fmt.Sprintf("\tStatus: %d", *resp.StatusCode)
			if *resp.StatusCode >= 400 {
				return fmt.Errorf("%s: invocation %d (%s) answered %s", line, i+1, files[i], res.body)
			}
		}
		fmt.Println(line)
	}
	return nil
}

func requestID(i int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", i+1) }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
