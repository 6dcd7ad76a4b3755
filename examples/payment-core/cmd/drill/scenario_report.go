package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/bhlint/bhlint/examples/payment-core/internal/service"
)

// Targets of the scenarios beyond the tax-slow drill's.
const (
	// The breaker's terms (lanebreaker's defaults, the spec's): it opens
	// once 20 calls in the last 30 s were made and more than half of them
	// failed. At a constant rate, with the baseline's successes in the
	// window, that is min(baseline, 15 s) into the outage; the target
	// allows 2 s more (sampling, the generator's jitter).
	breakerWindow     = 30 * time.Second
	breakerOpensSlack = 2 * time.Second
	samplingEdge      = 200 * time.Millisecond
	// Open 30 s, then 3 probes: closed at most one open period (plus the
	// probes) after the vendor recovered.
	targetBreakerCloses = 40 * time.Second
	// pending_fraud is answered at once: inside card_auth's own budget.
	targetPendingP99 = 120 * time.Millisecond
	// The queue's drain rate, with 10% for the 100 ms sampling.
	maxDrainPerSecond = service.FraudDrainRate * 1.1
)

// breakerTimes is when the fraud breaker first opened after the fault
// started and when it was closed again after the fault ended (-1: never),
// and the intervals it was open, from the lane samples.
func breakerTimes(r *run) (opened, closed time.Duration, open [][2]time.Duration) {
	opened, closed = -1, -1
	var from time.Duration = -1
	for _, s := range r.laneSamples {
		isOpen := s.breaker == "open"
		if isOpen && from < 0 {
			from = s.at
		}
		if !isOpen && from >= 0 {
			open = append(open, [2]time.Duration{from, s.at})
			from = -1
		}
		if isOpen && opened < 0 && s.at >= r.faultStart {
			opened = s.at - r.faultStart
		}
		if s.breaker == "closed" && opened >= 0 && closed < 0 && s.at >= r.faultEnd {
			closed = s.at - r.faultEnd
		}
	}
	if from >= 0 {
		open = append(open, [2]time.Duration{from, r.end + time.Hour})
	}
	return opened, closed, open
}

// breakerDue is when the breaker's terms say it opens, from the outage's start.
func breakerDue(r *run) time.Duration { return min(r.faultStart, breakerWindow/2) }

func within(at time.Duration, ivs [][2]time.Duration) bool {
	for _, iv := range ivs {
		if at >= iv[0] && at < iv[1] {
			return true
		}
	}
	return false
}

// fraudWhileOpen summarises the fraud requests sent while the breaker was open.
func fraudWhileOpen(r *run, open [][2]time.Duration) stats {
	var in []rec
	// The breaker is sampled every 100 ms: leave out the requests sent near
	// an open interval's edges, where its state is not known.
	var inner [][2]time.Duration
	for _, iv := range open {
		if iv[1]-iv[0] > 2*samplingEdge {
			inner = append(inner, [2]time.Duration{iv[0] + samplingEdge, iv[1] - samplingEdge})
		}
	}
	for _, rc := range r.recs["fraud"] {
		if within(rc.at, inner) {
			in = append(in, rc)
		}
	}
	return summarise(in, 0, r.end+time.Hour)
}

// scoredWhileOpen is how many queued scores were done while the breaker was
// open, and the most done in any second, from the samples.
func drainFigures(r *run, open [][2]time.Duration) (whileOpen int64, maxPerSec int64) {
	ss := r.laneSamples
	for i := 1; i < len(ss); i++ {
		if within(ss[i-1].at, open) && within(ss[i].at, open) {
			whileOpen += ss[i].scored - ss[i-1].scored
		}
	}
	j := 0
	for i := range ss {
		for j < i && ss[i].at-ss[j].at > time.Second {
			j++
		}
		if ss[i].at-ss[j].at >= 900*time.Millisecond {
			maxPerSec = max(maxPerSec, ss[i].scored-ss[j].scored)
		}
	}
	return whileOpen, maxPerSec
}

func maxFDs(r *run) int {
	m := -1
	for _, s := range r.laneSamples {
		m = max(m, s.fds)
	}
	return m
}

