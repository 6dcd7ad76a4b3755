package detached

import (
	"net/http"
	"sync"

	"example.com/mails"
	"example.com/scans"
)

// After sftpgo's quota scans: a function that, under a lock, refuses a key
// already among the active ones and records it before saying yes makes a
// claim per key (claimsUnderLock). A scan starts only when the claim
// succeeds: one per folder at a time, however many requests ask.
type ActiveScans struct {
	sync.Mutex
	names []string
}

func (s *ActiveScans) Add(name string) bool { // want Add:"claimsUnderLock"
	s.Lock()
	defer s.Unlock()
	for _, n := range s.names {
		if n == name {
			return false
		}
	}
	s.names = append(s.names, name)
	return true
}

// Busy reads the active scans under the lock but records nothing: a
// question, not a claim.
func (s *ActiveScans) Busy(name string) bool {
	s.Lock()
	defer s.Unlock()
	for _, n := range s.names {
		if n == name {
			return true
		}
	}
	return false
}

type Scanner struct {
	scans *ActiveScans
	mails *mails.App
}

func (sc *Scanner) startScan(w http.ResponseWriter, r *http.Request) {
	name := r.FormValue("folder")
	if !sc.scans.Add(name) {
		http.Error(w, "a scan is running", http.StatusConflict)
		return
	}
	go func() { _ = mails.SendOTP(sc.mails, name) }()
}

func (sc *Scanner) startUnlessBusy(w http.ResponseWriter, r *http.Request) {
	name := r.FormValue("folder")
	if sc.scans.Busy(name) {
		http.Error(w, "a scan is running", http.StatusConflict)
		return
	}
	go func() { _ = mails.SendOTP(sc.mails, name) }() // want `ERR_UNBOUNDED_QUEUE_DETECTED: goroutine per request: this go statement starts`
}

// The same claim made by another package's function (a fact).
type Retention struct {
	active *scans.Active
	mails  *mails.App
}

func (rt *Retention) start(w http.ResponseWriter, r *http.Request) {
	user := r.FormValue("user")
	if !rt.active.Add(user) {
		http.Error(w, "a check is running", http.StatusConflict)
		return
	}
	go func() {
		defer rt.active.Remove(user)
		_ = mails.SendOTP(rt.mails, user)
	}()
}
