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
	// modes: the runs, in order, when -modes is not given; contrast is the
	// one the bulkhead run is compared with.
	modes    string
	contrast string
	// args: the service's extra arguments, by run.
	args func(run string) []string
}

// serviceMode is the service's -mode for a run: "no-reset" is bulkhead
// mode without the pool reset on recovery lag.
func serviceMode(run string) string {
	if run == "no-reset" {
		return "bulkhead"
	}
	return run
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
	// Stuck work: as the tax API slows to 8 s, the drill injects 5 calls
	// in the tax lane that open a transaction, lock an order row and sit
	// in it, ignoring their deadline (the service's -faults); they hold
	// the tax lane's 5 connections after the API recovers. Bulkhead mode
	// resets the pool on ALERT_BULKHEAD_RECOVERY_LAG; the contrast run
	// ("no-reset") is the same service without the reset.
	"recovery-lag": {
		name: "recovery-lag",
		describe: func(cfg config) string {
			return fmt.Sprintf("tax API at %s with 5 tax calls stuck in their transactions", cfg.faultLat)
		},
		inject: func(ctx context.Context, cfg config, on bool) error {
			if on {
				// The stuck calls first: with the API slow the lane is full.
				if err := postService(ctx, "/debug/fault?tax_stuck=5"); err != nil {
					return err
				}
			}
			return injectTaxLatency(ctx, cfg, on)
		},
		full: [3]time.Duration{20 * time.Second, 30 * time.Second, 40 * time.Second},
		// 15 s of fault in the short form too: card_auth's p99 over 10 s
		// (2,100 requests) is the slowest 21, one stall of the machine.
		short:    [3]time.Duration{8 * time.Second, 15 * time.Second, 20 * time.Second},
		modes:    "no-reset,bulkhead",
		contrast: "no-reset",
		args: func(run string) []string {
			return append([]string{"-faults"}, map[bool][]string{true: {"-no-lag-reset"}}[run == "no-reset"]...)
		},
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

// postService posts to one of the service's debug endpoints.
func postService(ctx context.Context, path string) error {
	return post(ctx, "http://"+serviceAddr+path, 10*time.Second)
}

// setFault changes one fake dependency's behaviour.
func setFault(ctx context.Context, addr, query string) error {
	return post(ctx, "http://"+addr+"/admin?"+query, 2*time.Second)
}

// post sends an empty POST to u and wants 200 within timeout.
func post(ctx context.Context, u string, timeout time.Duration) error {
	c := &http.Client{Timeout: timeout}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("POST %s: %s", u, resp.Status)
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

// countInLog counts the occurrences of s in a log from offset from on.
func countInLog(path string, from int64, s string) int {
	b, err := os.ReadFile(path)
	if err != nil || from > int64(len(b)) {
		return -1
	}
	return strings.Count(string(b[from:]), s)
}

// fdKinds counts process pid's descriptors by what they are: connections
// accepted by the service, to PostgreSQL, to each fake dependency, other
// sockets and everything else (files, pipes, epoll).
func fdKinds(pid int) map[string]int {
	ports := map[string]string{}
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			fs := strings.Fields(line)
			if len(fs) < 10 {
				continue
			}
			ports[fs[9]] = portOf(fs[1]) + ">" + portOf(fs[2])
		}
	}
	dir := filepath.Join("/proc", strconv.Itoa(pid), "fd")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	out := map[string]int{}
	_, svcPort, _ := strings.Cut(serviceAddr, ":")
	names := map[string]string{"5432": "postgres", portOfAddr(cardAddr): "card", portOfAddr(fraudAddr): "fraud", portOfAddr(taxAddr): "tax"}
	for _, e := range ents {
		link, err := os.Readlink(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		inode, ok := strings.CutPrefix(link, "socket:[")
		if !ok {
			out["other"]++
			continue
		}
		lr, ok := ports[strings.TrimSuffix(inode, "]")]
		if !ok {
			out["other sockets"]++
			continue
		}
		local, remote, _ := strings.Cut(lr, ">")
		switch {
		case local == svcPort:
			out["inbound"]++
		case names[remote] != "":
			out[names[remote]]++
		default:
			out["other sockets"]++
		}
	}
	return out
}

// portOf is the decimal port of a /proc/net/tcp address (hex "0100007F:4E20").
func portOf(a string) string {
	_, h, _ := strings.Cut(a, ":")
	p, err := strconv.ParseUint(h, 16, 16)
	if err != nil {
		return ""
	}
	return strconv.FormatUint(p, 10)
}

func portOfAddr(addr string) string {
	_, p, _ := strings.Cut(addr, ":")
	return p
}
