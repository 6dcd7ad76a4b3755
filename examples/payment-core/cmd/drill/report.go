package main

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/bhlint/bhlint/examples/payment-core/internal/service"
)

// The spec's targets for the drill.
const (
	targetShed     = 5 * time.Millisecond
	targetCardP99  = 120 * time.Millisecond
	targetRecovery = 5 * time.Second
	// minDelivered is the share of the scheduled requests the generator
	// must have sent for the run to count: below it the machine, not the
	// service, was measured.
	minDelivered = 0.98
)

var laneBudget = map[string]int{
	"card_auth": service.CardAuthConns, "fraud": service.FraudConns, "tax": service.TaxConns, "shared": service.SharedConns,
}

// stats summarises some requests.
type stats struct {
	n        int
	counts   [numOutcomes]int
	p50, p99 time.Duration
	shedP50  time.Duration
	shedP99  time.Duration
}

func summarise(recs []rec, from, to time.Duration) stats {
	var s stats
	var lats, sheds []time.Duration
	for _, r := range recs {
		if r.at < from || r.at >= to {
			continue
		}
		s.n++
		s.counts[r.out]++
		lats = append(lats, r.lat)
		if r.out == outShed {
			sheds = append(sheds, r.lat)
		}
	}
	s.p50, s.p99 = quantile(lats, 0.50), quantile(lats, 0.99)
	s.shedP50, s.shedP99 = quantile(sheds, 0.50), quantile(sheds, 0.99)
	return s
}

func quantile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	i := int(float64(len(d))*q+0.5) - 1
	return d[min(max(i, 0), len(d)-1)]
}

type phase struct {
	name     string
	from, to time.Duration
}

func phases(r *run) []phase {
	return []phase{
		{"baseline", 0, r.faultStart},
		{"fault", r.faultStart, r.faultEnd},
		{"after", r.faultEnd, r.end + time.Hour},
	}
}

