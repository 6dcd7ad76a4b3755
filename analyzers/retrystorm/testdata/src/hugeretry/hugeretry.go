// Package hugeretry has functions over the budget the test sets
// (-budget=40): one with a loop is reported as skipped, visibly; one with no
// loop has nothing to retry and is not worth a word.
package hugeretry

import (
	"net/http"
	"time"
)

func retryInHugeFunction(xs []int) int { // want `skipped: function retryInHugeFunction too large \(\d+ instructions > budget 40\)`
	total := 0
	for i := range xs {
		total += xs[i] * 2
		total -= xs[i] / 3
		total ^= xs[i] << 1
		if total > 1000 {
			total %= 997
		}
	}
	for i := range xs {
		total -= xs[i] * 2
		total -= xs[i] / 3
		total ^= xs[i] << 1
		if total > 1000 {
			total %= 997
		}
	}
	for i := range xs {
		total += xs[i] * 2
		total -= xs[i] / 3
		total |= xs[i] << 1
		if total > 1000 {
			total %= 997
		}
	}
	for {
		resp, err := http.Get("https://tax.example/quote")
		if err == nil {
			resp.Body.Close()
			return total
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func hugeWithoutLoops(x int) int {
	x = x*2 + 1
	x = x*3 + 2
	x = x*5 + 3
	x = x*7 + 4
	x = x*11 + 5
	if x > 1000 {
		x %= 997
	}
	x = x*2 + 1
	x = x*3 + 2
	x = x*5 + 3
	x = x*7 + 4
	x = x*11 + 5
	if x > 1000 {
		x %= 997
	}
	x = x*2 + 1
	x = x*3 + 2
	x = x*5 + 3
	x = x*7 + 4
	x = x*11 + 5
	return x
}

func retryInSmallFunction() {
	for { // want `ERR_UNBOUNDED_RETRY_DETECTED: this loop retries http.Get`
		resp, err := http.Get("https://tax.example/quote")
		if err == nil {
			resp.Body.Close()
			return
		}
	}
}
