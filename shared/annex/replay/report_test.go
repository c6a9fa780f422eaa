package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/duetbot/duet/shared/annex"
)

// twoTurns is a transcript of two turns, both answered by the person "P".
var twoTurns = annex.Transcript{Person: "U01P", Users: []annex.User{{ID: "U01P", Username: "pat"}}, Messages: []annex.Message{
	{From: "Q", Text: "Why?"}, {From: "U01P", Text: "Because."},
	{From: "Q", Text: "How?"}, {From: "U01P", Text: "Carefully."},
}}

// twoTurnsEmb embeds the texts of twoTurns: the answers are (1, 0), "A"
// scores 1, echo 0.6 then -0.8, "W" 0.6 then 0.
var twoTurnsEmb = fixed{
	"Because.": {1, 0}, "Carefully.": {1, 0},
	"A": {1, 0}, "W": {0.6, 0.8}, "Z": {0, 1},
	"echo: Why?": {0.6, 0.8}, "echo: How?": {-0.8, 0.6},
	// Under compat emeval, question + " " + text.
	"Why? Because.": {1, 0}, "How? Carefully.": {1, 0},
	"Why? A": {1, 0}, "How? A": {1, 0}, "Why? W": {0.6, 0.8}, "How? Z": {0, 1},
	"Why? echo: Why?": {0.6, 0.8}, "How? echo: How?": {-0.8, 0.6},
}

// reply is a bot that answers every question with text.
func reply(text string) Bot {
	return BotFunc(func(context.Context, annex.Request) (string, error) { return text, nil })
}

// worseOnce answers "W" to the first question and "Z" to the second.
var worseOnce = BotFunc(func(_ context.Context, req annex.Request) (string, error) {
	if req.Message.Text == "Why?" {
		return "W", nil
	}
	return "Z", nil
})

var down = BotFunc(func(context.Context, annex.Request) (string, error) {
	return "", errors.New("endpoint answered 401 Unauthorized")
})

// runTwo replays twoTurns against cands with echo as the baseline.
func runTwo(t *testing.T, compat string, cands ...Candidate) *Result {
	t.Helper()
	cands = append(cands, Candidate{Name: "echo", Bot: Echo})
	res, err := Run(context.Background(), twoTurns, cands, Options{Embedder: twoTurnsEmb, EmbedderName: "fixed vectors", Compat: compat, Baseline: "echo"})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// render returns the table, the JSON and the HTML of res.
func render(t *testing.T, res *Result) (table, js, html string) {
	t.Helper()
	var a, b, c bytes.Buffer
	if err := WriteTable(&a, res); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&b, res); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&c, res); err != nil {
		t.Fatal(err)
	}
	return a.String(), b.String(), c.String()
}

