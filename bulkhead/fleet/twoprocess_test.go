package fleet

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/redis/go-redis/v9"
)

// The two-process partition test: two instances of a service, each its
// own OS process with its own Redis connection through a proxy the test
// cuts and hangs, share a fleet limit. Every lease's work is recorded as
// an interval of wall-clock time (one clock: same machine), and afterwards
// the intervals of both processes are swept for the most that overlapped.

// childEnv, when set, makes the test binary an instance of the service
// (runInstance) instead of running tests.
const childEnv = "BHLINT_FLEET_INSTANCE"

// instanceConfig is what the test hands an instance, as JSON in childEnv.
type instanceConfig struct {
	RedisAddr string
	Key       string
	Partition Partition
	Limit     int
	Workers   int
	Run       time.Duration
	Out       string
}

// interval is one lease's work, in Unix nanoseconds.
type interval struct {
	Start, End int64
	Local      bool
	Instance   int `json:"-"`
}

const (
	twoProcLimit = 4
	twoProcTTL   = 300 * time.Millisecond
)

// runInstance is one instance: Workers goroutines take leases for Run and
// hold each for a few milliseconds, or until the lease is lost; the
// intervals go to Out. It returns the process's exit code.
func runInstance(raw string) int {
	var cfg instanceConfig
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		fmt.Fprintln(os.Stderr, "instance config:", err)
		return 2
	}
	rdb := redis.NewClient(&redis.Options{Addr: cfg.RedisAddr, MaxRetries: -1, DialTimeout: 200 * time.Millisecond,
		ReadTimeout: 500 * time.Millisecond, WriteTimeout: 500 * time.Millisecond})
	defer rdb.Close()
	l, err := New[Payments](rdb, Config{Key: cfg.Key, Limit: cfg.Limit, LocalLimit: cfg.Limit / 2, Partition: cfg.Partition,
		LeaseTTL: twoProcTTL, RedisTimeout: 100 * time.Millisecond, RetryRedisEvery: 50 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var mu sync.Mutex
	var got []interval
	end := time.Now().Add(cfg.Run)
	var wg sync.WaitGroup
	for w := range cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(os.Getpid()), uint64(w)))
			for time.Now().Before(end) {
				lease, err := l.Acquire(context.Background())
				if err != nil {
					time.Sleep(time.Duration(2+rng.IntN(5)) * time.Millisecond)
					continue
				}
				iv := interval{Start: time.Now().UnixNano(), Local: lease.Local()}
				select {
				case <-time.After(time.Duration(1+rng.IntN(20)) * time.Millisecond):
				case <-lease.Lost(): // the work stops, as Do's would
				}
				iv.End = time.Now().UnixNano()
				lease.Release()
				mu.Lock()
				got = append(got, iv)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return writeIntervals(cfg.Out, got)
}

func writeIntervals(path string, got []interval) int {
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, iv := range got {
		_ = enc.Encode(iv)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	return 0
}

// mostOverlapping sweeps the intervals: the largest number running at one
// instant (an end at the same nanosecond as a start comes first), and the
// first instant it was reached.
func mostOverlapping(ivs []interval) (most int, at int64) {
	type edge struct {
		at    int64
		delta int
	}
	edges := make([]edge, 0, 2*len(ivs))
	for _, iv := range ivs {
		edges = append(edges, edge{iv.Start, 1}, edge{iv.End, -1})
	}
	slices.SortFunc(edges, func(a, b edge) int {
		return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.delta, b.delta))
	})
	n := 0
	for _, e := range edges {
		n += e.delta
		if n > most {
			most, at = n, e.at
		}
	}
	return most, at
}

// describeAt lists the intervals running at the instant at, relative to start.
func describeAt(ivs []interval, at int64, start time.Time) string {
	var b strings.Builder
	for _, iv := range ivs {
		if iv.Start <= at && at < iv.End {
			fmt.Fprintf(&b, "\n  instance %d, local %v: %s to %s", iv.Instance, iv.Local,
				time.Duration(iv.Start-start.UnixNano()).Round(time.Millisecond), time.Duration(iv.End-start.UnixNano()).Round(time.Millisecond))
		}
	}
	return b.String()
}

