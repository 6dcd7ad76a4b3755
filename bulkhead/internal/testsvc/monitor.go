package testsvc

import (
	"context"
	"database/sql"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the monitor's driver
	"go.uber.org/goleak"
)

// Monitor reads pg_stat_activity for a set of application names (lanes).
type Monitor struct {
	DB   *sql.DB
	apps []string
}

// NewMonitor connects to the test PostgreSQL (skipping the test if there is
// none) and registers the end-of-test checks: no session of apps and no
// goroutine left behind.
func NewMonitor(t *testing.T, apps ...string) (dsn string, m *Monitor) {
	t.Helper()
	dsn = PostgresDSN(t)
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(2)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		t.Fatalf("PostgreSQL at %s accepts TCP but not this DSN: %v", dsn, err)
	}
	m = &Monitor{DB: db, apps: apps}
	t.Cleanup(func() {
		m.WaitSessions(t, 0)
		db.Close()
		goleak.VerifyNone(t)
	})
	return dsn, m
}

// Sessions counts the sessions of each app in pg_stat_activity.
func (m *Monitor) Sessions(ctx context.Context) (map[string]int, error) {
	rows, err := m.DB.QueryContext(ctx, `select application_name, count(*) from pg_stat_activity where application_name = any($1) group by 1`, m.apps)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	n := map[string]int{}
	for rows.Next() {
		var app string
		var c int
		if err := rows.Scan(&app, &c); err != nil {
			return nil, err
		}
		n[app] = c
	}
	return n, rows.Err()
}

// WaitSessions waits until no app has more than max sessions; the server
// ends a backend a moment after its client closed the connection.
func (m *Monitor) WaitSessions(t testing.TB, max int) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		n, err := m.Sessions(context.Background())
		if err != nil {
			t.Errorf("reading pg_stat_activity: %v", err)
			return
		}
		over := false
		for _, c := range n {
			over = over || c > max
		}
		if !over {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("sessions left behind in pg_stat_activity: %v (want at most %d each)", n, max)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Tracker polls pg_stat_activity and keeps the most sessions seen per app.
type Tracker struct {
	m      *Monitor
	stop   chan struct{}
	done   chan struct{}
	mu     sync.Mutex
	max    map[string]int
	recent []sample       // the polls of the last HeldFor
	held   map[string]int // most sessions seen in every poll for at least HeldFor
	polls  int
}

// sample is one poll: when, and the sessions per app.
type sample struct {
	at time.Time
	n  map[string]int
}

// HeldFor is how long a count of sessions must last to be held rather than
// a session outliving its slot while the server ends it: a discarded
// session's backend exits in milliseconds on an idle machine, in tens of
// them on a loaded one (a CI machine running other builds); a leak of the
// bound lasts as long as the work that holds it.
const HeldFor = 100 * time.Millisecond

// Track starts polling every few milliseconds until Stop.
func (m *Monitor) Track() *Tracker {
	tr := &Tracker{m: m, stop: make(chan struct{}), done: make(chan struct{}),
		max: map[string]int{}, held: map[string]int{}}
	go func() {
		defer close(tr.done)
		for {
			if n, err := m.Sessions(context.Background()); err == nil {
				tr.mu.Lock()
				tr.polls++
				for app, c := range n {
					tr.max[app] = max(tr.max[app], c)
				}
				tr.record(sample{at: time.Now(), n: n})
				tr.mu.Unlock()
			}
			select {
			case <-tr.stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	return tr
}

// Stop ends the polling, after at least three polls, and returns the most
// sessions seen per app and the number of polls.
func (tr *Tracker) Stop() (map[string]int, int) {
	for {
		tr.mu.Lock()
		p := tr.polls
		tr.mu.Unlock()
		if p >= 3 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	close(tr.stop)
	<-tr.done
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.max, tr.polls
}

// record adds a poll and raises each app's held count to the fewest
// sessions it had in every poll of the last HeldFor, once the polls kept
// span that long.
func (tr *Tracker) record(s sample) {
	tr.recent = append(tr.recent, s)
	// Keep the newest poll at least HeldFor old and every one after it.
	for len(tr.recent) > 1 && s.at.Sub(tr.recent[1].at) >= HeldFor {
		tr.recent = tr.recent[1:]
	}
	if s.at.Sub(tr.recent[0].at) < HeldFor {
		return
	}
	for app := range s.n {
		least := s.n[app]
		for _, r := range tr.recent {
			least = min(least, r.n[app])
		}
		tr.held[app] = max(tr.held[app], least)
	}
}

// Held returns, after Stop, the most sessions per app that were seen in
// every poll for at least HeldFor: a count that lasted, as opposed to a
// session that outlived its slot for the time the server takes to end it.
func (tr *Tracker) Held() map[string]int {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.held
}

// SleepingSessions counts app's sessions now running pg_sleep.
func (m *Monitor) SleepingSessions(app string) int {
	var n int
	err := m.DB.QueryRow(`select count(*) from pg_stat_activity where application_name = $1 and state = 'active' and query like '%pg_sleep%'`, app).Scan(&n)
	if err != nil {
		return -1
	}
	return n
}

// WaitFor polls cond; the limit is a hang detector, not a timing assertion.
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
