package bulkhead

import "context"

type tenantKey struct{}

// WithTenant returns ctx carrying the tenant (customer, account, API key)
// its work is done for. Per-tenant quotas (package tenant) read it with
// [TenantOf]; the HTTP middleware sets it from MiddlewareConfig.Tenant.
func WithTenant(ctx context.Context, tenant string) context.Context {
	return context.WithValue(ctx, tenantKey{}, tenant)
}

// TenantOf is the tenant set with [WithTenant], or "" for none.
func TenantOf(ctx context.Context) string {
	t, _ := ctx.Value(tenantKey{}).(string)
	return t
}
