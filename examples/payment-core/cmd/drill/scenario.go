package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A scenario is one fault the drill injects, and what it runs the service
// under. Every scenario uses the same load, accounting, report and chart.
type scenario struct {
	name string
	// what is printed as the fault, in the report and the chart's title
	describe func(cfg config) string
	// inject starts (on) or ends the fault.
	inject func(ctx context.Context, cfg config, on bool) error
	// wrap is the command the service runs under (prlimit, taskset), if any.
	wrap func(cfg config) []string
	// phases: baseline, fault, after; full and short.
	full, short [3]time.Duration
	// drain: after the load, wait for the async fraud queue to empty.
	drain bool
}

var scenarios = map[string]scenario{
	"tax-slow": {
		name:     "tax-slow",
		describe: func(cfg config) string { return fmt.Sprintf("tax API at %s", cfg.faultLat) },
		inject:   injectTaxLatency,
		full:     [3]time.Duration{20 * time.Second, 120 * time.Second, 20 * time.Second},
		short:    [3]time.Duration{8 * time.Second, 15 * time.Second, 10 * time.Second},
	},
	// The fraud vendor answers 503 to everything for the window. The
	// breaker's terms (30 s window, 20 calls, 30 s open) are the spec's in
	// both forms, so the after phase is long enough for the breaker to
	// probe, close and for the queue to drain.
	"fraud-outage": {
		name:     "fraud-outage",
		describe: func(cfg config) string { return "fraud service answering 503 to everything" },
		inject: func(ctx context.Context, cfg config, on bool) error {
			if on {
				return setFault(ctx, fraudAddr, "latency=5ms&error_rate=1&status=503")
			}
			return setFault(ctx, fraudAddr, "latency=15ms&error_rate=0")
		},
		full:  [3]time.Duration{20 * time.Second, 60 * time.Second, 60 * time.Second},
		short: [3]time.Duration{8 * time.Second, 15 * time.Second, 30 * time.Second},
		drain: true,
	},
	// The tax API accepts connections and never answers (60 s) while the
	// service runs under a file-descriptor limit.
	"fd-ceiling": {
		name: "fd-ceiling",
		describe: func(cfg config) string {
			return fmt.Sprintf("tax API accepting and stalling (60 s), service under prlimit --nofile=%d", cfg.nofile)
		},
		inject: func(ctx context.Context, cfg config, on bool) error {
			if on {
				_, err := setTaxLatency(ctx, time.Minute)
				return err
			}
			_, err := setTaxLatency(ctx, 50*time.Millisecond)
			return err
		},
		wrap: func(cfg config) []string {
			return []string{"prlimit", fmt.Sprintf("--nofile=%d:%d", cfg.nofile, cfg.nofile), "--"}
		},
		full:  [3]time.Duration{20 * time.Second, 60 * time.Second, 20 * time.Second},
		short: [3]time.Duration{8 * time.Second, 15 * time.Second, 10 * time.Second},
	},
	// The tax API at 8 s with the service pinned to one core.
	"cpu-ceiling": {
		name: "cpu-ceiling",
		describe: func(cfg config) string {
			return fmt.Sprintf("tax API at %s, service pinned to one core (taskset -c %d, GOMAXPROCS 1)", cfg.faultLat, cfg.core)
		},
		inject: injectTaxLatency,
		wrap:   func(cfg config) []string { return []string{"taskset", "-c", strconv.Itoa(cfg.core)} },
		full:   [3]time.Duration{20 * time.Second, 60 * time.Second, 20 * time.Second},
		short:  [3]time.Duration{8 * time.Second, 15 * time.Second, 10 * time.Second},
	},
}

func injectTaxLatency(ctx context.Context, cfg config, on bool) error {
	d := 50 * time.Millisecond
	if on {
		d = cfg.faultLat
	}
	_, err := setTaxLatency(ctx, d)
	return err
}

// setFault changes one fake dependency's behaviour.
func setFault(ctx context.Context, addr, query string) error {
	c := &http.Client{Timeout: 2 * time.Second}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+addr+"/admin?"+query, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("setting %s's fault %q: %s", addr, query, resp.Status)
	}
	return nil
}

// openFDs is how many file descriptors process pid has open, or -1.
func openFDs(pid int) int {
	ents, err := os.ReadDir(filepath.Join("/proc", strconv.Itoa(pid), "fd"))
	if err != nil {
		return -1
	}
	return len(ents)
}

// countInLog counts the lines of a log that contain s.
func countInLog(path, s string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return -1
	}
	return strings.Count(string(b), s)
}
