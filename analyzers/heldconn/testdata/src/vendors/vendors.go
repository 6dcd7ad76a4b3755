// Package vendors reaches the network only through another package.
package vendors

import "httpx"

func Score(card string) (int, error) {
	resp, err := httpx.Post(httpx.Format("fraud.example", "/score"), card)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return resp.StatusCode, nil
}

// Normalize is pure computation.
func Normalize(card string) string { return card }
