package metrics

import (
	"encoding/json"
	"io"
	"sync"
	"time"
)

// EMF writes each record as one line of CloudWatch Embedded Metric Format:
// a JSON object whose _aws member tells CloudWatch Logs which of its
// top-level members are the metric's value and its dimensions. On Lambda it
// writes to stdout, where the log agent picks the lines up; no API call, no
// latency added to the reply.
//
// Each record is published with no dimension (the total, which the alarms
// read) and once per dimension alone (by function, by reason): a few
// metrics per name, whatever the traffic.
type EMF struct {
	mu       sync.Mutex
	w        io.Writer
	function string
	now      func() time.Time
}

var _ Recorder = (*EMF)(nil)

// NewEMF returns an EMF writer to w whose records carry the Function
// dimension function ("telegram", "serve"…; none when empty).
func NewEMF(w io.Writer, function string) *EMF {
	return &EMF{w: w, function: function, now: time.Now}
}

// emfMetadata is the _aws member of a line.
type emfMetadata struct {
	Timestamp         int64          `json:"Timestamp"`
	CloudWatchMetrics []emfDirective `json:"CloudWatchMetrics"`
}

type emfDirective struct {
	Namespace  string      `json:"Namespace"`
	Dimensions [][]string  `json:"Dimensions"`
	Metrics    []emfMetric `json:"Metrics"`
}

type emfMetric struct {
	Name string `json:"Name"`
	Unit string `json:"Unit"`
}

// Record writes one line. A dimension whose key or value CloudWatch would
// refuse (empty, not printable ASCII, too long, or a key taken by the
// line itself) is left out rather than losing the value.
func (e *EMF) Record(name Name, value float64, dims ...Dimension) {
	line := map[string]any{string(name): value}
	sets := [][]string{{}}
	add := func(d Dimension) {
		if _, taken := line[d.Key]; taken || d.Key == "_aws" || !printable(d.Key, 255) || !printable(d.Value, 1024) {
			return
		}
		line[d.Key] = d.Value
		sets = append(sets, []string{d.Key})
	}
	if e.function != "" {
		add(Dimension{FunctionKey, e.function})
	}
	for _, d := range dims {
		add(d)
	}
	line["_aws"] = emfMetadata{
		Timestamp: e.now().UnixMilli(),
		CloudWatchMetrics: []emfDirective{{
			Namespace:  Namespace,
			Dimensions: sets,
			Metrics:    []emfMetric{{Name: string(name), Unit: name.Unit()}},
		}},
	}
	b, err := json.Marshal(line)
	if err != nil {
		return // a NaN or infinite value: CloudWatch would refuse it too
	}
	b = append(b, '\n')
	// One Write per line, under the lock: lines never interleave, with each
	// other or (being one write each) with the logger's.
	e.mu.Lock()
	defer e.mu.Unlock()
	_, _ = e.w.Write(b) // stdout: nowhere to report a failure to
}

// printable reports whether s is 1..max printable ASCII characters, as
// CloudWatch wants of dimension names and values.
func printable(s string, max int) bool {
	if s == "" || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
