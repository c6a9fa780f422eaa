package replay

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Chart geometry of the HTML report, in SVG user units: the plot area sits
// inside margins that hold the legend (top), the tick labels and the axis
// titles, so that nothing is drawn outside the viewBox.
const (
	chartW, chartH = 900, 380
	marginL        = 64
	marginR        = 20
	marginT        = 44
	marginB        = 56
	plotW          = chartW - marginL - marginR
	plotH          = chartH - marginT - marginB
	// charW is a generous width of one character of the chart's 12px
	// font, to lay out the legend.
	charW = 7.5
)

var palette = []string{"#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2"}

// chart is the per-turn similarity chart, laid out for the template.
type chart struct {
	W, H                   int
	Left, Right, Top, Base float64
	TickEnd                float64 // where the x ticks' marks end
	YTicks, XTicks         []tick
	Zero                   *float64 // y of similarity 0, when inside the range
	Lines                  []chartLine
	Legend                 []legendItem
	FailLegend             *legendItem
	YTitleX, YTitleY       float64
	XTitleX, XTitleY       float64
}

// tick is an axis tick: its position and label.
type tick struct {
	Pos   float64
	Label string
}

// chartLine is one candidate's similarities: polyline segments between
// failed turns, a dot per scored turn, a cross per failed one.
type chartLine struct {
	Color    string
	Segments []string
	Dots     []chartDot
	Fails    []chartDot
}

// chartDot is a marked turn with its hover text.
type chartDot struct {
	X, Y  float64
	Title string
	Cross string // the path of a cross centred on X, Y
}

// legendItem is a swatch and a name.
type legendItem struct {
	X, Y    float64
	SwatchY float64
	Color   string
	Name    string
}

// newChart lays out the similarities of res: y from a nice range around
// the data (negatives included, nothing clamped), x one band per turn.
func newChart(res *Result) chart {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, t := range res.Turns {
		for _, r := range t.Replies {
			if r.Scored() {
				lo, hi = min(lo, r.Similarity), max(hi, r.Similarity)
			}
		}
	}
	if math.IsInf(lo, 1) { // nothing scored
		lo, hi = 0, 1
	}
	ticks, dlo, dhi, decimals := niceTicks(lo, hi)
	c := chart{
		W: chartW, H: chartH,
		Left: marginL, Right: chartW - marginR, Top: marginT, Base: marginT + plotH, TickEnd: marginT + plotH + 5,
		YTitleX: 16, YTitleY: marginT + plotH/2,
		XTitleX: marginL + plotW/2, XTitleY: chartH - 8,
	}
	y := func(s float64) float64 { return round1(marginT + (dhi-s)/(dhi-dlo)*plotH) }
	n := len(res.Turns)
	x := func(i int) float64 { return round1(marginL + (float64(i)+0.5)*plotW/float64(max(n, 1))) }
	for _, v := range ticks {
		c.YTicks = append(c.YTicks, tick{Pos: y(v), Label: strconv.FormatFloat(v, 'f', decimals, 64)})
	}
	if dlo < 0 && dhi > 0 {
		z := y(0)
		c.Zero = &z
	}
	every := max(1, int(math.Ceil(float64(n)/20)))
	for i := 0; i < n; i += every {
		c.XTicks = append(c.XTicks, tick{Pos: x(i), Label: strconv.Itoa(res.Turns[i].Turn)})
	}
	lx := float64(marginL)
	failed := false
	for ci, name := range res.Candidates {
		color := palette[ci%len(palette)]
		l := chartLine{Color: color}
		var seg []string
		flush := func() {
			if len(seg) > 1 {
				l.Segments = append(l.Segments, strings.Join(seg, " "))
			}
			seg = nil
		}
		for i, t := range res.Turns {
			r := t.Replies[ci]
			if !r.Scored() {
				flush()
				failed = true
				fx, fy := x(i), c.Base-8-float64(ci%3)*10
				l.Fails = append(l.Fails, chartDot{X: fx, Y: fy, Title: fmt.Sprintf("%s, turn %d: failed: %s", name, t.Turn, clip(r.Error, 120)),
					Cross: fmt.Sprintf("M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f", fx-4, fy-4, fx+4, fy+4, fx-4, fy+4, fx+4, fy-4)})
				continue
			}
			p := chartDot{X: x(i), Y: y(r.Similarity), Title: fmt.Sprintf("%s, turn %d: %.3f", name, t.Turn, r.Similarity)}
			seg = append(seg, fmt.Sprintf("%.1f,%.1f", p.X, p.Y))
			l.Dots = append(l.Dots, p)
		}
		flush()
		c.Lines = append(c.Lines, l)
		c.Legend = append(c.Legend, legendItem{X: lx, Y: 20, SwatchY: 14, Color: color, Name: name})
		lx += 22 + float64(len([]rune(name)))*charW + 18
	}
	if failed {
		c.FailLegend = &legendItem{X: lx, Y: 20, Name: "failed turn"}
	}
	return c
}

// round1 rounds v to one decimal, as the SVG prints it.
func round1(v float64) float64 { return math.Round(v*10) / 10 }

// niceTicks returns 4 to 10 round tick values covering [lo, hi], the range
// they span, and the decimals that print them.
func niceTicks(lo, hi float64) (ticks []float64, dlo, dhi float64, decimals int) {
	if hi-lo < 0.01 {
		lo, hi = lo-0.05, hi+0.05
	}
	raw := (hi - lo) / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw*(1-1e-9) {
			step = m * mag
			break
		}
	}
	decimals = max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	dlo = math.Floor(lo/step+1e-9) * step
	dhi = math.Ceil(hi/step-1e-9) * step
	for v := dlo; v <= dhi+step/2; v += step {
		ticks = append(ticks, math.Round(v/step)*step)
	}
	return ticks, dlo, dhi, decimals
}
