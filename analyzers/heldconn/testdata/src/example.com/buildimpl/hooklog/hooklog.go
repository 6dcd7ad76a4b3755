// Package hooklog writes log lines to a webhook: an io.Writer that posts.
package hooklog

import (
	"bytes"
	"net/http"
)

type Writer struct{ URL string }

func (w Writer) Write(p []byte) (int, error) {
	resp, err := http.Post(w.URL, "text/plain", bytes.NewReader(p))
	if err != nil {
		return 0, err
	}
	return len(p), resp.Body.Close()
}
