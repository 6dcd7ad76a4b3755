package main

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/examples/payment-core/internal/service"
)

// noisyFigures is what one run measured.
type noisyFigures struct {
	calmP99, floodP99 time.Duration // the calm merchants' p99, in the calm phase and during the flood
	byMerchant        map[string][2]time.Duration
	rose              int // calm merchants whose p99 rose during the flood
	calmRefused       int // calm merchants' answers other than 200 during the flood
	calmN             int // calm merchants' requests during the flood
	flood             floodCounts
}

type floodCounts struct {
	served, quota429, guard429, other429, shed503, other int
}

// warmUp is left out of the calm baseline: the service's first seconds
// (connections opened, the load generator's workers started) are not calm.
const warmUp = 5 * time.Second

// servedIn is how long a calm merchant waited for its report: a request
// not served (a 503, a 429, an error) counts at the report's deadline, as a
// report that did not come is no faster for being refused quickly.
func servedIn(rec noisyRec) time.Duration {
	if rec.code != http.StatusOK {
		return max(rec.lat, service.ReportsDeadline)
	}
	return rec.lat
}

func noisyMeasure(r *noisyRun) noisyFigures {
	f := noisyFigures{byMerchant: map[string][2]time.Duration{}}
	var calm, flood []time.Duration
	calmBy, floodBy := map[string][]time.Duration{}, map[string][]time.Duration{}
	for _, rec := range r.recs {
		if rec.merchant == floodMerchant {
			f.flood.add(rec)
			continue
		}
		lat := servedIn(rec)
		inFlood := rec.at >= r.floodFrom && rec.at < r.floodTill
		switch {
		case rec.at >= warmUp && rec.at < r.floodFrom:
			calm = append(calm, lat)
			calmBy[rec.merchant] = append(calmBy[rec.merchant], lat)
		case inFlood:
			flood = append(flood, lat)
			floodBy[rec.merchant] = append(floodBy[rec.merchant], lat)
			f.calmN++
			if rec.code != http.StatusOK {
				f.calmRefused++
			}
		}
	}
	f.calmP99, f.floodP99 = quantile(calm, 0.99), quantile(flood, 0.99)
	for m, lats := range calmBy {
		p := [2]time.Duration{quantile(lats, 0.99), quantile(floodBy[m], 0.99)}
		f.byMerchant[m] = p
		if p[1] > p[0] {
			f.rose++
		}
	}
	return f
}

func (c *floodCounts) add(rec noisyRec) {
	switch {
	case rec.code == http.StatusOK:
		c.served++
	case rec.code == http.StatusTooManyRequests && rec.retryAfter && rec.quota != "":
		c.quota429++
	case rec.code == http.StatusTooManyRequests && rec.retryAfter && rec.code429 == bulkhead.CodeRetryStorm:
		c.guard429++
	case rec.code == http.StatusTooManyRequests:
		c.other429++
	case rec.code == http.StatusServiceUnavailable:
		c.shed503++
	default:
		c.other++
	}
}

func cmpOr(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return math.Inf(1)
	}
	return float64(a) / float64(b)
}

