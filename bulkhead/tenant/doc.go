// Package tenant keeps one tenant from taking a lane from the others:
// per-tenant quotas inside a bulkhead lane.
//
// A lane bounds how much of a service one class of work may hold; inside
// it, one customer's import, five-year report or retry loop can still hold
// every slot and slow everyone else in the lane. A [Lane] wraps a lane's
// executor and admits each call against its tenant's quotas first:
//
//   - a concurrency quota (Config.MaxConcurrent): calls of one tenant
//     running at once in the lane. Rate alone does not catch expensive
//     requests: ten slow reports a second are within any sane rate and
//     still fill the lane;
//   - a token bucket (Config.Rate, Config.Burst; golang.org/x/time/rate's
//     Limiter arithmetic, kept in the tenant's state): each call takes one
//     token, and work that learns its cost as it runs (rows imported,
//     tokens generated) charges the rest after the fact with [Lane.Charge]
//     or [Ticket.Charge], so the tenant's next calls pay for it;
//   - a fair share, work-conserving: while fewer than Config.ContendedAt
//     calls run in the lane, any tenant may use the idle capacity. Past it,
//     the lane is contended and a tenant already running its share
//     (ContendedAt divided among the tenants with work running, rounded up)
//     or more is refused, so the tenant furthest over its share is the one
//     turned away and the capacity above ContendedAt is kept for the
//     tenants under theirs.
//
// A refusal is a [*bulkhead.Rejection] with a tenant reason
// (bulkhead.ReasonTenantConcurrency, ReasonTenantRate, ReasonTenantShare),
// status 429, code ERR_<LANE>_TENANT_QUOTA_EXCEEDED, the tenant and the
// quota named; RetryAfter is when the bucket's next token comes for the
// rate, Config.RetryAfter for the others. The HTTP middleware answers it as
// it answers every rejection (bulkhead.WriteRejection): 429, Retry-After and
// an RFC 9457 body whose "quota" member names the quota.
//
// The tenant of a call is Config.Key of its context, by default
// [bulkhead.TenantOf]: set it with bulkhead.WithTenant, or for HTTP with
// bulkhead.MiddlewareConfig.Tenant. A call without a tenant is not
// counted against any.
//
// # Memory
//
// State is kept only for tenants seen lately: about 100 bytes each, the
// table's share included (98 measured at 10^6 tenants), in 256 shards. A
// tenant with nothing running that has not been seen for Config.IdleAfter
// (and whose bucket has had time to fill again, so forgetting it forgives
// nothing) is dropped when its shard next looks for room. At most Config.MaxTenants are tracked; past that, new
// tenants of a full shard share one overflow tenant's quotas until room
// is made, so memory stays bounded whatever the number of keys.
//
// # Metrics
//
// [Lane.Totals] and [Lane.Top] give the lane's totals and its top
// offenders without one series per tenant; promlane.NewTenants exports
// them to Prometheus.
package tenant
