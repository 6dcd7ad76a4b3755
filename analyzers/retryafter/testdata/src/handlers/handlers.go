// Package handlers holds HTTP handlers that shed load, well and badly.
package handlers

import (
	"net/http"
	"time"

	"shedding"
)

var saturated bool

// ---- positives ----

// shedNoHeader is the tax lane shedding without saying when to come back.
func shedNoHeader(w http.ResponseWriter, r *http.Request) {
	if saturated {
		w.WriteHeader(http.StatusServiceUnavailable) // want `ERR_MISSING_RETRY_AFTER: handler shedNoHeader writes 503 Service Unavailable on a path where Retry-After was not set; set w.Header\(\).Set\("Retry-After", "5"\) before writing it`
		return
	}
	w.Write([]byte("ok"))
}

// errorTooMany rejects with http.Error and 429.
func errorTooMany(w http.ResponseWriter, r *http.Request) {
	http.Error(w, "slow down", 429) // want `handler errorTooMany writes 429 Too Many Requests on a path`
}

type Lane struct{ full bool }

// ServeHTTP sets the header on one branch only.
func (l *Lane) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		w.Header().Set("Retry-After", "5")
	}
	if l.full {
		w.WriteHeader(http.StatusServiceUnavailable) // want `handler \(\*handlers.Lane\).ServeHTTP writes 503 Service Unavailable on a path where`
	}
}

// statusVariable writes a status that can hold 503.
func statusVariable(w http.ResponseWriter, r *http.Request) {
	status := http.StatusOK
	if saturated {
		status = http.StatusServiceUnavailable
	}
	w.WriteHeader(status) // want `writes 503 Service Unavailable`
}

// helperWrites passes 503 to a helper in another package that does not set it.
func helperWrites(w http.ResponseWriter, r *http.Request) {
	shedding.WriteJSON(w, http.StatusServiceUnavailable, map[string]string{"error": "busy"}) // want `handler helperWrites writes 503 Service Unavailable`
}

// helperTooMany calls a helper that writes 429 on its own.
func helperTooMany(w http.ResponseWriter, r *http.Request) {
	shedding.TooMany(w) // want `handler helperTooMany writes 429 Too Many Requests`
}

// literal is registered on a mux.
func literal(mux *http.ServeMux) {
	mux.HandleFunc("/quote", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTooManyRequests) // want `the handler literal in literal writes 429`
	})
}

// deferredHeader sets the header after the status has gone.
func deferredHeader(w http.ResponseWriter, r *http.Request) {
	defer w.Header().Set("Retry-After", "5")
	w.WriteHeader(http.StatusServiceUnavailable) // want `writes 503`
}

// ---- traps: must stay silent ----

// shedWithHeader sets Retry-After first.
func shedWithHeader(w http.ResponseWriter, r *http.Request) {
	if saturated {
		w.Header().Set("Retry-After", "5")
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	w.Write([]byte("ok"))
}

// helperSets sets the header through a helper in another package.
func helperSets(w http.ResponseWriter, r *http.Request) {
	shedding.SetRetryAfter(w, 5*time.Second)
	http.Error(w, "tax lane saturated", http.StatusServiceUnavailable)
}

// helperSetsAndWrites leaves everything to a helper that sets then writes.
func helperSetsAndWrites(w http.ResponseWriter, r *http.Request) {
	shedding.Unavailable(w, "tax lane saturated")
}

// helperWithRetry passes 503 to a helper that sets the header for it.
func helperWithRetry(w http.ResponseWriter, r *http.Request) {
	shedding.WithRetry(w, http.StatusServiceUnavailable)
}

// localSetter sets the header in this package.
func localSetter(w http.ResponseWriter) { // want localSetter:"setsRetryAfter"
	w.Header().Add("Retry-After", "5")
}

func localHelperSets(w http.ResponseWriter, r *http.Request) {
	localSetter(w)
	w.WriteHeader(http.StatusTooManyRequests)
}

// statusBranchWithHeader sets the header on the branch that picks 503.
func statusBranchWithHeader(w http.ResponseWriter, r *http.Request) {
	status := http.StatusOK
	if saturated {
		w.Header().Set("Retry-After", "5")
		status = http.StatusServiceUnavailable
	}
	w.WriteHeader(status)
}

// healthz is a probe: its 503 is for the load balancer.
func healthz(w http.ResponseWriter, r *http.Request) {
	if saturated {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

type Readiness struct{ ok bool }

func (p *Readiness) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !p.ok {
		http.Error(w, "not ready", http.StatusServiceUnavailable)
	}
}

func probeRoutes(mux *http.ServeMux) {
	mux.HandleFunc("/livez", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	})
}

// badRequest is a 400.
func badRequest(w http.ResponseWriter, r *http.Request) {
	http.Error(w, "bad request", http.StatusBadRequest)
}

// outbound compares a response's status to 429: reading, not writing.
func outbound(w http.ResponseWriter, r *http.Request) {
	resp, err := http.Get("http://tax/quote")
	if err != nil {
		http.Error(w, "upstream", http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusTooManyRequests {
		http.Error(w, "upstream busy", http.StatusBadGateway)
	}
}

// suppressed is reviewed: the edge proxy adds Retry-After.
func suppressed(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusServiceUnavailable) //bhlint:ignore ERR_MISSING_RETRY_AFTER the edge proxy adds Retry-After to every 503
}

func probeHandle(mux *http.ServeMux) {
	mux.Handle("/readyz", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "draining", http.StatusServiceUnavailable)
	}))
}

// routedShed is registered on an ordinary route: reported.
func routedShed(mux *http.ServeMux) {
	mux.Handle("/tax/quote", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "tax lane saturated", http.StatusServiceUnavailable) // want `the handler literal in routedShed writes 503`
	}))
}

var errBusy, errThrottled error

func admit(r *http.Request) error { return nil }

// statusSwitch picks the status by error; two of the cases shed.
func statusSwitch(w http.ResponseWriter, r *http.Request) {
	err := admit(r)
	var status int
	switch err {
	case nil:
		status = http.StatusOK
	case errBusy:
		status = http.StatusServiceUnavailable
	case errThrottled:
		w.Header().Set("Retry-After", "1")
		status = http.StatusTooManyRequests
	default:
		status = http.StatusInternalServerError
	}
	w.WriteHeader(status) // want `writes 503 Service Unavailable on a path where`
}

type recorder struct {
	http.ResponseWriter
	status int
}

func (rec *recorder) WriteHeader(code int) {
	rec.status = code
	rec.ResponseWriter.WriteHeader(code)
}

// wrapped writes through a recording wrapper.
func wrapped(w http.ResponseWriter, r *http.Request) {
	rec := &recorder{ResponseWriter: w}
	rec.WriteHeader(http.StatusTooManyRequests) // want `handler wrapped writes 429`
}

func statusFor(err error) int { return http.StatusInternalServerError }

// computedStatus writes a status the analyzer cannot read: not reported.
func computedStatus(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(statusFor(nil))
}
