// Package chirender answers through go-chi/render, which takes the status
// through the request's context (sftpgo's sendAPIResponse).
package chirender

import (
	"net/http"

	"github.com/go-chi/render"
)

type apiResponse struct {
	Error   string `json:"error,omitempty"`
	Message string `json:"message"`
}

// sendAPIResponse hands the code to render: the caller's status is written.
func sendAPIResponse(w http.ResponseWriter, r *http.Request, err error, message string, code int) { // want sendAPIResponse:"writesStatus\\(param 4\\)"
	var errStr string
	if err != nil {
		errStr = err.Error()
	}
	render.Status(r, code)
	render.JSON(w, r, apiResponse{Error: errStr, Message: message})
}

func quotaExceeded(w http.ResponseWriter, r *http.Request) {
	sendAPIResponse(w, r, nil, "quota exceeded", http.StatusTooManyRequests) // want `handler quotaExceeded writes 429 Too Many Requests`
}

func busy(w http.ResponseWriter, r *http.Request) {
	render.Status(r, http.StatusServiceUnavailable) // want `handler busy writes 503 Service Unavailable`
	render.JSON(w, r, apiResponse{Message: "busy"})
}

// ---- traps: must stay silent ----

// quotaExceededAfter says when to come back.
func quotaExceededAfter(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Retry-After", "30")
	sendAPIResponse(w, r, nil, "quota exceeded", http.StatusTooManyRequests)
}

// notFound is no refusal.
func notFound(w http.ResponseWriter, r *http.Request) {
	sendAPIResponse(w, r, nil, "no such share", http.StatusNotFound)
}

var _ = []http.HandlerFunc{quotaExceeded, busy, quotaExceededAfter, notFound}
