// Package httpx is a thin client wrapper: it reaches the network.
package httpx

import (
	"net/http"
	"strings"
)

var client = &http.Client{}

func Post(url, body string) (*http.Response, error) {
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	return client.Do(req)
}

// Format builds a URL and makes no call.
func Format(host, path string) string { return "https://" + host + path }
