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

// tableWidth is the width the text table keeps to, in columns.
const tableWidth = 100

// Title names the evaluation by the person's username (or id) and the
// replayed file.
func (r *Result) Title() string {
	who := r.Person
	if r.Name != "" {
		who = "@" + r.Name
	}
	t := "duet eval: " + who
	if r.Transcript != "" {
		t += ", " + r.Transcript
	}
	return t
}

// About says how the replies were scored: turns, embeddings, scorer.
func (r *Result) About() string {
	s := fmt.Sprintf("%d turns; embeddings: %s; score: ", len(r.Turns), r.Embedder)
	if r.Compat == CompatEmeval {
		return s + `compat emeval (question + " " + reply against question + " " + answer; points 0..100 across the bots)`
	}
	return s + "reply against the person's answer"
}

// WriteTable writes res as text within 100 columns: the verdict first, the
// bots, one row per turn and bot, then each bot's mean, median and minimum.
func WriteTable(w io.Writer, res *Result) error {
	fmt.Fprintln(w, res.Title())
	fmt.Fprintln(w, wrap(res.About(), tableWidth))
	fmt.Fprintln(w)
	for _, v := range res.Verdict {
		fmt.Fprintln(w, wrap(v, tableWidth))
	}
	if len(res.Verdict) > 0 {
		fmt.Fprintln(w)
	}

	compat := res.Compat == CompatEmeval
	multi := len(res.Candidates) > 1
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "BOT\tWHAT IT IS")
	for i, name := range res.Candidates {
		what := res.source(i)
		if name == res.Baseline {
			what += " (the baseline)"
		}
		fmt.Fprintf(tw, "%s\t%s\n", clip(name, 12), clip(what, tableWidth-14))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)

	// Column widths that add up to 100 with the gaps.
	q, o, rw := 25, 25, 28
	head := "TURN\tQUESTION\tORIGINAL\tREPLY\tSIMILARITY"
	switch {
	case compat:
		q, o, rw = 16, 16, 20
		head = "TURN\tBOT\tQUESTION\tORIGINAL\tREPLY\tSIMILARITY\tPOINTS\tRANK"
	case multi:
		q, o, rw = 22, 22, 24
		head = "TURN\tBOT\tQUESTION\tORIGINAL\tREPLY\tSIMILARITY"
	}
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, head)
	for _, t := range res.Turns {
		for i, r := range t.Replies {
			turn, question, original := fmt.Sprint(t.Turn), clip(t.Question, q), clip(t.Original, o)
			if i > 0 {
				turn, question, original = "", "", ""
			}
			reply, sim := clip(r.Text, rw), fmt.Sprintf("%.3f", r.Similarity)
			if !r.Scored() {
				reply, sim = clip("FAILED: "+r.Error, rw), "failed"
			}
			cells := []string{turn}
			if multi || compat {
				cells = append(cells, clip(r.Candidate, 8))
			}
			cells = append(cells, question, original, reply, sim)
			if compat {
				points, mark := "-", ""
				if r.Scored() {
					points = fmt.Sprint(r.Points)
				}
				switch {
				case r.Winner:
					mark = "winner"
				case r.Loser:
					mark = "loser"
				}
				cells = append(cells, points, mark)
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)

	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head = "BOT\tSCORED\tFAILED\tMEAN\tMEDIAN\tMIN"
	if res.Baseline != "" && multi {
		head += "\tVS " + strings.ToUpper(clip(res.Baseline, 12))
	}
	if compat {
		head += "\tMEAN POINTS\tWINS"
	}
	fmt.Fprintln(tw, head)
	for _, s := range res.Summaries {
		cells := []string{clip(s.Candidate, 12), fmt.Sprint(s.Scored), fmt.Sprint(s.Failed)}
		if s.Scored == 0 {
			cells = append(cells, "failed", "-", "-")
		} else {
			cells = append(cells, fmt.Sprintf("%.3f", s.Mean), fmt.Sprintf("%.3f", s.Median), fmt.Sprintf("%.3f", s.Min))
		}
		if res.Baseline != "" && multi {
			cells = append(cells, vsBaseline(res, s))
		}
		if compat {
			cells = append(cells, fmt.Sprintf("%.1f", s.Points), fmt.Sprint(s.Wins))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// source says what candidate i is: its source, else its name.
func (r *Result) source(i int) string {
	if i < len(r.Sources) && r.Sources[i] != "" {
		return r.Sources[i]
	}
	return r.Candidates[i]
}

// vsBaseline is a summary's difference from the baseline's mean, as the
// tables print it.
func vsBaseline(res *Result, s Summary) string {
	switch {
	case s.Candidate == res.Baseline:
		return "baseline"
	case s.VsBaseline == nil:
		return "-"
	}
	return fmt.Sprintf("%+.3f", s.VsBaseline.Delta)
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

// wrap breaks s into lines of at most n runes, between words.
func wrap(s string, n int) string {
	var b strings.Builder
	line := 0
	for _, word := range strings.Fields(s) {
		l := utf8.RuneCountInString(word)
		switch {
		case line == 0:
		case line+1+l > n:
			b.WriteString("\n  ")
			line = 2
		default:
			b.WriteByte(' ')
			line++
		}
		b.WriteString(word)
		line += l
	}
	return b.String()
}

// WriteHTML writes a self-contained HTML report: the verdict, the bots'
// summary, a per-turn similarity chart (inline SVG) and every turn's
// replies. No external assets.
func WriteHTML(w io.Writer, res *Result) error {
	type row struct {
		Summary
		Color, Source, Vs string
	}
	var rows []row
	for i, s := range res.Summaries {
		rows = append(rows, row{Summary: s, Color: palette[i%len(palette)], Source: res.source(i), Vs: vsBaseline(res, s)})
	}
	return reportTmpl.Execute(w, map[string]any{
		"R": res, "Rows": rows, "Chart": newChart(res),
		"Compat": res.Compat == CompatEmeval, "Versus": res.Baseline != "" && len(res.Candidates) > 1,
	})
}

var reportTmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"f3":    func(v float64) string { return fmt.Sprintf("%.3f", v) },
	"f1":    func(v float64) string { return fmt.Sprintf("%.1f", v) },
	"color": func(i int) string { return palette[i%len(palette)] },
	"worse": func(v string) bool {
		return strings.Contains(v, " is worse than ") || strings.Contains(v, " failed every turn")
	},
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{.R.Title}}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#111;max-width:980px}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ddd;padding:4px 8px;vertical-align:top;text-align:left}
th{background:#f5f5f5}.err{color:#b91c1c}.num{text-align:right;font-variant-numeric:tabular-nums}
.win{font-weight:bold}svg{background:#fff;border:1px solid #eee;max-width:100%;height:auto}
.verdict{font-size:1.25em;margin:.3em 0;padding:.4em .6em;border-left:4px solid #16a34a;background:#f0fdf4}
.verdict.bad{border-color:#dc2626;background:#fef2f2}.about{color:#555}td:first-child{white-space:nowrap}
</style></head><body>
<h1>{{.R.Title}}</h1>
{{range .R.Verdict}}<p class="verdict{{if worse .}} bad{{end}}">{{.}}</p>
{{end}}<p class="about">{{.R.About}}</p>
<table><tr><th>bot</th><th>what it is</th><th>scored</th><th>failed</th><th>mean</th><th>median</th><th>min</th>{{if .Versus}}<th>vs {{.R.Baseline}}</th>{{end}}{{if .Compat}}<th>mean points</th><th>wins</th>{{end}}</tr>
{{range .Rows}}<tr><td><span style="color:{{.Color}}">&#9632;</span> {{.Candidate}}</td><td>{{.Source}}</td><td class="num">{{.Scored}}</td><td class="num">{{.Failed}}</td>{{if .Scored}}<td class="num">{{f3 .Mean}}</td><td class="num">{{f3 .Median}}</td><td class="num">{{f3 .Min}}</td>{{else}}<td class="err">failed</td><td>-</td><td>-</td>{{end}}{{if $.Versus}}<td class="num">{{.Vs}}</td>{{end}}{{if $.Compat}}<td class="num">{{f1 .Points}}</td><td class="num">{{.Wins}}</td>{{end}}</tr>
{{end}}</table>
<h2>Similarity per turn</h2>
{{with .Chart}}<svg xmlns="http://www.w3.org/2000/svg" width="{{.W}}" height="{{.H}}" viewBox="0 0 {{.W}} {{.H}}" font-family="system-ui,sans-serif" font-size="12" role="img" aria-label="similarity of each bot's reply per turn">
<g class="grid">{{range .YTicks}}<line x1="{{$.Chart.Left}}" x2="{{$.Chart.Right}}" y1="{{.Pos}}" y2="{{.Pos}}" stroke="#e5e7eb"/><text class="ytick" x="{{$.Chart.Left}}" y="{{.Pos}}" dx="-6" dy="4" text-anchor="end">{{.Label}}</text>
{{end}}{{with .Zero}}<line x1="{{$.Chart.Left}}" x2="{{$.Chart.Right}}" y1="{{.}}" y2="{{.}}" stroke="#6b7280"/>{{end}}</g>
<g class="axes" stroke="#374151"><line x1="{{.Left}}" x2="{{.Left}}" y1="{{.Top}}" y2="{{.Base}}"/><line x1="{{.Left}}" x2="{{.Right}}" y1="{{.Base}}" y2="{{.Base}}"/></g>
<g class="xticks">{{range .XTicks}}<line x1="{{.Pos}}" x2="{{.Pos}}" y1="{{$.Chart.Base}}" y2="{{$.Chart.TickEnd}}" stroke="#374151"/><text class="xtick" x="{{.Pos}}" y="{{$.Chart.Base}}" dy="20" text-anchor="middle">{{.Label}}</text>
{{end}}</g>
<text class="title" x="{{.XTitleX}}" y="{{.XTitleY}}" text-anchor="middle">turn</text>
<text class="title" x="{{.YTitleX}}" y="{{.YTitleY}}" text-anchor="middle" transform="rotate(-90 {{.YTitleX}} {{.YTitleY}})">similarity</text>
{{range .Lines}}<g class="series">{{$c := .Color}}{{range .Segments}}<polyline fill="none" stroke="{{$c}}" stroke-width="2" points="{{.}}"/>{{end}}
{{range .Dots}}<circle cx="{{.X}}" cy="{{.Y}}" r="3.5" fill="{{$c}}"><title>{{.Title}}</title></circle>{{end}}
{{range .Fails}}<path class="fail" d="{{.Cross}}" stroke="{{$c}}" stroke-width="2.5"><title>{{.Title}}</title></path>{{end}}</g>
{{end}}<g class="legend">{{range .Legend}}<rect x="{{.X}}" y="{{.SwatchY}}" width="14" height="4" fill="{{.Color}}"/><text x="{{.X}}" y="{{.Y}}" dx="20">{{.Name}}</text>
{{end}}{{with .FailLegend}}<text x="{{.X}}" y="{{.Y}}" fill="#374151">× {{.Name}}</text>{{end}}</g>
</svg>{{end}}
<h2>Turns</h2>
<table><tr><th>turn</th><th>question</th><th>original</th><th>bot</th><th>reply</th><th>similarity</th>{{if .Compat}}<th>points</th>{{end}}</tr>
{{range $t := .R.Turns}}{{range $i, $r := $t.Replies}}<tr>{{if eq $i 0}}<td rowspan="{{len $t.Replies}}" class="num">{{$t.Turn}}</td><td rowspan="{{len $t.Replies}}">{{$t.Question}}</td><td rowspan="{{len $t.Replies}}">{{$t.Original}}</td>{{end}}
<td>{{$r.Candidate}}</td>{{if $r.Error}}<td class="err">failed: {{$r.Error}}</td><td class="err">failed</td>{{if $.Compat}}<td>-</td>{{end}}{{else}}<td{{if $r.Winner}} class="win"{{end}}>{{$r.Text}}</td><td class="num">{{f3 $r.Similarity}}</td>{{if $.Compat}}<td class="num">{{$r.Points}}</td>{{end}}{{end}}</tr>
{{end}}{{end}}</table>
</body></html>
`))
