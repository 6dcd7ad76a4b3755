// Package megalike is a dependency's client that starts a goroutine on
// every login, posting with no deadline (go-mega's MultiFactorLogin).
package megalike

import "net/http"

type Mega struct{ client *http.Client }

// Login starts, on every call, a goroutine that posts with no deadline.
func (m *Mega) Login(user string) error {
	go func() {
		resp, err := http.Post("http://mega.example/api", "application/json", nil)
		if err == nil {
			resp.Body.Close()
		}
	}()
	return nil
}
