package constants

import "testing"

// A claim in a test file is not reported.
func TestClaim(t *testing.T) {
	_ = `SELECT id, tenant_id FROM jobs ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED`
}
