package service

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
)

// Fault injection for the recovery-lag drill (Config.Faults, off by
// default): POST /debug/fault?tax_stuck=N starts N calls in the tax lane
// that each open a transaction on the tax pool, lock an order row and then
// sit in the transaction, checking back now and then, with their deadline
// ignored — work stuck elsewhere while its transaction is open, as in
// lanepgx's reset test. They hold a lane slot and a connection each until
// their session is ended under them (the pool's reset after
// ALERT_BULKHEAD_RECOVERY_LAG); the lane's MaxRunTime reports them as
// stuck but cannot end them.
type faults struct {
	stuck atomic.Int64 // stuck calls holding their transaction now
	ended atomic.Int64 // stuck calls whose session was ended
}

// lagAlerts records each lane's ALERT_BULKHEAD_RECOVERY_LAG: how many and
// when the last one was, for /debug/lanes (the drill times the alert; the
// lane's Lagging flag may last less than a sample).
type lagAlerts struct {
	mu sync.Mutex
	n  map[string]int
	at map[string]time.Time
}

// Observe implements bulkhead.Observer.
func (a *lagAlerts) Observe(e bulkhead.Event) {
	if e.Kind != bulkhead.EventRecoveryLag {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.n == nil {
		a.n, a.at = map[string]int{}, map[string]time.Time{}
	}
	a.n[e.Lane]++
	a.at[e.Lane] = time.Now()
}

func (a *lagAlerts) get(lane string) (int, time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.n[lane], a.at[lane]
}

// stuckPoll is how often a stuck call checks back on its transaction.
const stuckPoll = 200 * time.Millisecond

func (s *Server) debugFault(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(r.URL.Query().Get("tax_stuck"))
	if err != nil || n < 1 || n > TaxConns {
		http.Error(w, fmt.Sprintf("want tax_stuck=N, 1 <= N <= %d (the tax lane's connections)", TaxConns), http.StatusBadRequest)
		return
	}
	if s.taxExec == nil {
		http.Error(w, "no tax lane in this mode", http.StatusConflict)
		return
	}
	in := make(chan error, n)
	for i := range n {
		go s.stuckTaxCall(fmt.Sprintf("o%d", 1+i), in)
	}
	deadline := time.After(5 * time.Second)
	for range n {
		select {
		case err := <-in:
			if err != nil {
				http.Error(w, "starting a stuck call: "+err.Error(), http.StatusInternalServerError)
				return
			}
		case <-deadline:
			http.Error(w, "the stuck calls did not all start in 5 s", http.StatusInternalServerError)
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"stuck": s.faults.stuck.Load()})
}

// stuckTaxCall runs one stuck call in the tax lane; in gets nil once it
// holds its transaction, or why it could not start (it retries a full lane
// or pool for 5 s).
//
//bhlint:lane tax
func (s *Server) stuckTaxCall(order string, in chan<- error) {
	started := false
	start := func(err error) {
		if !started {
			started = true
			in <- err
		}
	}
	give := time.Now().Add(5 * time.Second)
	for {
		err := s.taxExec.Do(context.Background(), func(ctx context.Context) error {
			// The defect: the transaction outlives the lane's deadline and
			// MaxRunTime.
			work := context.WithoutCancel(ctx)
			tx, err := s.taxDB.Begin(ctx)
			if err != nil {
				return err
			}
			defer func() { _ = tx.Rollback(work) }()
			if _, err := tx.Exec(work, `SELECT id FROM orders WHERE id = $1 FOR UPDATE`, order); err != nil {
				return err
			}
			s.faults.stuck.Add(1)
			defer s.faults.stuck.Add(-1)
			start(nil)
			for {
				time.Sleep(stuckPoll)
				if _, err := tx.Exec(work, `SELECT 1`); err != nil {
					s.faults.ended.Add(1)
					return nil // its session was ended: it gives the connection back
				}
			}
		})
		if started {
			return
		}
		if err == nil || (!errors.Is(err, bulkhead.ErrRejected) && !isPoolRejection(err)) || time.Now().After(give) {
			start(fmt.Errorf("tax lane: %v", err))
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}
