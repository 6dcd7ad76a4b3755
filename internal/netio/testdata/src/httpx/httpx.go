package httpx

import (
	"net/http"
	"strings"
)

var client = &http.Client{}

func Post(url, body string) (*http.Response, error) { // want Post:`mayNetwork\(\(\*http.Client\).Do\)`
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	return client.Do(req)
}

// Format builds a URL and makes no call: no fact.
func Format(host, path string) string { return "https://" + host + path }
