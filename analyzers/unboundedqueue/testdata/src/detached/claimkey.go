package detached // want package:`servedElsewhere\(1\)`

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

// A claim that answers with the record it made, nil when the key is taken
// (sftpgo's RetentionChecks.Add).
type Check struct{ User string }

type Checks struct {
	sync.Mutex
	list []Check
}

func (c *Checks) Add(user string) *Check { // want Add:"claimsUnderLock"
	c.Lock()
	defer c.Unlock()
	for _, v := range c.list {
		if v.User == user {
			return nil
		}
	}
	check := Check{User: user}
	c.list = append(c.list, check)
	return &check
}

type Checker struct {
	checks *Checks
	mails  *mails.App
}

func (ck *Checker) start(w http.ResponseWriter, r *http.Request) {
	c := ck.checks.Add(r.FormValue("user"))
	if c == nil {
		http.Error(w, "a check is running", http.StatusConflict)
		return
	}
	go func() { _ = mails.SendOTP(ck.mails, c.User) }()
}
