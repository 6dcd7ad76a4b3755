// Package authz is a decorator of the generated store (an authorization
// layer, as coder's dbauthz): each method checks the caller's rights and
// hands the call on to the same method of the store it wraps. The claim is
// reported where the decorator is called, not at its forwarding call.
package authz

import (
	"context"
	"errors"

	"example.com/claims/gen"
)

type querier struct {
	db    gen.Querier
	allow bool
}

// New wraps q.
func New(q gen.Querier, allow bool) gen.Querier { return &querier{db: q, allow: allow} }

// ClaimJob forwards: it runs the claim for its callers.
func (q *querier) ClaimJob(ctx context.Context) (gen.ClaimJobRow, error) { // want ClaimJob:`runsClaim\(ClaimJob\)`
	if !q.allow {
		return gen.ClaimJobRow{}, errors.New("forbidden")
	}
	return q.db.ClaimJob(ctx)
}

func (q *querier) ClaimTenantJob(ctx context.Context, tenantID string) (gen.ClaimJobRow, error) {
	return q.db.ClaimTenantJob(ctx, tenantID)
}

// NextJob is no decorator (another name): the claim is used here.
func (q *querier) NextJob(ctx context.Context) (gen.ClaimJobRow, error) {
	return q.db.ClaimJob(ctx) // want `ClaimJob runs the generated query ClaimJob`
}

// Work calls the decorator: reported here.
func Work(ctx context.Context, q gen.Querier) error {
	_, err := New(q, true).ClaimJob(ctx) // want `ClaimJob runs the generated query ClaimJob`
	return err
}

// WorkDirect calls the decorator's method on its concrete type: reported.
func WorkDirect(ctx context.Context, q *querier) error {
	_, err := q.ClaimJob(ctx) // want `ClaimJob runs the generated query ClaimJob`
	return err
}