// noisyReport writes the report, its last line and whether the targets were met.
func noisyReport(plan noisyPlan, runs []*noisyRun) (string, string, bool) {
	noQ, q := noisyMeasure(runs[0]), noisyMeasure(runs[1])
	var b strings.Builder
	fmt.Fprintf(&b, "\nnoisy-neighbour drill, %s: payment-core's reports lane (%d workers, queue %d), shared by every merchant\n",
		time.Now().UTC().Format("2006-01-02"), service.ReportsWorkers, service.ReportsQueue)
	fmt.Fprintf(&b, "  %d calm merchants, %.0f reports/s each, %d-day reports (%s each); from %s for %s, %s floods with %d-day reports (%s each): %s\n",
		plan.merchants, plan.rate, calmDays, ms(calmDays*service.ReportCostPerDay), plan.calm, plan.flood, floodMerchant,
		floodDays, ms(floodDays*service.ReportCostPerDay), floodString(plan, runs[0]))
	fmt.Fprintf(&b, "  quotas run: per merchant %d reports at once, %d report-days a second (burst %d), fair share past 3/4 of the lane\n\n",
		service.ReportsPerMerchant, service.ReportDaysPerSecond, service.ReportDaysBurst)
	row := func(label, a, c string) { fmt.Fprintf(&b, "  %-52s %-22s %s\n", label, a, c) }
	row("", runs[0].name, runs[1].name)
	fmt.Fprintf(&b, "  p99s are of the calm merchants' reports, a report not served counted at its deadline (%s); the baseline is the calm phase after its first %s\n\n",
		ms(service.ReportsDeadline), warmUp)
	row("calm merchants' p99, calm phase (baseline)", ms(noQ.calmP99), ms(q.calmP99))
	row("calm merchants' p99, during the flood", ms(noQ.floodP99), ms(q.floodP99))
	row("  to the baseline (target with quotas <= 1.10)", fmt.Sprintf("%.2fx", ratio(noQ.floodP99, noQ.calmP99)), fmt.Sprintf("%.2fx", ratio(q.floodP99, q.calmP99)))
	row("calm merchants whose own p99 rose", fmt.Sprintf("%d of %d", noQ.rose, len(noQ.byMerchant)), fmt.Sprintf("%d of %d", q.rose, len(q.byMerchant)))
	row("calm merchants' requests not served during the flood", fmt.Sprintf("%d of %d", noQ.calmRefused, noQ.calmN), fmt.Sprintf("%d of %d", q.calmRefused, q.calmN))
	fc := func(c floodCounts) string {
		return fmt.Sprintf("%d/%d/%d/%d/%d/%d", c.served, c.quota429, c.guard429, c.other429, c.shed503, c.other)
	}
	row("flooder's answers: 200/429 quota/429 retry guard/", "", "")
	row("  other 429/503/other", fc(noQ.flood), fc(q.flood))
	if runs[0].flood != "rate" {
		row("flooder's backlog served in the window", fmt.Sprintf("%d of %d", runs[0].worked, runs[0].backlog), fmt.Sprintf("%d of %d", runs[1].worked, runs[1].backlog))
	}
	fmt.Fprintf(&b, "\n  each calm merchant's p99, calm phase -> flood:\n")
	merchants := make([]string, 0, len(q.byMerchant))
	for m := range q.byMerchant {
		merchants = append(merchants, m)
	}
	slices.Sort(merchants)
	for _, m := range merchants {
		a, c := noQ.byMerchant[m], q.byMerchant[m]
		row("    "+m, ms(a[0])+" -> "+ms(a[1]), ms(c[0])+" -> "+ms(c[1]))
	}
	pass, fails := true, []string{}
	check := func(ok bool, format string, args ...any) {
		if !ok {
			pass = false
			fails = append(fails, fmt.Sprintf(format, args...))
		}
	}
	check(ratio(noQ.floodP99, noQ.calmP99) > p99Slack, "without quotas the flood did not raise the calm merchants' p99 above 1.10x (%s -> %s): the drill shows nothing", ms(noQ.calmP99), ms(noQ.floodP99))
	check(noQ.rose == len(noQ.byMerchant), "without quotas only %d of %d calm merchants' p99 rose", noQ.rose, len(noQ.byMerchant))
	check(ratio(q.floodP99, q.calmP99) <= p99Slack, "with quotas the calm merchants' p99 during the flood is %s, %.2fx the baseline %s (target <= 1.10x)", ms(q.floodP99), ratio(q.floodP99, q.calmP99), ms(q.calmP99))
	check(q.calmRefused == 0, "with quotas %d calm merchants' requests were not served during the flood", q.calmRefused)
	check(q.flood.quota429 > 0, "with quotas the flooder got no 429 with Retry-After naming the quota")
	check(q.flood.other429+q.flood.shed503+q.flood.other == 0, "with quotas the flooder got %d answers other than 200 or 429 with Retry-After (the quota's, or the edge's retry guard's)", q.flood.other429+q.flood.shed503+q.flood.other)
	for _, r := range runs {
		check(r.cleanExit, "%s run: payment-core did not exit cleanly on SIGTERM", r.name)
	}
	status := "PASS"
	if !pass {
		status = "FAIL"
		fmt.Fprintf(&b, "\n  targets not met:\n    %s\n", strings.Join(fails, "\n    "))
	}
	last := fmt.Sprintf("drill: %s noisy neighbour (%s flood) | no quotas: calm p99 %s -> %s (%.2fx), %d/%d merchants rose | quotas: calm p99 %s -> %s (%.2fx, target <= 1.10), %d calm refused, flooder %d x 429 with Retry-After, %d served",
		status, cmpOr(runs[0].flood, "backlog"), ms(noQ.calmP99), ms(noQ.floodP99), ratio(noQ.floodP99, noQ.calmP99), noQ.rose, len(noQ.byMerchant),
		ms(q.calmP99), ms(q.floodP99), ratio(q.floodP99, q.calmP99), q.calmRefused, q.flood.quota429, q.flood.served)
	return b.String(), last, pass
}