func ms(d time.Duration) string {
	switch {
	case d <= 0:
		return "0"
	case d < time.Millisecond:
		return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond))
	case d < 10*time.Second:
		return fmt.Sprintf("%.0fms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}

type reportOut struct {
	text string
	last string
	pass bool
	// latencyOnly: every target missed was a latency one, which a stall
	// of a shared machine can miss for nothing the service did.
	latencyOnly bool
}

// judgement is verdict's result.
type judgement struct {
	pass        bool
	latencyOnly bool // failed, and only on latency targets
	checks      []string
	last        string
}

func findRun(runs []*run, mode string) *run {
	for _, r := range runs {
		if r.mode == mode {
			return r
		}
	}
	return nil
}

// maxConns is the most connections a lane had in pg_stat_activity, and
// the most of them running a statement or idle in a transaction, over
// samples in [from, to).
func maxConns(r *run, lane string, from, to time.Duration) (total, busy int) {
	for _, s := range r.pgSamples {
		if s.at < from || s.at >= to {
			continue
		}
		c := s.byApp[lane]
		total = max(total, c.Total)
		busy = max(busy, c.Active+c.IdleInTx)
	}
	return total, busy
}

func poolLanes(r *run) []string {
	if r.mode == service.ModeBefore {
		return []string{"shared"}
	}
	return lanes[:]
}

func report(cfg config, runs []*run) reportOut {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("\n== payment-core recovery drill (%s), %s\n", cfg.scenario.name, time.Now().UTC().Format("2006-01-02 15:04 MST"))
	w("load: %.0f%% of the spec's rates (%.0f card_auth/s, %.1f tax/s, %.1f fraud/s), open model (vegeta); budgets at the spec's sizes\n",
		cfg.scale*100, specCardRate*cfg.scale, specTaxRate*cfg.scale, specFraudRate*cfg.scale)
	w("phases: baseline %s, fault (%s) for %s, after %s\n", cfg.baseline, cfg.scenario.describe(cfg), cfg.fault, cfg.after)

	for _, r := range runs {
		w("\n-- %s mode (machine load, 1-min average, during the run: %s)\n", r.mode, loadRange(r))
		w("%-9s %-8s %7s %7s %8s %7s %6s %5s %8s %8s %9s %9s\n", "lane", "phase", "sent", "ok", "fallback", "shed", "errors", "hung", "p50", "p99", "shed p50", "shed p99")
		for _, lane := range lanes {
			for _, ph := range phases(r) {
				s := summarise(r.recs[lane], ph.from, ph.to)
				w("%-9s %-8s %7d %7d %8d %7d %6d %5d %8s %8s %9s %9s\n", lane, ph.name, s.n, s.counts[outOK], s.counts[outFallback],
					s.counts[outShed], s.counts[outError], s.counts[outHung], ms(s.p50), ms(s.p99), ms(s.shedP50), ms(s.shedP99))
			}
		}
		w("shed time in the service (arrival to 429/503 written):")
		for _, lane := range lanes {
			rt := r.final.Routes[lane]
			if rt.Shed == 0 {
				w("  %s none;", lane)
				continue
			}
			w("  %s %d shed, p50 %s p99 %s max %s;", lane, rt.Shed, us(rt.ShedP50us), us(rt.ShedP99us), us(rt.ShedMaxus))
		}
		w("\n")
		if r.final.FraudQueue != nil {
			q := r.final.FraudQueue
			w("async fraud queue: %d accepted, %d scored later, %d failed attempts (retried), %d left, %d dropped\n", q.Queued, q.Scored, q.Failed, q.Len, q.Dropped)
		}
		b.WriteString(scenarioSection(cfg, r))
		w("tax lane below 5 active after the fault: %s\n", recoveryString(r.recovery))
		w("DB connections (pg_stat_activity; max total / max busy):")
		for _, lane := range poolLanes(r) {
			dt, db := maxConns(r, lane, r.faultStart, r.faultEnd)
			at, ab := maxConns(r, lane, r.faultEnd+2*time.Second, r.end+time.Hour)
			left := r.afterLoad[lane]
			w("  %s (budget %d): fault %d/%d, after %d/%d, when idle %d (%d busy);", lane, laneBudget[lane], dt, db, at, ab, left.Total, left.Active+left.IdleInTx)
		}
		w("\n  after the service exited: %d connections left; clean exit: %v\n", r.leftAfterExit, r.cleanExit)
		for _, lane := range lanes {
			s := summarise(r.recs[lane], 0, r.end+time.Hour)
			w("accounting %s: scheduled %d, sent %d = %d ok + %d fallback + %d shed + %d errors + %d hung\n", lane, r.expected[lane], s.n,
				s.counts[outOK], s.counts[outFallback], s.counts[outShed], s.counts[outError], s.counts[outHung])
		}
	}

	contrast := cfg.scenario.contrast
	if contrast == "" {
		contrast = service.ModeBefore
	}
	before, bulk := findRun(runs, contrast), findRun(runs, service.ModeBulkhead)
	if before != nil && bulk != nil && faultedTax(cfg) {
		w("\n== before / after (as in the shared-pool demo)\n")
		chapterTable(&b, before, bulk)
	}

	j := verdict(cfg, before, bulk)
	w("\n== targets (bulkhead mode)\n")
	for _, c := range j.checks {
		w("%s\n", c)
	}
	return reportOut{text: b.String(), last: j.last, pass: j.pass, latencyOnly: j.latencyOnly}
}

func us(v int64) string { return ms(time.Duration(v) * time.Microsecond) }

func recoveryString(d time.Duration) string {
	if d < 0 {
		return "not within the run"
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}

// chapterTable prints windows of the run against card_auth in both modes
// and the tax lane with bulkheads, like the table of the shared-pool demo
// in docs/ARCHITECTURE.md.
func chapterTable(b *strings.Builder, before, bulk *run) {
	type window struct {
		name     string
		from, to time.Duration
	}
	var ws []window
	ws = append(ws, window{fmt.Sprintf("0–%.0f s (healthy)", bulk.faultStart.Seconds()), 0, bulk.faultStart})
	n := 4
	step := (bulk.faultEnd - bulk.faultStart) / time.Duration(n)
	for i := range n {
		from := bulk.faultStart + time.Duration(i)*step
		ws = append(ws, window{fmt.Sprintf("%.0f–%.0f s (fault)", from.Seconds(), (from + step).Seconds()), from, from + step})
	}
	ws = append(ws, window{fmt.Sprintf("%.0f–%.0f s (restored)", bulk.faultEnd.Seconds(), bulk.end.Seconds()), bulk.faultEnd, bulk.end + time.Hour})
	fmt.Fprintf(b, "%-22s | %-30s | %-30s | %s\n", "window", "card_auth, shared pool", "card_auth, bulkheads", "tax, bulkheads")
	for _, win := range ws {
		sb := summarise(before.recs["card_auth"], win.from, win.to)
		sa := summarise(bulk.recs["card_auth"], win.from, win.to)
		st := summarise(bulk.recs["tax"], win.from, win.to)
		fmt.Fprintf(b, "%-22s | %-30s | %-30s | %d api, %d verified fallback, %d shed 503; p99 %s\n", win.name,
			cardCell(sb), cardCell(sa), st.counts[outOK], st.counts[outFallback], st.counts[outShed], ms(st.p99))
	}
}

func cardCell(s stats) string {
	ok := s.counts[outOK]
	if ok == s.n {
		return fmt.Sprintf("%d/%d ok, p99 %s", ok, s.n, ms(s.p99))
	}
	return fmt.Sprintf("%d/%d ok, p99 %s", ok, s.n, ms(s.p99))
}

// verdict checks the bulkhead run against the targets.
func verdict(cfg config, before, bulk *run) judgement {
	if bulk == nil {
		return judgement{checks: []string{"FAIL no bulkhead run"}, last: "drill: FAIL no bulkhead-mode run"}
	}
	var checks []string
	pass, otherFailed := true, false
	record := func(ok, latency bool, format string, args ...any) {
		mark := "PASS"
		if !ok {
			mark, pass = "FAIL", false
			otherFailed = otherFailed || !latency
		}
		checks = append(checks, mark+" "+fmt.Sprintf(format, args...))
	}
	check := func(ok bool, format string, args ...any) { record(ok, false, format, args...) }
	// checkLatency is a target on a latency, which the neighbours of a
	// shared machine move as much as the service does.
	checkLatency := func(ok bool, format string, args ...any) { record(ok, true, format, args...) }
	// The spec times the tax lane's shedding: it queues nothing, so a
	// rejection is immediate. card_auth and fraud queue for up to 50 ms
	// before a wait-timeout rejection, by design; they are reported above.
	taxShed := bulk.final.Routes["tax"]
	worstShed := time.Duration(taxShed.ShedP99us) * time.Microsecond
	tax := summarise(bulk.recs["tax"], bulk.faultStart, bulk.faultEnd)
	checkIf := func(cond, ok bool, format string, args ...any) {
		if cond {
			check(ok, format, args...)
		}
	}
	if faultedTax(cfg) {
		// Nothing shed is a failure of the lanes; shed slowly, of the clock.
		record(taxShed.Shed > 0 && worstShed < targetShed, taxShed.Shed > 0, "time to shed tax load, per rejected request (p99 in the service, arrival to 503 written) %s < %s; %d shed in the fault; seen by the client p50 %s p99 %s",
			ms(worstShed), targetShed, tax.counts[outShed], ms(tax.shedP50), ms(tax.shedP99))
	}
	card := summarise(bulk.recs["card_auth"], bulk.faultStart, bulk.faultEnd)
	// The full drill holds card_auth to the spec's 120 ms. The short one
	// runs in CI on a shared machine, where an absolute p99 measures the
	// neighbours as much as the service; it holds card_auth to 120 ms or
	// to twice its own p99 before the fault in the same run, whichever is
	// larger: the fault must not move card_auth, whatever the machine.
	cardLimit, cardRule := targetCardP99, "the spec's target"
	if cfg.short {
		base := summarise(bulk.recs["card_auth"], 0, bulk.faultStart)
		if 2*base.p99 > cardLimit {
			cardLimit, cardRule = 2*base.p99, fmt.Sprintf("twice the baseline p99 %s (short drill on a loaded machine)", ms(base.p99))
		}
	}
	checkLatency(card.p99 <= cardLimit, "card_auth p99 during the fault %.1fms <= %s, %s (%d/%d ok)", float64(card.p99)/float64(time.Millisecond), ms(cardLimit), cardRule, card.counts[outOK], card.n)
	// The point of the bulkheads: card authorisation goes on being served
	// while tax is slow (the spec's next steps ask for 100%; a 429 from
	// card_auth's own full lane is not a cascade, so a little is allowed).
	minServed := 0.99
	if cfg.short {
		minServed = 0.95
	}
	check(card.n > 0 && float64(card.counts[outOK]) >= minServed*float64(card.n), "card_auth served during the fault %d/%d (>= %.0f%%)", card.counts[outOK], card.n, minServed*100)
	checkIf(faultedTax(cfg), bulk.recovery >= 0 && bulk.recovery < targetRecovery, "tax lane below 5 active %s after the fault (< %s)", recoveryString(bulk.recovery), targetRecovery)
	orphans, over := 0, []string{}
	for _, lane := range lanes {
		c := bulk.afterLoad[lane]
		orphans += c.Active + c.IdleInTx
		if t, _ := maxConns(bulk, lane, 0, bulk.end+time.Hour); t > laneBudget[lane] {
			over = append(over, fmt.Sprintf("%s %d > %d", lane, t, laneBudget[lane]))
		}
	}
	check(orphans == 0 && bulk.leftAfterExit == 0 && len(over) == 0,
		"no orphaned connections: %d busy once the load stopped, %d left after exit, lanes within budget%s", orphans, bulk.leftAfterExit, strings.Join(append([]string{""}, over...), "; over: "))
	var hung, errs, sent, sched int
	for _, lane := range lanes {
		s := summarise(bulk.recs[lane], 0, bulk.end+time.Hour)
		hung += s.counts[outHung]
		errs += s.counts[outError]
		sent += s.n
		sched += bulk.expected[lane]
	}
	check(hung == 0 && errs == 0, "every request answered before its deadline, served, shed or fallback: %d sent, %d errors, %d hung", sent, errs, hung)
	check(float64(sent) >= minDelivered*float64(sched), "the generator sent %d of %d scheduled requests (>= %.0f%%)", sent, sched, minDelivered*100)
	scenarioChecks(cfg, bulk, check)

	status := "PASS"
	if !pass {
		status = "FAIL"
	}
	fault := cfg.fault.String()
	if faultedTax(cfg) {
		fault += "@" + cfg.faultLat.String()
	}
	last := fmt.Sprintf("drill: %s scenario=%s scale=%.2f fault=%s bulkhead: card_auth_p99=%s ok=%d/%d", status, cfg.scenario.name, cfg.scale, fault, ms(card.p99), card.counts[outOK], card.n)
	if faultedTax(cfg) {
		last += fmt.Sprintf(" tax_shed_p99=%s(service)/%s(client) recovery=%s", ms(worstShed), ms(tax.shedP99), recoveryString(bulk.recovery))
	}
	last += fmt.Sprintf(" orphans=%d hung=%d errors=%d", orphans+bulk.leftAfterExit, hung, errs)
	last += lastLine(cfg, bulk)
	if before != nil {
		bc := summarise(before.recs["card_auth"], before.faultStart, before.faultEnd)
		last += fmt.Sprintf(" | before: card_auth ok=%d/%d p99=%s recovery=%s", bc.counts[outOK], bc.n, ms(bc.p99), recoveryString(before.recovery))
		if cfg.scenario.name != "tax-slow" {
			var errs, hung int
			for _, lane := range lanes {
				s := summarise(before.recs[lane], 0, before.end+time.Hour)
				errs += s.counts[outError]
				hung += s.counts[outHung]
			}
			last += fmt.Sprintf(" errors=%d hung=%d emfile=%d fds_max=%d", errs, hung, before.emfile, maxFDs(before))
		}
	}
	return judgement{pass: pass, latencyOnly: !pass && !otherFailed, checks: checks, last: last}
}

func loadRange(r *run) string {
	lo, hi := -1.0, -1.0
	for _, s := range r.pgSamples {
		if s.load1 < 0 {
			continue
		}
		if lo < 0 || s.load1 < lo {
			lo = s.load1
		}
		hi = max(hi, s.load1)
	}
	if hi < 0 {
		return "unknown"
	}
	return fmt.Sprintf("%.1f–%.1f on %d cores", lo, hi, runtime.NumCPU())
}