func readIntervals(t *testing.T, path string) []interval {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ivs []interval
	dec := json.NewDecoder(f)
	for {
		var iv interval
		if err := dec.Decode(&iv); err == io.EOF {
			return ivs
		} else if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		ivs = append(ivs, iv)
	}
}

// TestTwoProcessPartition: limit 4, two instances with 6 workers each.
// Instance A is cut off from Redis, then B hangs, then both are cut, then
// A hangs while B is cut; in the modes that promise it, the sweep never
// finds more than 4 leases' work at once. With PartitionLocal the limit is
// soft, and the test only reports what it saw.
func TestTwoProcessPartition(t *testing.T) {
	if testing.Short() {
		t.Skip("the two-process partition test takes about 40s; run it without -short")
	}
	for _, mode := range []Partition{PartitionFailClosed, PartitionFairShare, PartitionLocal} {
		t.Run(mode.String(), func(t *testing.T) {
			key, _ := setup(t)
			proxies := []*testsvc.Proxy{testsvc.NewProxy(t, testsvc.RedisAddr(t)), testsvc.NewProxy(t, testsvc.RedisAddr(t))}
			dir := t.TempDir()
			const run = 12 * time.Second
			var cmds []*exec.Cmd
			for i, p := range proxies {
				raw, _ := json.Marshal(instanceConfig{RedisAddr: p.Addr(), Key: key, Partition: mode, Limit: twoProcLimit,
					Workers: 6, Run: run, Out: filepath.Join(dir, strconv.Itoa(i))})
				cmd := exec.Command(os.Args[0], "-test.run=^$")
				cmd.Env = append(os.Environ(), childEnv+"="+string(raw))
				cmd.Stderr = os.Stderr
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				cmds = append(cmds, cmd)
			}
			a, b := proxies[0], proxies[1]
			started := time.Now()
			step := func(d time.Duration, what string, f func()) {
				time.Sleep(d)
				t.Logf("%s: %s", time.Since(started).Round(time.Millisecond), what)
				f()
			}
			step(1500*time.Millisecond, "cut A", a.Cut)
			step(2*time.Second, "heal A, hang B", func() { a.Heal(); b.Hang() })
			step(2*time.Second, "heal B, cut both", func() { b.Heal(); a.Cut(); b.Cut() })
			step(2*time.Second, "heal both", func() { a.Heal(); b.Heal() })
			step(1500*time.Millisecond, "hang A, cut B", func() { a.Hang(); b.Cut() })
			step(2*time.Second, "heal both", func() { a.Heal(); b.Heal() })
			for i, cmd := range cmds {
				if err := cmd.Wait(); err != nil {
					t.Fatalf("instance %d: %v", i, err)
				}
			}
			var all []interval
			local := 0
			for i := range cmds {
				ivs := readIntervals(t, filepath.Join(dir, strconv.Itoa(i)))
				for j := range ivs {
					ivs[j].Instance = i
				}
				t.Logf("instance %d: %d leases", i, len(ivs))
				all = append(all, ivs...)
			}
			for _, iv := range all {
				if iv.Local {
					local++
				}
			}
			most, at := mostOverlapping(all)
			t.Logf("Partition %s: %d leases' work recorded (%d local), at most %d at once (limit %d)", mode, len(all), local, most, twoProcLimit)
			if len(all) < 100 {
				t.Errorf("only %d leases served: the test did not exercise the limit", len(all))
			}
			if mode != PartitionLocal && most > twoProcLimit {
				t.Errorf("Partition %s: %d leases' work at once across the two processes, over the fleet limit of %d:%s", mode, most, twoProcLimit, describeAt(all, at, started))
			}
		})
	}
}
