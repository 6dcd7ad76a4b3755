package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// proc is a child process the drill started; only it is ever signalled.
type proc struct {
	cmd     *exec.Cmd
	done    chan error
	logPath string
	// logStart is the log's size when the process started: the log is
	// appended to, one process after the other.
	logStart int64
}

func startProc(ctx context.Context, cfg config, name string, args ...string) (*proc, error) {
	return startWrapped(ctx, cfg, nil, []string{"GOMAXPROCS=2"}, name, args...)
}

// startWrapped starts name under the command wrap (prlimit, taskset: they
// exec it, so the process keeps its pid), with env added.
func startWrapped(ctx context.Context, cfg config, wrap, env []string, name string, args ...string) (*proc, error) {
	logPath, err := filepath.Abs(filepath.Join(cfg.out, name+".log"))
	if err != nil {
		return nil, err
	}
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	argv := append(append(append([]string(nil), wrap...), filepath.Join(cfg.bin, name)), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = append(os.Environ(), env...)
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	p := &proc{cmd: cmd, done: make(chan error, 1), logPath: logPath}
	if st, err := logf.Stat(); err == nil {
		p.logStart = st.Size()
	}
	go func() {
		p.done <- cmd.Wait()
		logf.Close()
	}()
	return p, nil
}

// stop sends SIGTERM, waits up to grace, then kills. It reports whether the
// process exited on its own after SIGTERM.
func (p *proc) stop(grace time.Duration) bool {
	select {
	case <-p.done:
		return true
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.done:
		return true
	case <-t.C:
		_ = p.cmd.Process.Kill()
		<-p.done
		return false
	}
}

// waitHTTP polls url until it answers 200, for at most limit, waiting
// between polls with exponential backoff (25 ms doubling to 1 s) and jitter.
func waitHTTP(ctx context.Context, url string, limit time.Duration) error {
	c := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(limit)
	wait := 25 * time.Millisecond
	for time.Now().Before(deadline) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		if resp, err := c.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		jittered := wait/2 + rand.N(wait/2+1)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered):
		}
		wait = min(2*wait, time.Second)
	}
	return fmt.Errorf("%s: %w after %s", url, errTimeout, limit)
}

// setTaxLatency changes the fake tax API's latency.
func setTaxLatency(ctx context.Context, d time.Duration) (time.Time, error) {
	if err := setFault(ctx, taxAddr, "latency="+d.String()); err != nil {
		return time.Time{}, err
	}
	return time.Now(), nil
}