// noisyChart draws, for each run, the calm merchants' p99 by second (line,
// log scale) and the flooder's answers by second (bars), the flood shaded.
func noisyChart(path string, plan noisyPlan, runs []*noisyRun) error {
	const W, H, left, top, panelH, gap = 1500, 720, 70, 70, 260, 60
	img := image.NewRGBA(image.Rect(0, 0, W, H))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	c := &canvas{img: img}
	c.text(left, 22, fmt.Sprintf("payment-core noisy-neighbour drill, %s: %s floods the reports lane with %s",
		time.Now().UTC().Format("2006-01-02"), floodMerchant, floodString(plan, runs[0])), color.Black)
	c.text(left, 44, "line: calm merchants' p99 by second, a report not served counted at its deadline (right axis, log); bars: the flooder's answers by second (left axis); shaded: the flood", color.Black)
	lx := left
	for i, name := range floodNames {
		c.fill(lx, 52, 12, 12, floodColors[i])
		c.text(lx+16, 63, name, color.Black)
		lx += 140
	}
	secs := int(math.Ceil((plan.calm + plan.flood + plan.after).Seconds()))
	for i, r := range runs {
		noisyPanel(c, left, top+20+i*(panelH+gap), W-left-90, panelH, secs, r)
	}
	return writePNG(path, img)
}

var (
	floodNames  = [6]string{"flooder served", "429 quota", "429 retry guard", "other 429", "503 (lane full)", "other"}
	floodColors = [6]color.RGBA{{46, 160, 67, 255}, {245, 160, 40, 255}, {250, 210, 90, 255}, {200, 120, 20, 255}, {215, 40, 40, 255}, {110, 30, 140, 255}}
)

func noisyPanel(c *canvas, x0, y0, w, h, secs int, r *noisyRun) {
	fx0 := x0 + int(r.floodFrom.Seconds()*float64(w)/float64(secs))
	fx1 := x0 + int(r.floodTill.Seconds()*float64(w)/float64(secs))
	c.fill(fx0, y0, fx1-fx0, h, color.RGBA{255, 228, 228, 255})
	c.text(x0, y0-6, r.name+" run", color.Black)
	counts := make([][6]int, secs+1)
	lats := make([][]time.Duration, secs+1)
	for _, rec := range r.recs {
		s := min(max(int(rec.at.Seconds()), 0), secs)
		if rec.merchant != floodMerchant {
			lats[s] = append(lats[s], servedIn(rec))
			continue
		}
		var fcs floodCounts
		fcs.add(rec)
		for i, n := range [6]int{fcs.served, fcs.quota429, fcs.guard429, fcs.other429, fcs.shed503, fcs.other} {
			counts[s][i] += n
		}
	}
	peak := 1
	for _, cs := range counts {
		peak = max(peak, cs[0]+cs[1]+cs[2]+cs[3]+cs[4]+cs[5])
	}
	peak = int(float64(peak)*1.1) + 1
	barW := int(math.Ceil(max(float64(w)/float64(secs), 1)))
	for s, cs := range counts[:secs] {
		bx, by := x0+s*w/secs, y0+h
		for i, n := range cs {
			if bh := n * h / peak; bh > 0 {
				c.fill(bx, by-bh, barW, bh, floodColors[i])
				by -= bh
			}
		}
	}
	const lo, hi = 1.0, 5000.0 // ms
	ly := func(d time.Duration) int {
		v := math.Min(math.Max(float64(d)/float64(time.Millisecond), lo), hi)
		return y0 + h - int(math.Log(v/lo)/math.Log(hi/lo)*float64(h))
	}
	px, py := -1, -1
	for s := range secs {
		if len(lats[s]) == 0 {
			continue
		}
		x, y := x0+int((float64(s)+0.5)*float64(w)/float64(secs)), ly(quantile(lats[s], 0.99))
		if px >= 0 {
			c.line(px, py, x, y, color.Black)
		}
		px, py = x, y
	}
	c.axes(x0, y0, w, h, secs, peak, ly, []time.Duration{time.Millisecond, 10 * time.Millisecond, 100 * time.Millisecond, time.Second})
}
