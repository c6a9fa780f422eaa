package metrics

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// cloudWatchUnits are the units CloudWatch accepts (MetricDatum.Unit).
var cloudWatchUnits = []string{
	"Seconds", "Microseconds", "Milliseconds", "Bytes", "Kilobytes", "Megabytes", "Gigabytes", "Terabytes",
	"Bits", "Kilobits", "Megabits", "Gigabits", "Terabits", "Percent", "Count", "Bytes/Second",
	"Kilobytes/Second", "Megabytes/Second", "Gigabytes/Second", "Terabytes/Second", "Bits/Second",
	"Kilobits/Second", "Megabits/Second", "Gigabits/Second", "Terabits/Second", "Count/Second", "None",
}

// emfLine is a line as the EMF specification reads it: its _aws metadata,
// the value of each metric it declares, and each dimension's value.
type emfLine struct {
	Timestamp  time.Time
	Namespace  string
	Dimensions [][]string
	Metrics    map[string]float64 // name → value
	Units      map[string]string  // name → unit
	Values     map[string]string  // dimension key → value
}

// parseEMF checks line against CloudWatch's Embedded Metric Format
// specification and returns what it declares: one JSON object, with an
// _aws member holding Timestamp (epoch milliseconds) and CloudWatchMetrics
// (directives of Namespace, Dimensions and Metrics, no other members),
// every dimension key a top-level string member, every metric name a
// top-level number.
func parseEMF(line []byte) (emfLine, error) {
	var root map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil {
		return emfLine{}, fmt.Errorf("not a JSON object: %w", err)
	}
	if dec.More() {
		return emfLine{}, fmt.Errorf("data after the JSON object")
	}
	var meta map[string]json.RawMessage
	if err := strictJSON(root["_aws"], &meta); err != nil {
		return emfLine{}, fmt.Errorf("_aws: %w", err)
	}
	for k := range meta {
		if k != "Timestamp" && k != "CloudWatchMetrics" {
			return emfLine{}, fmt.Errorf("_aws has a member %q the specification does not define", k)
		}
	}
	var ts int64
	if err := strictJSON(meta["Timestamp"], &ts); err != nil || ts <= 0 {
		return emfLine{}, fmt.Errorf("_aws.Timestamp %s: want epoch milliseconds (%v)", meta["Timestamp"], err)
	}
	var directives []map[string]json.RawMessage
	if err := strictJSON(meta["CloudWatchMetrics"], &directives); err != nil || len(directives) == 0 {
		return emfLine{}, fmt.Errorf("_aws.CloudWatchMetrics: want an array of directives (%v)", err)
	}
	out := emfLine{Timestamp: time.UnixMilli(ts), Metrics: map[string]float64{}, Units: map[string]string{}, Values: map[string]string{}}
	for _, d := range directives {
		for k := range d {
			if k != "Namespace" && k != "Dimensions" && k != "Metrics" {
				return emfLine{}, fmt.Errorf("directive has a member %q the specification does not define", k)
			}
		}
		if err := strictJSON(d["Namespace"], &out.Namespace); err != nil || out.Namespace == "" || len(out.Namespace) > 255 {
			return emfLine{}, fmt.Errorf("Namespace %s: want 1..255 characters (%v)", d["Namespace"], err)
		}
		if err := strictJSON(d["Dimensions"], &out.Dimensions); err != nil {
			return emfLine{}, fmt.Errorf("Dimensions: want an array of arrays of keys: %w", err)
		}
		for _, set := range out.Dimensions {
			if len(set) > 30 {
				return emfLine{}, fmt.Errorf("a dimension set of %d keys: at most 30", len(set))
			}
			for _, k := range set {
				var v string
				if err := strictJSON(root[k], &v); err != nil {
					return emfLine{}, fmt.Errorf("dimension %q: want a top-level string member (%v)", k, err)
				}
				out.Values[k] = v
			}
		}
		var metrics []map[string]json.RawMessage
		if err := strictJSON(d["Metrics"], &metrics); err != nil || len(metrics) == 0 || len(metrics) > 100 {
			return emfLine{}, fmt.Errorf("Metrics: want 1..100 metric definitions (%v)", err)
		}
		for _, m := range metrics {
			var name, unit string
			if err := strictJSON(m["Name"], &name); err != nil || name == "" || len(name) > 1024 {
				return emfLine{}, fmt.Errorf("metric Name %s: want 1..1024 characters (%v)", m["Name"], err)
			}
			if raw, ok := m["Unit"]; ok {
				if err := strictJSON(raw, &unit); err != nil || !slices.Contains(cloudWatchUnits, unit) {
					return emfLine{}, fmt.Errorf("metric %s: Unit %s is not a CloudWatch unit", name, raw)
				}
			}
			var v float64
			if err := strictJSON(root[name], &v); err != nil {
				return emfLine{}, fmt.Errorf("metric %s: want a top-level number member (%v)", name, err)
			}
			out.Metrics[name], out.Units[name] = v, unit
		}
	}
	return out, nil
}

