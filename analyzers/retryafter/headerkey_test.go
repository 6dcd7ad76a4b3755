package retryafter

import (
	"net/http"
	"testing"
)

// isRetryAfterKey agrees with net/http's canonical form, which the vet tool
// does not link.
func TestIsRetryAfterKeyMatchesCanonicalForm(t *testing.T) {
	for _, key := range []string{
		"Retry-After", "retry-after", "RETRY-AFTER", "rEtRy-AfTeR",
		"Retry-After ", " Retry-After", "Retry_After", "RetryAfter", "Retry-Afte", "Retry-Afterr",
		"X-Retry-After", "Retry-After-Ms", "", "retry\u212aafter", "Retry-\u017fafter",
	} {
		want := http.CanonicalHeaderKey(key) == "Retry-After"
		if got := isRetryAfterKey(key); got != want {
			t.Errorf("isRetryAfterKey(%q) = %t, net/http's canonical form says %t", key, got, want)
		}
	}
}
