package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/bhlint/bhlint/bulkhead/internal/drills/drillreport"
	"github.com/bhlint/bhlint/bulkhead/jobclaim"
)

type report struct {
	text, last string
	pass       bool
}

// The targets. The chapter's figures: FIFO makes B wait behind all 40 of
// A's jobs (0.7-0.9 s with six workers and 100 ms jobs); fair share starts
// B within about one job time. The limits leave room for a loaded machine.
const (
	fifoWaitAtLeast = 500 * time.Millisecond
	fairStartWithin = 300 * time.Millisecond
	fairLargeWithin = 500 * time.Millisecond
)

func makeReport(cfg config, small, large []result) report {
	var b strings.Builder
	fmt.Fprintf(&b, "fair-claim drill, %s: %d workers, %s jobs, cap %d (soft and hard cap)\n\n",
		time.Now().UTC().Format("2006-01-02"), cfg.workers, cfg.job, cfg.cap)
	fmt.Fprintln(&b, "A enqueues 40 jobs, then B and C 5 each (B's first start counts from B's enqueue)")
	fmt.Fprintf(&b, "%s %s %s %s %s %s\n", pad("rule", 11), pad("B's first start", 16), pad("A's max running", 16), pad("A's 40 done", 12), pad("all 50 done", 12), "claim p50 / p99")
	for _, r := range small {
		fmt.Fprintf(&b, "%s %s %s %s %s %s / %s\n", pad(r.rule.String(), 11), pad(seconds(r.bFirst), 16), pad(fmt.Sprint(r.bigMax), 16),
			pad(seconds(r.bigDone), 12), pad(seconds(r.allDone), 12), millis(r.claimP50), millis(r.claimP99))
	}
	fmt.Fprintf(&b, "\n%d jobs queued by %d tenants (9 in 10 by \"bulk\"); once each has started a job (at most %s), B and C enqueue 5 each;\nthe run ends when B's and C's are done or after %s\n",
		cfg.scaleJobs, cfg.tenants-2, cfg.warmup, cfg.window)
	fmt.Fprintf(&b, "%s %s %s %s %s\n", pad("rule", 11), pad("B's first start", 16), pad("bulk's max running", 19), pad("B's 5 done", 12), "claim p50 / p99")
	for _, r := range large {
		fmt.Fprintf(&b, "%s %s %s %s %s / %s\n", pad(r.rule.String(), 11), pad(seconds(r.bFirst), 16), pad(fmt.Sprint(r.bigMax), 19),
			pad(seconds(r.bDone), 12), millis(r.claimP50), millis(r.claimP99))
	}
	checks := verdict(cfg, small, large)
	checks.Write(&b)
	last := fmt.Sprintf("drill: %s fair claim", checks.Status())
	for _, r := range small {
		last += fmt.Sprintf(" | %v: B_first=%s A_max=%d A_done=%s", r.rule, seconds(r.bFirst), r.bigMax, seconds(r.bigDone))
	}
	f := byRule(large, jobclaim.FairShare)
	last += fmt.Sprintf(" | %d jobs fair-share: B_first=%s claim_p50=%s", cfg.scaleJobs, seconds(f.bFirst), millis(f.claimP50))
	return report{text: b.String(), last: last, pass: checks.Pass()}
}

func byRule(rs []result, rule jobclaim.Rule) result {
	for _, r := range rs {
		if r.rule == rule {
			return r
		}
	}
	return result{}
}

func verdict(cfg config, small, large []result) *drillreport.Checks {
	checks := &drillreport.Checks{}
	check := checks.Check
	fifo, fair, hard := byRule(small, jobclaim.FIFO), byRule(small, jobclaim.FairShare), byRule(small, jobclaim.HardCap)
	check(fifo.bFirst >= fifoWaitAtLeast, "FIFO: B waits behind A's jobs: first start %s (>= %s)", seconds(fifo.bFirst), seconds(fifoWaitAtLeast))
	check(fair.bFirst > 0 && fair.bFirst <= fairStartWithin, "fair share: B starts within %s: %s", seconds(fairStartWithin), seconds(fair.bFirst))
	check(fair.bigMax == cfg.workers, "fair share is work-conserving: A alone ran %d at once (all %d workers)", fair.bigMax, cfg.workers)
	check(hard.bigMax <= cfg.cap, "hard cap: A never ran more than %d at once: %d", cfg.cap, hard.bigMax)
	lfair, lhard := byRule(large, jobclaim.FairShare), byRule(large, jobclaim.HardCap)
	check(lfair.bFirst > 0 && lfair.bFirst <= fairLargeWithin, "fair share at %d jobs: B starts within %s: %s", cfg.scaleJobs, seconds(fairLargeWithin), seconds(lfair.bFirst))
	check(lhard.bigMax <= cfg.cap, "hard cap at %d jobs: bulk never ran more than %d at once: %d", cfg.scaleJobs, cfg.cap, lhard.bigMax)
	twice := 0
	for _, r := range append(small, large...) {
		twice += r.twice
		if r.ran == 0 {
			check(false, "%v: no job ran", r.rule)
		}
	}
	check(twice == 0, "no job ran twice: %d did", twice)
	return checks
}
