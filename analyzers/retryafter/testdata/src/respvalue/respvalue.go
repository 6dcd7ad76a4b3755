// Package respvalue: handlers that return their response for a framework
// to write (matrix-org/util's JSONResponse, as dendrite's handlers do).
package respvalue

import "net/http"

// JSONResponse is a framework's response value: its Code and Headers are
// what the framework writes.
type JSONResponse struct {
	Code    int
	JSON    any
	Headers map[string]string
}

type limiter struct{ slots chan struct{} }

// limit refuses with a 429 and no Retry-After (dendrite's RateLimits.Limit).
func (l *limiter) limit(r *http.Request) *JSONResponse {
	select {
	case l.slots <- struct{}{}:
		return nil
	default:
		return &JSONResponse{ // want `limit builds a response carrying HTTP 429 Too Many Requests, returned without retry guidance; set the Retry-After header on the response before returning it`
			Code: http.StatusTooManyRequests,
			JSON: "slow down",
		}
	}
}

// limitWithHeader says when to come back among its headers: silent.
func (l *limiter) limitWithHeader(r *http.Request) *JSONResponse {
	select {
	case l.slots <- struct{}{}:
		return nil
	default:
		return &JSONResponse{Code: http.StatusTooManyRequests, Headers: map[string]string{"retry-after": "5"}}
	}
}

// busy sets headers, but not Retry-After.
func busy(r *http.Request) JSONResponse {
	return JSONResponse{Code: http.StatusServiceUnavailable, Headers: map[string]string{"Content-Type": "application/json"}} // want `busy builds a response carrying HTTP 503`
}

// withHeaders takes the headers from its caller, who may have set it: silent.
func withHeaders(r *http.Request, h map[string]string) JSONResponse {
	return JSONResponse{Code: http.StatusServiceUnavailable, Headers: h}
}

// notFound answers a 404: no shed.
func notFound(r *http.Request) JSONResponse { return JSONResponse{Code: http.StatusNotFound} }

// Record has a status and no headers (an audit entry): not a response.
type Record struct {
	Code int
	Note string
}

func record(r *http.Request) *Record { return &Record{Code: http.StatusServiceUnavailable} }

// MessageResponse builds a response with the code its caller chooses.
func MessageResponse(code int, msg string) JSONResponse { // want MessageResponse:"shedError\\(code param 0\\)"
	return JSONResponse{Code: code, JSON: msg}
}

func tooMany(r *http.Request) JSONResponse {
	return MessageResponse(http.StatusTooManyRequests, "wait") // want `tooMany builds a response carrying HTTP 429`
}

func accepted(r *http.Request) JSONResponse {
	return MessageResponse(http.StatusAccepted, "queued")
}