// strictJSON decodes raw into v, refusing a missing member.
func strictJSON(raw json.RawMessage, v any) error {
	if raw == nil {
		return fmt.Errorf("missing")
	}
	return json.Unmarshal(raw, v)
}

func lines(t testing.TB, b []byte) [][]byte {
	t.Helper()
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		out = append(out, slices.Clone(sc.Bytes()))
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		t.Errorf("output does not end in a newline: %q", b)
	}
	return out
}

func TestEMFLinesParse(t *testing.T) {
	at := time.Date(2026, 11, 25, 1, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		function string
		metric   Name
		value    float64
		dims     []Dimension
		wantSets [][]string
		wantVals map[string]string
	}{
		{"no dimension", "", PartnerMessages, 1, nil, [][]string{{}}, map[string]string{}},
		{"function", "telegram", RepliesSent, 2, nil,
			[][]string{{}, {"Function"}}, map[string]string{"Function": "telegram"}},
		{"reason", "telegram", RepliesGivenUp, 1, []Dimension{Reason(GivenUpRefused)},
			[][]string{{}, {"Function"}, {"Reason"}}, map[string]string{"Function": "telegram", "Reason": "refused"}},
		{"latency", "sweeper", ReplyLatency, 812.5, nil,
			[][]string{{}, {"Function"}}, map[string]string{"Function": "sweeper"}},
		{"ended by", "sweeper", ChatsEnded, 1, []Dimension{EndedBy(EndedBySweeper)},
			[][]string{{}, {"Function"}, {"EndedBy"}}, map[string]string{"Function": "sweeper", "EndedBy": "sweeper"}},
		{"dimensions CloudWatch refuses are left out", "annex", AnnexRequests, 1,
			[]Dimension{{"Reason", ""}, {"Reason", "caf\u00e9"}, {"_aws", "x"}, {"AnnexRequests", "x"}, {"Function", "other"}, {"Reason", "ok"}},
			[][]string{{}, {"Function"}, {"Reason"}}, map[string]string{"Function": "annex", "Reason": "ok"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			e := NewEMF(&buf, tc.function)
			e.now = func() time.Time { return at }
			e.Record(tc.metric, tc.value, tc.dims...)
			ls := lines(t, buf.Bytes())
			if len(ls) != 1 {
				t.Fatalf("got %d lines, want 1: %q", len(ls), buf.String())
			}
			got, err := parseEMF(ls[0])
			if err != nil {
				t.Fatalf("line %s is not EMF: %v", ls[0], err)
			}
			if got.Namespace != "Duet" || !got.Timestamp.Equal(at) {
				t.Errorf("namespace %q, timestamp %v; want Duet, %v", got.Namespace, got.Timestamp, at)
			}
			if v, ok := got.Metrics[string(tc.metric)]; !ok || v != tc.value || len(got.Metrics) != 1 {
				t.Errorf("metrics %v, want only %s=%v", got.Metrics, tc.metric, tc.value)
			}
			if got.Units[string(tc.metric)] != tc.metric.Unit() {
				t.Errorf("unit %q, want %q", got.Units[string(tc.metric)], tc.metric.Unit())
			}
			if !slices.EqualFunc(got.Dimensions, tc.wantSets, slices.Equal) {
				t.Errorf("dimension sets %q, want %q", got.Dimensions, tc.wantSets)
			}
			if fmt.Sprint(got.Values) != fmt.Sprint(tc.wantVals) {
				t.Errorf("dimension values %v, want %v", got.Values, tc.wantVals)
			}
		})
	}
}

