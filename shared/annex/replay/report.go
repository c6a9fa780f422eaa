package replay

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
)

// WriteJSON writes res as indented JSON.
func WriteJSON(w io.Writer, res *Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(res)
}

// WriteTable writes res as a text table, one row per turn and candidate,
// then each candidate's mean, median and minimum.
func WriteTable(w io.Writer, res *Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	multi := len(res.Candidates) > 1 || res.Compat != ""
	head := "TURN\tQUESTION\tORIGINAL\tREPLY\tSIMILARITY"
	if multi {
		head = "TURN\tBOT\tQUESTION\tORIGINAL\tREPLY\tSIMILARITY\tPOINTS\t"
	}
	fmt.Fprintln(tw, head)
	for _, t := range res.Turns {
		for _, r := range t.Replies {
			reply, sim := clip(r.Text, 40), fmt.Sprintf("%.3f", r.Similarity)
			if !r.Scored() {
				reply, sim = "ERROR: "+clip(r.Error, 60), "-"
			}
			if multi {
				mark := ""
				switch {
				case !r.Scored():
				case r.Winner && len(res.Candidates) > 1:
					mark = "winner"
				case r.Loser && len(res.Candidates) > 1:
					mark = "loser"
				}
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", t.Turn, r.Candidate, clip(t.Question, 32), clip(t.Original, 32), reply, sim, r.Points, mark)
			} else {
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", t.Turn, clip(t.Question, 40), clip(t.Original, 40), reply, sim)
			}
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "BOT\tSCORED\tFAILED\tMEAN\tMEDIAN\tMIN\tMEAN POINTS\tWINS")
	for _, s := range res.Summaries {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f\t%.3f\t%.3f\t%.1f\t%d\n", s.Candidate, s.Scored, s.Failed, s.Mean, s.Median, s.Min, s.Points, s.Wins)
	}
	return tw.Flush()
}

// clip shortens s to n runes on one line.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Chart geometry of the HTML report.
const (
	chartW, chartH = 720, 240
	padL, padB     = 40, 24
)

var palette = []string{"#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2"}

type chartLine struct {
	Name   string
	Color  string
	Points string
	Dots   []chartDot
}

type chartDot struct {
	X, Y  float64
	Title string
}

// WriteHTML writes a self-contained HTML report: summary, a per-turn
// similarity chart (inline SVG) and every turn's replies. No external assets.
func WriteHTML(w io.Writer, res *Result) error {
	n := len(res.Turns)
	x := func(i int) float64 {
		if n <= 1 {
			return padL + float64(chartW-padL)/2
		}
		return padL + float64(i)*float64(chartW-padL-10)/float64(n-1)
	}
	y := func(s float64) float64 { return float64(chartH-padB) * (1 - max(min(s, 1), 0)) }
	var lines []chartLine
	for ci, name := range res.Candidates {
		l := chartLine{Name: name, Color: palette[ci%len(palette)]}
		var pts []string
		for i, t := range res.Turns {
			r := t.Replies[ci]
			if !r.Scored() {
				continue
			}
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i), y(r.Similarity)))
			l.Dots = append(l.Dots, chartDot{X: x(i), Y: y(r.Similarity), Title: fmt.Sprintf("turn %d: %.3f", t.Turn, r.Similarity)})
		}
		l.Points = strings.Join(pts, " ")
		lines = append(lines, l)
	}
	var grid []map[string]any
	for _, v := range []float64{0, 0.25, 0.5, 0.75, 1} {
		grid = append(grid, map[string]any{"Y": y(v), "Label": fmt.Sprintf("%.2f", v)})
	}
	return reportTmpl.Execute(w, map[string]any{
		"R": res, "Lines": lines, "Grid": grid,
		"W": chartW, "H": chartH, "PadL": padL, "Base": chartH - padB,
	})
}

var reportTmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"f3":    func(v float64) string { return fmt.Sprintf("%.3f", v) },
	"f1":    func(v float64) string { return fmt.Sprintf("%.1f", v) },
	"color": func(i int) string { return palette[i%len(palette)] },
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>duet eval: {{.R.Person}}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#111}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ddd;padding:4px 8px;vertical-align:top;text-align:left}
th{background:#f5f5f5}.err{color:#b91c1c}.num{text-align:right;font-variant-numeric:tabular-nums}
.win{font-weight:bold}svg{background:#fafafa;border:1px solid #eee}
</style></head><body>
<h1>Replay of {{.R.Person}}{{if .R.Compat}} (compat {{.R.Compat}}){{end}}</h1>
<table><tr><th>bot</th><th>scored</th><th>failed</th><th>mean</th><th>median</th><th>min</th><th>mean points</th><th>wins</th></tr>
{{range $i, $s := .R.Summaries}}<tr><td><span style="color:{{color $i}}">&#9632;</span> {{$s.Candidate}}</td><td class="num">{{$s.Scored}}</td><td class="num">{{$s.Failed}}</td><td class="num">{{f3 $s.Mean}}</td><td class="num">{{f3 $s.Median}}</td><td class="num">{{f3 $s.Min}}</td><td class="num">{{f1 $s.Points}}</td><td class="num">{{$s.Wins}}</td></tr>
{{end}}</table>
<h2>Similarity per turn</h2>
<svg xmlns="http://www.w3.org/2000/svg" width="{{.W}}" height="{{.H}}" viewBox="0 0 {{.W}} {{.H}}" role="img" aria-label="similarity per turn">
{{range .Grid}}<line x1="{{$.PadL}}" x2="{{$.W}}" y1="{{.Y}}" y2="{{.Y}}" stroke="#ddd"/><text x="4" y="{{.Y}}" font-size="10" dy="4">{{.Label}}</text>
{{end}}{{range .Lines}}<polyline fill="none" stroke="{{.Color}}" stroke-width="2" points="{{.Points}}"/>
{{$c := .Color}}{{range .Dots}}<circle cx="{{.X}}" cy="{{.Y}}" r="3" fill="{{$c}}"><title>{{.Title}}</title></circle>
{{end}}{{end}}<text x="{{.PadL}}" y="{{.H}}" font-size="10" dy="-6">turn →</text>
</svg>
<h2>Turns</h2>
<table><tr><th>turn</th><th>question</th><th>original</th><th>bot</th><th>reply</th><th>similarity</th><th>points</th></tr>
{{range $t := .R.Turns}}{{range $i, $r := $t.Replies}}<tr>{{if eq $i 0}}<td rowspan="{{len $t.Replies}}" class="num">{{$t.Turn}}</td><td rowspan="{{len $t.Replies}}">{{$t.Question}}</td><td rowspan="{{len $t.Replies}}">{{$t.Original}}</td>{{end}}
<td>{{$r.Candidate}}</td>{{if $r.Error}}<td class="err">{{$r.Error}}</td><td>-</td><td>-</td>{{else}}<td{{if and $r.Winner (gt (len $.R.Candidates) 1)}} class="win"{{end}}>{{$r.Text}}</td><td class="num">{{f3 $r.Similarity}}</td><td class="num">{{$r.Points}}</td>{{end}}</tr>
{{end}}{{end}}</table>
</body></html>
`))
