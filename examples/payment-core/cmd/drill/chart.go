package main

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"
	"time"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// writeChart draws, for each mode (column) and lane (row), the outcomes of
// the requests sent in each second as stacked bars, and their p99 latency
// as a line on a log scale; the fault window is shaded.
func writeChart(path string, cfg config, runs []*run) error {
	const (
		W, H       = 1560, 1000
		top        = 70
		left, gap  = 70, 90
		rowH, rowG = 270, 40
	)
	panelW := (W - left - gap - 60) / 2
	img := image.NewRGBA(image.Rect(0, 0, W, H))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	c := &canvas{img: img}
	c.text(left, 22, fmt.Sprintf("payment-core drill %s: %s for %s; load %.0f%% of the spec's rates; %s",
		cfg.scenario.name, cfg.scenario.describe(cfg), cfg.fault, cfg.scale*100, time.Now().UTC().Format("2006-01-02")), color.Black)
	lx := left
	for o := range numOutcomes {
		c.fill(lx, 36, 12, 12, outcomeColors[o])
		c.text(lx+16, 47, outcomeNames[o], color.Black)
		lx += 100
	}
	c.fill(lx, 41, 20, 3, color.Black)
	c.text(lx+26, 47, "p99 latency", color.Black)
	c.text(lx+150, 47, "bars: requests by second sent and outcome (left axis); line: their p99 (right axis, log); shaded: the fault", color.Black)

	var horizon time.Duration
	for _, r := range runs {
		horizon = max(horizon, r.end)
	}
	secs := int(math.Ceil(horizon.Seconds()))
	for col, r := range runs {
		for row, lane := range lanes {
			x0 := left + col*(panelW+gap)
			y0 := top + row*(rowH+rowG)
			c.panel(x0, y0, panelW, rowH, secs, r, lane)
		}
	}
	return writePNG(path, img)
}

func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

var outcomeColors = [numOutcomes]color.RGBA{
	{46, 160, 67, 255},  // ok
	{56, 120, 210, 255}, // fallback
	{245, 160, 40, 255}, // shed
	{215, 40, 40, 255},  // error
	{110, 30, 140, 255}, // hung
}

type canvas struct{ img *image.RGBA }

func (c *canvas) fill(x, y, w, h int, col color.Color) {
	draw.Draw(c.img, image.Rect(x, y, x+w, y+h), image.NewUniform(col), image.Point{}, draw.Src)
}

func (c *canvas) text(x, y int, s string, col color.Color) {
	d := &font.Drawer{Dst: c.img, Src: image.NewUniform(col), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

// line draws a 2-pixel line from (x0,y0) to (x1,y1).
func (c *canvas) line(x0, y0, x1, y1 int, col color.Color) {
	steps := max(abs(x1-x0), abs(y1-y0), 1)
	for i := 0; i <= steps; i++ {
		x := x0 + (x1-x0)*i/steps
		y := y0 + (y1-y0)*i/steps
		c.fill(x, y, 2, 2, col)
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func (c *canvas) panel(x0, y0, w, h, secs int, r *run, lane string) {
	// the fault window
	fx0 := x0 + int(r.faultStart.Seconds()*float64(w)/float64(secs))
	fx1 := x0 + int(r.faultEnd.Seconds()*float64(w)/float64(secs))
	c.fill(fx0, y0, fx1-fx0, h, color.RGBA{255, 228, 228, 255})
	c.text(x0, y0-6, fmt.Sprintf("%s mode: %s", r.mode, lane), color.Black)

	counts := make([][numOutcomes]int, secs+1)
	lats := make([][]time.Duration, secs+1)
	for _, rc := range r.recs[lane] {
		s := min(max(int(rc.at.Seconds()), 0), secs)
		counts[s][rc.out]++
		lats[s] = append(lats[s], rc.lat)
	}
	peak := 1
	for _, cs := range counts {
		t := 0
		for _, n := range cs {
			t += n
		}
		peak = max(peak, t)
	}
	peak = int(float64(peak)*1.1) + 1
	barW := max(float64(w)/float64(secs), 1)
	for s, cs := range counts[:secs] {
		bx := x0 + int(float64(s)*float64(w)/float64(secs))
		by := y0 + h
		for o := range numOutcomes {
			bh := cs[o] * h / peak
			if bh > 0 {
				c.fill(bx, by-bh, int(math.Ceil(barW)), bh, outcomeColors[o])
				by -= bh
			}
		}
	}
	// latency on a log scale: 1 ms at the bottom, 20 s at the top
	const lo, hi = 1.0, 20000.0
	ly := func(d time.Duration) int {
		v := math.Max(float64(d)/float64(time.Millisecond), lo)
		v = math.Min(v, hi)
		return y0 + h - int(math.Log(v/lo)/math.Log(hi/lo)*float64(h))
	}
	px, py := -1, -1
	for s := range secs {
		if len(lats[s]) == 0 {
			continue
		}
		x := x0 + int((float64(s)+0.5)*float64(w)/float64(secs))
		y := ly(quantile(lats[s], 0.99))
		if px >= 0 {
			c.line(px, py, x, y, color.Black)
		}
		px, py = x, y
	}
	c.axes(x0, y0, w, h, secs, peak, ly, []time.Duration{time.Millisecond, 10 * time.Millisecond, 100 * time.Millisecond, time.Second, 10 * time.Second})
}

// axes draws a panel's frame: requests a second on the left (0 to peak),
// latency marks on the right at ly's heights, seconds along the bottom.
func (c *canvas) axes(x0, y0, w, h, secs, peak int, ly func(time.Duration) int, marks []time.Duration) {
	grey := color.RGBA{120, 120, 120, 255}
	c.fill(x0, y0+h, w, 1, grey)
	c.fill(x0, y0, 1, h, grey)
	c.fill(x0+w, y0, 1, h, grey)
	c.text(x0+4, y0+12, fmt.Sprintf("%d/s", peak), grey)
	c.text(x0-20, y0+h+4, "0", grey)
	for _, d := range marks {
		y := ly(d)
		c.fill(x0+w-4, y, 8, 1, grey)
		c.text(x0+w+6, y+4, ms(d), grey)
	}
	for t := 0; t <= secs; t += tickEvery(secs) {
		x := x0 + t*w/secs
		c.fill(x, y0+h, 1, 5, grey)
		c.text(x-8, y0+h+17, fmt.Sprintf("%ds", t), grey)
	}
}

func tickEvery(secs int) int {
	switch {
	case secs > 120:
		return 20
	case secs > 40:
		return 10
	}
	return 5
}