func sumKinds(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func kindsString(m map[string]int) string {
	var parts []string
	for _, k := range []string{"inbound", "postgres", "card", "fraud", "tax", "other sockets", "other"} {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return fmt.Sprintf("%d = %s", sumKinds(m), strings.Join(parts, ", "))
}

func durString(d time.Duration) string {
	if d < 0 {
		return "never"
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}

// scenarioSection is the report's lines for one run beyond the common ones.
func scenarioSection(cfg config, r *run) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("file descriptors of the service: at most %d open", maxFDs(r))
	if cfg.scenario.name == "fd-ceiling" {
		w(" (limit %d)", cfg.nofile)
	}
	w("; \"too many open files\" in its log: %d\n", r.emfile)
	if len(r.fdPeak) > 0 {
		w("  descriptors by kind at the most sampled (every second): %s\n", kindsString(r.fdPeak))
	}
	if cfg.scenario.name == "recovery-lag" {
		alertAt, during := lagFigures(r)
		w("recovery lag: %d ALERT_BULKHEAD_RECOVERY_LAG in the log; lagging seen %s after the API recovered (during the fault: %v); stuck calls ended by a reset %d, still stuck at the end %d; tax lane below 5 running calls %s after the API recovered\n",
			r.alerts, durString(alertAt), during, r.final.TaxStuckEnded, r.final.TaxStuck, recoveryString(r.recovery))
	}
	if cfg.scenario.name == "fraud-outage" {
		fr := summarise(r.recs["fraud"], 0, r.end+time.Hour)
		if r.mode == service.ModeBulkhead {
			opened, closed, open := breakerTimes(r)
			wo := fraudWhileOpen(r, open)
			whileOpen, perSec := drainFigures(r, open)
			w("fraud breaker: opened %s after the outage began (due by its terms at %s); closed %s after it ended; open intervals %d\n", durString(opened), durString(breakerDue(r)), durString(closed), len(open))
			w("fraud while the breaker was open: %d sent = %d pending_fraud + %d ok + %d shed + %d errors + %d hung; p99 %s\n",
				wo.n, wo.counts[outFallback], wo.counts[outOK], wo.counts[outShed], wo.counts[outError], wo.counts[outHung], ms(wo.p99))
			if q := r.final.FraudQueue; q != nil {
				w("pending_fraud answers seen by the client: %d; the queue accepted %d, scored %d (%d failed attempts retried), %d left, %d dropped; scored while the breaker was open %d; most scored in one second %d (limit %.0f/s); queue empty %s after the outage ended\n",
					fr.counts[outFallback], q.Queued, q.Scored, q.Failed, q.Len, q.Dropped, whileOpen, perSec, service.FraudDrainRate, durString(r.drained))
			}
		} else {
			w("fraud (no breaker, no queue): %d sent = %d ok + %d errors + %d shed + %d hung\n", fr.n, fr.counts[outOK], fr.counts[outError], fr.counts[outShed], fr.counts[outHung])
		}
	}
	return b.String()
}

// scenarioChecks are the targets of the scenario beyond the common ones.
func scenarioChecks(cfg config, bulk *run, check func(bool, string, ...any)) {
	switch cfg.scenario.name {
	case "fraud-outage":
		opened, closed, open := breakerTimes(bulk)
		due := breakerDue(bulk)
		check(opened >= 0 && opened <= due+breakerOpensSlack, "the fraud breaker opened %s after the outage began (its terms: more than half of 30 s of calls failed, due at %s; <= %s)", durString(opened), durString(due), durString(due+breakerOpensSlack))
		wo := fraudWhileOpen(bulk, open)
		check(wo.n > 0 && wo.counts[outFallback] == wo.n && wo.p99 <= targetPendingP99,
			"while it was open, fraud answered pending_fraud at once: %d/%d pending_fraud, p99 %s (<= %s)", wo.counts[outFallback], wo.n, ms(wo.p99), targetPendingP99)
		check(closed >= 0 && closed <= targetBreakerCloses, "half-open probes closed it %s after the vendor recovered (<= %s)", durString(closed), targetBreakerCloses)
		q := bulk.final.FraudQueue
		fr := summarise(bulk.recs["fraud"], 0, bulk.end+time.Hour)
		whileOpen, perSec := drainFigures(bulk, open)
		if q == nil {
			check(false, "no async fraud queue in the snapshot")
			return
		}
		check(int64(fr.counts[outFallback]) == q.Queued && q.Scored == q.Queued && q.Len == 0 && q.Dropped == 0 && bulk.drained >= 0,
			"every pending_fraud scored after recovery, none lost: %d pending_fraud answers, %d queued, %d scored, %d left, %d dropped; queue empty %s after the outage", fr.counts[outFallback], q.Queued, q.Scored, q.Len, q.Dropped, durString(bulk.drained))
		check(whileOpen == 0 && float64(perSec) <= maxDrainPerSecond, "the queue drained only with the breaker closed (%d scored while open) and at a limited rate (at most %d in a second, limit %.0f/s)", whileOpen, perSec, service.FraudDrainRate)
	case "recovery-lag":
		alertAt, during := lagFigures(bulk)
		check(bulk.alerts == 1 && alertAt >= 0 && !during, "ALERT_BULKHEAD_RECOVERY_LAG fired once, after the API recovered: %d in the log, lagging seen %s after (during the fault: %v)", bulk.alerts, durString(alertAt), during)
		check(bulk.final.TaxStuckEnded == 5 && bulk.final.TaxStuck == 0, "the pool reset ended the 5 stuck calls' sessions: %d ended, %d still stuck", bulk.final.TaxStuckEnded, bulk.final.TaxStuck)
		check(bulk.recovery >= 0 && bulk.recovery <= targetLagRecovery, "the tax lane was back below 5 running calls %s after the API recovered (<= %s: 10 s recovery lag, the reset, 5 s)", recoveryString(bulk.recovery), targetLagRecovery)
	case "fd-ceiling":
		m := maxFDs(bulk)
		check(bulk.emfile == 0 && m > 0 && m < cfg.nofile, "never out of descriptors: at most %d open of %d, %d \"too many open files\"", m, cfg.nofile, bulk.emfile)
	}
}

// lastLine is the scenario's figures for the drill's last line.
func lastLine(cfg config, bulk *run) string {
	switch cfg.scenario.name {
	case "fraud-outage":
		opened, closed, _ := breakerTimes(bulk)
		fr := summarise(bulk.recs["fraud"], 0, bulk.end+time.Hour)
		var scored, lost int64 = -1, -1
		if q := bulk.final.FraudQueue; q != nil {
			scored, lost = q.Scored, int64(fr.counts[outFallback])-q.Scored
		}
		return fmt.Sprintf(" breaker_opened=%s closed_after=%s pending_fraud=%d scored=%d lost=%d drained=%s", durString(opened), durString(closed), fr.counts[outFallback], scored, lost, durString(bulk.drained))
	case "recovery-lag":
		alertAt, _ := lagFigures(bulk)
		return fmt.Sprintf(" alerts=%d lagging_after=%s stuck_ended=%d lane_back=%s", bulk.alerts, durString(alertAt), bulk.final.TaxStuckEnded, recoveryString(bulk.recovery))
	case "fd-ceiling":
		return fmt.Sprintf(" fds_max=%d/%d emfile=%d", maxFDs(bulk), cfg.nofile, bulk.emfile)
	}
	return ""
}

// faultedTax: the scenarios whose fault is in the tax API, where the tax
// lane's shedding and recovery are measured.
func faultedTax(cfg config) bool {
	return cfg.scenario.name != "fraud-outage" && cfg.scenario.name != "recovery-lag"
}

// lagFigures: when the tax lane first reported recovery lag, from the
// fault's end (-1: never; negative alerts during the fault show as
// duringFault), and how long the stuck calls held on.
func lagFigures(r *run) (alertAt time.Duration, duringFault bool) {
	alertAt = -1
	for _, s := range r.laneSamples {
		if s.lagging && s.at < r.faultEnd {
			duringFault = true
		}
	}
	// The lane's Lagging flag lasts until it is below its baseline, which
	// after a reset may be less than a sample: the alert's time is the
	// service's record of it.
	if l := r.final.Lanes["tax"]; l.LagAlerts > 0 {
		at := l.LastLagAlert.Sub(r.start)
		if at < r.faultEnd {
			duringFault = true
		} else {
			alertAt = at - r.faultEnd
		}
	}
	return alertAt, duringFault
}

// targetLagRecovery: RecoveryLag (10 s) after the API's first normal
// answer, the alert and the reset; 5 s for the lane to drain, as the tax
// drill's recovery target.
const targetLagRecovery = 15 * time.Second
