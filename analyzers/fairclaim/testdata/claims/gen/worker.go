package gen

import "context"

// Next is hand-written code in the generated package: the claim is reported
// at its call here.
func Next(ctx context.Context, q *Queries) (ClaimJobRow, error) {
	return q.ClaimJob(ctx) // want `ClaimJob runs the generated query ClaimJob, which takes the next row of jobs in ORDER BY created_at only, .*\(tenant_id, seen in its RETURNING list\)`
}
