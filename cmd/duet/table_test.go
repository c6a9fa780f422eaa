package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// fakeDynamo answers the DynamoDB JSON protocol (X-Amz-Target) for the calls
// of `duet table create`; ttl says how it answers the TTL calls.
func fakeDynamo(t *testing.T, ttl string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		// DynamoDB signs each answer with its CRC32, which the SDK checks.
		w := &crcWriter{header: rw.Header(), status: http.StatusOK}
		defer w.flush(rw)
		var in struct{ TableName string }
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &in)
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		table := fmt.Sprintf(`{"TableName":%q,"TableStatus":"ACTIVE","GlobalSecondaryIndexes":[{"IndexName":"by_activity","IndexStatus":"ACTIVE"}]}`, in.TableName)
		fail := func(typ string) {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"__type":"com.amazonaws.dynamodb.v20120810#%s","message":"UnknownError"}`, typ)
		}
		switch op := strings.TrimPrefix(r.Header.Get("X-Amz-Target"), "DynamoDB_20120810."); op {
		case "CreateTable":
			fmt.Fprintf(w, `{"TableDescription":%s}`, table)
		case "DescribeTable":
			fmt.Fprintf(w, `{"Table":%s}`, table)
		case "DescribeTimeToLive":
			if ttl == "no describe" {
				fail("UnknownOperationException")
				return
			}
			fmt.Fprint(w, `{"TimeToLiveDescription":{"TimeToLiveStatus":"DISABLED"}}`)
		case "UpdateTimeToLive":
			switch ttl {
			case "ok":
				fmt.Fprint(w, `{"TimeToLiveSpecification":{"AttributeName":"expires_at","Enabled":true}}`)
			case "denied":
				fail("AccessDeniedException")
			default:
				fail("UnknownOperationException")
			}
		default:
			fail("UnknownOperationException")
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// crcWriter buffers an answer to send it with its X-Amz-Crc32 header.
type crcWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *crcWriter) Header() http.Header         { return w.header }
func (w *crcWriter) WriteHeader(status int)      { w.status = status }
func (w *crcWriter) Write(b []byte) (int, error) { return w.body.Write(b) }

func (w *crcWriter) flush(rw http.ResponseWriter) {
	rw.Header().Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE(w.body.Bytes())), 10))
	rw.WriteHeader(w.status)
	_, _ = rw.Write(w.body.Bytes())
}

func TestTableCreateWithoutTTL(t *testing.T) {
	tests := []struct {
		ttl      string
		wantCode int
		wantOut  string
		wantErr  string
	}{
		{ttl: "ok", wantCode: 0, wantOut: "TTL on expires_at"},
		{ttl: "unsupported", wantCode: 0, wantOut: "TTL not enabled", wantErr: "WARNING"},
		{ttl: "no describe", wantCode: 0, wantOut: "TTL not enabled", wantErr: "WARNING"},
		{ttl: "denied", wantCode: 1, wantErr: "AccessDeniedException"},
	}
	for _, tt := range tests {
		t.Run(tt.ttl, func(t *testing.T) {
			srv := fakeDynamo(t, tt.ttl)
			t.Setenv("DYNAMODB_ENDPOINT", srv.URL)
			t.Setenv("AWS_ACCESS_KEY_ID", "")
			t.Setenv("AWS_PROFILE", "")
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{"table", "create", "-name", "duet-test"}, &stdout, &stderr)
			if code != tt.wantCode {
				t.Fatalf("exit code %d, want %d (stdout %q, stderr %q)", code, tt.wantCode, stdout.String(), stderr.String())
			}
			if !strings.Contains(stdout.String(), tt.wantOut) {
				t.Errorf("stdout %q, want it to contain %q", stdout.String(), tt.wantOut)
			}
			if !strings.Contains(stderr.String(), tt.wantErr) {
				t.Errorf("stderr %q, want it to contain %q", stderr.String(), tt.wantErr)
			}
		})
	}
}