// TestVerdict: the report opens with whether each bot is better than the
// baseline and by how much, on the turns both answered.
func TestVerdict(t *testing.T) {
	res := runTwo(t, "", Candidate{Name: "good", Bot: reply("A")}, Candidate{Name: "weak", Bot: worseOnce}, Candidate{Name: "down", Bot: down})
	want := []string{
		// good: 1, 1 against echo's 0.6, -0.8.
		"good is better than echo by 1.100 mean similarity (1.000 against -0.100), ahead on 2 of 2 turns.",
		// weak: 0.6, 0 against 0.6, -0.8: level on turn 1, ahead on turn 2.
		"weak is better than echo by 0.400 mean similarity (0.300 against -0.100), ahead on 1 of 2 turns, behind on 0, level on 1.",
		"down failed every turn (2 of 2): endpoint answered 401 Unauthorized.",
	}
	if strings.Join(res.Verdict, "\n") != strings.Join(want, "\n") {
		t.Errorf("verdict:\ngot  %q\nwant %q", res.Verdict, want)
	}
	if c := res.Summaries[0].VsBaseline; c == nil || c.Ahead != 2 || c.Turns != 2 || c.Baseline != "echo" {
		t.Errorf("good vs baseline: got %+v, want 2 of 2 turns ahead of echo", c)
	}
	table, _, html := render(t, res)
	if lines := strings.SplitN(table, "\n", 5); !strings.HasPrefix(lines[3], want[0]) {
		t.Errorf("the table does not open with the verdict:\n%s", table)
	}
	if !strings.Contains(html, `<p class="verdict">`+want[0]) || !strings.Contains(html, `<p class="verdict bad">down failed every turn`) {
		t.Errorf("the HTML report does not state the verdict")
	}

	// A worse bot, against a positive baseline, with the relative change.
	res, err := Run(context.Background(), twoTurns, []Candidate{{Name: "first", Bot: reply("A")}, {Name: "second", Bot: worseOnce}},
		Options{Embedder: twoTurnsEmb, Baseline: "first"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Verdict, "second is worse than first by 0.700 mean similarity (0.300 against 1.000, -70%), ahead on 0 of 2 turns, behind on 2."; len(got) != 1 || got[0] != want {
		t.Errorf("verdict: got %q, want %q", got, want)
	}

	// No baseline: each bot alone.
	res, err = Run(context.Background(), twoTurns, []Candidate{{Name: "good", Bot: reply("A")}}, Options{Embedder: twoTurnsEmb})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Verdict, "good: mean similarity 1.000 over 2 turns, no baseline to compare with."; len(got) != 1 || got[0] != want {
		t.Errorf("verdict: got %q, want %q", got, want)
	}
	if _, err := Run(context.Background(), twoTurns, []Candidate{{Name: "good", Bot: reply("A")}}, Options{Embedder: twoTurnsEmb, Baseline: "echo"}); err == nil {
		t.Error("Run with a baseline that is not a bot: got no error")
	}
}

// TestReportNamesEmbedderAndPerson: the embeddings that produced the numbers
// are in every report, and the title names the person, not a user id.
func TestReportNamesEmbedderAndPerson(t *testing.T) {
	res := runTwo(t, "", Candidate{Name: "good", Bot: reply("A")})
	res.Transcript = "pat.json"
	table, js, html := render(t, res)
	var doc struct{ Embedder string }
	if err := json.Unmarshal([]byte(js), &doc); err != nil || doc.Embedder != "fixed vectors" {
		t.Errorf("JSON embedder: got %q (%v), want %q", doc.Embedder, err, "fixed vectors")
	}
	for name, out := range map[string]string{"table": table, "HTML": html} {
		if !strings.Contains(out, "embeddings: fixed vectors") {
			t.Errorf("%s does not name the embeddings", name)
		}
	}
	if want := "<title>duet eval: @pat, pat.json</title>"; !strings.Contains(html, want) {
		t.Errorf("HTML title: want %q in\n%s", want, html[:200])
	}
	if strings.Contains(table+html, "U01P") {
		t.Error("a report shows the person's user id instead of the username")
	}
	res, err := Run(context.Background(), twoTurns, []Candidate{{Name: "echo", Bot: Echo}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Embedder != LexicalName {
		t.Errorf("default embedder: got %q, want %q", res.Embedder, LexicalName)
	}
}

// TestPointsOnlyUnderCompat: points, winners and wins rank the bots only
// as the original scorer did, under --compat emeval; elsewhere they would
// contradict the means.
func TestPointsOnlyUnderCompat(t *testing.T) {
	res := runTwo(t, "", Candidate{Name: "good", Bot: reply("A")}, Candidate{Name: "weak", Bot: worseOnce})
	for _, turn := range res.Turns {
		for _, r := range turn.Replies {
			if r.Points != 0 || r.Winner || r.Loser {
				t.Errorf("turn %d %s: points %d winner %v loser %v without compat", turn.Turn, r.Candidate, r.Points, r.Winner, r.Loser)
			}
		}
	}
	table, js, html := render(t, res)
	for name, rep := range map[string]struct {
		out   string
		words []string
	}{
		"table": {table, []string{"POINTS", "WINS", "winner", "loser"}},
		"JSON":  {js, []string{`"points"`, `"mean_points"`, `"wins"`, `"winner"`, `"loser"`}},
		"HTML":  {html, []string{"<th>points", "<th>mean points", "<th>wins", `class="win"`}},
	} {
		for _, word := range rep.words {
			if strings.Contains(rep.out, word) {
				t.Errorf("%s shows %s without compat", name, word)
			}
		}
	}
	res = runTwo(t, CompatEmeval, Candidate{Name: "good", Bot: reply("A")})
	table, js, html = render(t, res)
	for name, out := range map[string]string{"table": table, "JSON": js, "HTML": html} {
		if !strings.Contains(strings.ToLower(out), "points") {
			t.Errorf("%s shows no points under compat", name)
		}
	}
	if !strings.Contains(table, "winner") {
		t.Errorf("the compat table marks no winner:\n%s", table)
	}
}

// TestFailuresShownAsFailures: a bot that failed reads as failed in every
// report, never as a score of 0.000.
func TestFailuresShownAsFailures(t *testing.T) {
	res := runTwo(t, "", Candidate{Name: "down", Bot: down})
	table, js, html := render(t, res)
	var doc struct {
		Turns []struct {
			Replies []map[string]any
		}
		Summaries []map[string]any
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	if _, ok := doc.Summaries[0]["mean"]; ok {
		t.Errorf("JSON summary of a bot that failed every turn has a mean: %v", doc.Summaries[0])
	}
	if _, ok := doc.Turns[0].Replies[0]["similarity"]; ok {
		t.Errorf("JSON failed reply has a similarity: %v", doc.Turns[0].Replies[0])
	}
	if _, ok := doc.Summaries[1]["mean"]; !ok {
		t.Errorf("JSON summary of echo has no mean: %v", doc.Summaries[1])
	}
	for _, line := range strings.Split(table, "\n") {
		if strings.HasPrefix(line, "down  0") && (!strings.Contains(line, "failed") || strings.Contains(line, "0.000")) {
			t.Errorf("table row of a bot that failed every turn: %q, want failed and no 0.000", line)
		}
	}
	if !strings.Contains(table, "FAILED: endpoint answer") {
		t.Errorf("the table does not give the reason of the failures:\n%s", table)
	}
	if !strings.Contains(html, `<td class="err">failed</td>`) || strings.Contains(html, "<td class=\"num\">0.000</td>") {
		t.Error("HTML report: a failed bot is not shown as failed")
	}
}

// TestTableWidth: the text table keeps within 100 columns and every column
// has a heading, with one bot, several, and under compat.
func TestTableWidth(t *testing.T) {
	heldout := readTranscript(t, "ada-heldout.json")
	long := Candidate{Name: "a-bot-with-a-long-name", Source: "http://127.0.0.1:8080/annex/" + strings.Repeat("x", 120), Bot: reply(strings.Repeat("word ", 60))}
	for _, tc := range []struct {
		name   string
		cands  []Candidate
		compat string
		head   string
	}{
		{"one", []Candidate{long}, "", "TURN  QUESTION"},
		{"several", []Candidate{long, {Name: "echo", Bot: Echo}}, "", "TURN  BOT"},
		{"compat", []Candidate{long, {Name: "down", Bot: down}, {Name: "echo", Bot: Echo}}, CompatEmeval, "TURN  BOT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Run(context.Background(), heldout, tc.cands, Options{Compat: tc.compat, Baseline: tc.cands[len(tc.cands)-1].Name})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := WriteTable(&b, res); err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(b.String(), "\n") {
				if n := utf8.RuneCountInString(line); n > tableWidth {
					t.Errorf("line of %d columns, want at most %d: %q", n, tableWidth, line)
				}
			}
			var head string
			for _, line := range strings.Split(b.String(), "\n") {
				if strings.HasPrefix(line, "TURN") {
					head = line
				}
			}
			if !strings.HasPrefix(head, tc.head) || strings.HasSuffix(head, " ") {
				t.Errorf("turn table heading %q: want it to start %q and head every column", head, tc.head)
			}
			if tc.compat != "" && !strings.HasSuffix(head, "RANK") {
				t.Errorf("compat heading %q: want the winner/loser column headed RANK", head)
			}
		})
	}
}

// svgDoc is the chart of an HTML report.
func svgDoc(t *testing.T, html string) string {
	t.Helper()
	i, j := strings.Index(html, "<svg"), strings.Index(html, "</svg>")
	if i < 0 || j < i {
		t.Fatal("the HTML report has no chart")
	}
	return html[i : j+len("</svg>")]
}

var number = regexp.MustCompile(`-?[0-9]+(\.[0-9]+)?`)

// TestChart: the chart's y range holds every similarity, negatives
// included; it has ticks on both axes, axis titles and a legend; and no
// coordinate or tick label falls outside the viewBox.
func TestChart(t *testing.T) {
	res := runTwo(t, "", Candidate{Name: "good", Bot: reply("A")}, Candidate{Name: "down", Bot: down})
	_, _, html := render(t, res)
	svg := svgDoc(t, html)

	dec := xml.NewDecoder(strings.NewReader(svg))
	var w, h float64
	var yticks, xticks, legend []string
	dots := map[string]float64{} // hover title -> cy
	zero := -1.0
	var stack []string
	var pending *xml.StartElement
	attr := func(e xml.StartElement, name string) (string, bool) {
		for _, a := range e.Attr {
			if a.Name.Local == name {
				return a.Value, true
			}
		}
		return "", false
	}
	num := func(e xml.StartElement, name string) float64 {
		v, _ := attr(e, name)
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatalf("<%s %s=%q>: %v", e.Name.Local, name, v, err)
		}
		return f
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the chart is not well-formed SVG: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			stack = append(stack, e.Name.Local)
			if e.Name.Local == "svg" {
				vb, _ := attr(e, "viewBox")
				f := strings.Fields(vb)
				if len(f) != 4 || f[0] != "0" || f[1] != "0" {
					t.Fatalf("viewBox %q, want 0 0 W H", vb)
				}
				w, _ = strconv.ParseFloat(f[2], 64)
				h, _ = strconv.ParseFloat(f[3], 64)
				continue
			}
			for _, a := range e.Attr {
				var vals []float64
				switch a.Name.Local {
				case "x", "x1", "x2", "cx", "y", "y1", "y2", "cy":
					vals = append(vals, num(e, a.Name.Local))
				case "points", "d":
					for _, m := range number.FindAllString(a.Value, -1) {
						f, _ := strconv.ParseFloat(m, 64)
						vals = append(vals, f)
					}
				default:
					continue
				}
				for _, v := range vals {
					limit := w
					if strings.HasPrefix(a.Name.Local, "y") || a.Name.Local == "cy" {
						limit = h
					}
					if v < 0 || v > max(w, h) || (a.Name.Local != "points" && a.Name.Local != "d" && v > limit) {
						t.Errorf("<%s %s=%q> outside the viewBox 0 0 %g %g", e.Name.Local, a.Name.Local, a.Value, w, h)
					}
				}
			}
			if e.Name.Local == "line" && len(stack) > 1 {
				if s, _ := attr(e, "stroke"); s == "#6b7280" {
					zero = num(e, "y1")
				}
			}
			c := e
			pending = &c
		case xml.CharData:
			text := strings.TrimSpace(string(e))
			if pending == nil || text == "" {
				continue
			}
			cls, _ := attr(*pending, "class")
			switch {
			case pending.Name.Local == "text" && cls == "ytick":
				yticks = append(yticks, text)
				// Right-aligned at x - 6: the label must fit left of it.
				if x := num(*pending, "x") - 6; x-float64(len(text))*7 < 0 {
					t.Errorf("y tick %q at x %g is clipped on the left", text, x)
				}
			case pending.Name.Local == "text" && cls == "xtick":
				xticks = append(xticks, text)
			case pending.Name.Local == "text" && len(stack) > 1 && stack[len(stack)-2] == "g":
				legend = append(legend, text)
			case pending.Name.Local == "title" && len(stack) > 1 && stack[len(stack)-2] == "circle":
				dots[text] = -1
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
			pending = nil
		}
	}
	if w == 0 || h == 0 {
		t.Fatal("no viewBox")
	}
	if len(yticks) < 4 || !slicesContainsNegative(yticks) {
		t.Errorf("y ticks %q: want at least 4, down to a negative value (echo scores -0.8)", yticks)
	}
	if len(xticks) != 2 || xticks[0] != "1" || xticks[1] != "2" {
		t.Errorf("x ticks %q, want turns 1 and 2", xticks)
	}
	if zero < 0 {
		t.Error("no zero line in a range that spans 0")
	}
	if strings.Join(legend, ",") != "good,down,echo,× failed turn" {
		t.Errorf("legend %q, want every bot and the failed-turn mark", legend)
	}
	for _, want := range []string{"good, turn 1: 1.000", "echo, turn 2: -0.800"} {
		if _, ok := dots[want]; !ok {
			t.Errorf("no point %q in the chart (points %q)", want, keys(dots))
		}
	}
	if !strings.Contains(svg, `class="fail"`) || !strings.Contains(svg, "down, turn 1: failed: endpoint answered 401") {
		t.Error("the chart does not mark the failed turns")
	}
	// The negative point is drawn below the zero line, not clamped to it.
	if m := regexp.MustCompile(`cy="([0-9.]+)" r="[0-9.]+" fill="[^"]+"><title>echo, turn 2: -0.800`).FindStringSubmatch(svg); m == nil {
		t.Error("no point for echo's -0.800")
	} else if cy, _ := strconv.ParseFloat(m[1], 64); cy <= zero {
		t.Errorf("echo's -0.800 at y %g, want below the zero line at %g", cy, zero)
	}
}

func slicesContainsNegative(labels []string) bool {
	for _, l := range labels {
		if strings.HasPrefix(l, "-") {
			return true
		}
	}
	return false
}

func keys(m map[string]float64) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestNiceTicks: the ticks are round, cover the data and are few.
func TestNiceTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   string
	}{
		{-0.02, 0.3, "-0.1 0.0 0.1 0.2 0.3"},
		{0.1, 0.1, "0.04 0.06 0.08 0.10 0.12 0.14 0.16"},
		{0, 1, "0.0 0.2 0.4 0.6 0.8 1.0"},
		{-0.8, 1, "-1.0 -0.5 0.0 0.5 1.0"},
		{0.013, 0.26, "0.00 0.05 0.10 0.15 0.20 0.25 0.30"},
	} {
		ticks, dlo, dhi, dec := niceTicks(tc.lo, tc.hi)
		var got []string
		for _, v := range ticks {
			got = append(got, strconv.FormatFloat(v, 'f', dec, 64))
		}
		if strings.Join(got, " ") != tc.want || dlo > tc.lo || dhi < tc.hi {
			t.Errorf("niceTicks(%g, %g) = %q over [%g, %g], want %q covering the data", tc.lo, tc.hi, got, dlo, dhi, tc.want)
		}
	}
}

// TestReportWithoutSources: a Result read back from JSON written before
// sources were recorded still renders, naming the bots by name.
func TestReportWithoutSources(t *testing.T) {
	res := runTwo(t, "", Candidate{Name: "good", Bot: reply("A")})
	res.Sources = nil
	table, _, html := render(t, res)
	if !strings.Contains(table, "good  good") || !strings.Contains(html, "<td>good</td>") {
		t.Errorf("bots without sources are not named by their names:\n%s", table)
	}
}
