// Package chirender answers through go-chi/render, which takes the status
// through the request's context (sftpgo's sendAPIResponse).
package chirender

import (
	"context"
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

// sendStored stores the code under render's key itself, as sftpgo's
// sendAPIResponse does: render.JSON writes it all the same.
func sendStored(w http.ResponseWriter, r *http.Request, message string, code int) { // want sendStored:"writesStatus\\(param 3\\)"
	ctx := context.WithValue(r.Context(), render.StatusCtxKey, code)
	render.JSON(w, r.WithContext(ctx), apiResponse{Message: message})
}

func tooManyConnections(w http.ResponseWriter, r *http.Request) {
	sendStored(w, r, "too many connections", http.StatusTooManyRequests) // want `handler tooManyConnections writes 429 Too Many Requests`
}

type otherKey struct{}

// storesOtherValue keeps something else in the context: no status. Silent.
func storesOtherValue(w http.ResponseWriter, r *http.Request) {
	ctx := context.WithValue(r.Context(), otherKey{}, http.StatusTooManyRequests)
	render.JSON(w, r.WithContext(ctx), apiResponse{Message: "ok"})
}

var _ = []http.HandlerFunc{tooManyConnections, storesOtherValue}