func TestEMFRejectsWhatTheSpecificationRejects(t *testing.T) {
	// The checker itself must fail on lines that are not EMF, or the test
	// above proves nothing.
	bad := []string{
		`not json`,
		`{"PartnerMessages":1}`,
		`{"_aws":{"CloudWatchMetrics":[{"Namespace":"Duet","Dimensions":[[]],"Metrics":[{"Name":"PartnerMessages","Unit":"Count"}]}]},"PartnerMessages":1}`,
		`{"_aws":{"Timestamp":1,"CloudWatchMetrics":[{"Namespace":"Duet","Dimensions":[["Reason"]],"Metrics":[{"Name":"PartnerMessages","Unit":"Count"}]}]},"PartnerMessages":1}`,
		`{"_aws":{"Timestamp":1,"CloudWatchMetrics":[{"Namespace":"Duet","Dimensions":[[]],"Metrics":[{"Name":"PartnerMessages","Unit":"Count"}]}]},"PartnerMessages":"1"}`,
		`{"_aws":{"Timestamp":1,"CloudWatchMetrics":[{"Namespace":"Duet","Dimensions":[[]],"Metrics":[{"Name":"PartnerMessages","Unit":"Counts"}]}]},"PartnerMessages":1}`,
		`{"_aws":{"Timestamp":1,"CloudWatchMetrics":[{"Namespace":"","Dimensions":[[]],"Metrics":[{"Name":"PartnerMessages"}]}]},"PartnerMessages":1}`,
		`{"_aws":{"Timestamp":1,"CloudWatchMetrics":[]},"PartnerMessages":1}`,
		`{"_aws":{"Timestamp":1,"Extra":2,"CloudWatchMetrics":[{"Namespace":"Duet","Dimensions":[[]],"Metrics":[{"Name":"PartnerMessages"}]}]},"PartnerMessages":1}`,
	}
	for _, line := range bad {
		if _, err := parseEMF([]byte(line)); err == nil {
			t.Errorf("parseEMF accepted %s", line)
		}
	}
}

// TestEMFConcurrent races many recorders on one writer: every line is
// whole and parses, and none is lost.
func TestEMFConcurrent(t *testing.T) {
	var buf bytes.Buffer
	e := NewEMF(&buf, "telegram")
	const workers, each = 8, 200
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				e.Record(RepliesGivenUp, float64(w*each+i), Reason(GivenUpBotAPI))
			}
		}()
	}
	wg.Wait()
	ls := lines(t, buf.Bytes())
	if len(ls) != workers*each {
		t.Fatalf("got %d lines, want %d", len(ls), workers*each)
	}
	seen := map[float64]bool{}
	for _, l := range ls {
		got, err := parseEMF(l)
		if err != nil {
			t.Fatalf("line %s: %v", l, err)
		}
		seen[got.Metrics[string(RepliesGivenUp)]] = true
	}
	if len(seen) != workers*each {
		t.Errorf("%d distinct values, want %d", len(seen), workers*each)
	}
}

func TestEMFDropsNonFiniteValues(t *testing.T) {
	var buf bytes.Buffer
	e := NewEMF(&buf, "")
	e.Record(ReplyLatency, math.NaN())
	e.Record(ReplyLatency, math.Inf(1))
	if buf.Len() != 0 {
		t.Errorf("wrote %q for non-finite values, want nothing", buf.String())
	}
}

func TestNames(t *testing.T) {
	names := Names()
	if len(names) != len(units) || len(names) == 0 {
		t.Fatalf("Names() = %v", names)
	}
	for _, n := range names {
		if u := n.Unit(); u != Count && u != Milliseconds {
			t.Errorf("%s: unit %q, want Count or Milliseconds", n, u)
		}
		if !printable(string(n), 255) || strings.ContainsAny(string(n), " .") {
			t.Errorf("%q is not a plain CloudWatch metric name", n)
		}
	}
	if Name("Unknown").Unit() != "None" {
		t.Errorf("an unknown name's unit is %q, want None", Name("Unknown").Unit())
	}
}

func TestHelpers(t *testing.T) {
	var tally Tally
	Add(nil, PartnerMessages, 1) // a nil Recorder records nothing, and does not panic
	Since(nil, ReplyLatency, time.Now())
	Add(&tally, PartnerMessages, 0)
	Add(&tally, PartnerMessages, 2)
	Add(&tally, RepliesGivenUp, 1, Reason(GivenUpStore))
	Add(&tally, RepliesGivenUp, 1, Reason(GivenUpRefused))
	Since(&tally, ReplyLatency, time.Now().Add(-1500*time.Millisecond))
	if got := tally.Sum(PartnerMessages); got != 2 {
		t.Errorf("PartnerMessages = %v, want 2", got)
	}
	if got := tally.Sum(RepliesGivenUp, Reason(GivenUpStore)); got != 1 {
		t.Errorf("RepliesGivenUp{store} = %v, want 1", got)
	}
	if got := tally.Total(RepliesGivenUp); got != 2 {
		t.Errorf("RepliesGivenUp total = %v, want 2", got)
	}
	if got := tally.Sum(ReplyLatency); got < 1500 || got > 60_000 {
		t.Errorf("ReplyLatency = %v ms, want about 1500", got)
	}
}
