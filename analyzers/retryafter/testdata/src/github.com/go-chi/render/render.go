// Package render is a stand-in for github.com/go-chi/render: Status keeps
// the status in the request's context, and JSON writes it.
package render

import (
	"context"
	"encoding/json"
	"net/http"
)

type ctxKey struct{}

var StatusCtxKey = &ctxKey{}

func Status(r *http.Request, status int) {
	*r = *r.WithContext(context.WithValue(r.Context(), StatusCtxKey, status))
}

func JSON(w http.ResponseWriter, r *http.Request, v any) {
	if status, ok := r.Context().Value(StatusCtxKey).(int); ok {
		w.WriteHeader(status)
	}
	_ = json.NewEncoder(w).Encode(v)
}
