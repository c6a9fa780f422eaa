package bedrock

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
)

func TestTitan(t *testing.T) {
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.Path)
		if !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256") {
			t.Errorf("request not signed: %q", r.Header.Get("Authorization"))
		}
		var in struct {
			InputText string `json:"inputText"`
		}
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			t.Errorf("decode: %v", err)
		}
		if in.InputText == "fail" {
			w.Header().Set("X-Amzn-ErrorType", "ValidationException")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"message":"Malformed input request"}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"embedding": []float32{float32(len(in.InputText)), 1}, "inputTextTokenCount": 1})
	}))
	defer srv.Close()
	client := bedrockruntime.New(bedrockruntime.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(srv.URL),
		Credentials:  credentials.NewStaticCredentialsProvider("AKID", "SECRET", ""),
	})
	titan := New(client, "")
	vecs, err := titan.Embed(context.Background(), []string{"ab", "abcd"})
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != 2 || vecs[0][0] != 2 || vecs[1][0] != 4 {
		t.Errorf("vectors: got %v, want [[2 1] [4 1]]", vecs)
	}
	if want := "/model/" + DefaultModel + "/invoke"; len(paths) != 2 || paths[0] != want {
		t.Errorf("paths: got %v, want two of %s", paths, want)
	}
	if _, err := titan.Embed(context.Background(), []string{"fail"}); err == nil || !strings.Contains(err.Error(), "Malformed input request") {
		t.Errorf("error: got %v, want the service's message", err)
	}
}
