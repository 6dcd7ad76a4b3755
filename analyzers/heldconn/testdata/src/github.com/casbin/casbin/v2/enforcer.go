// Package casbin is a stub of github.com/casbin/casbin/v2: its enforcer
// persists policy changes through the adapter it was built with.
package casbin

// Adapter is where the policy is stored (gorm-adapter: a database).
type Adapter interface {
	AddPolicy(sec, ptype string, rule []string) error
}

type Enforcer struct{ adapter Adapter }

// CachedEnforcer embeds *Enforcer, as the library's does.
type CachedEnforcer struct{ *Enforcer }

func NewCachedEnforcer(a Adapter) (*CachedEnforcer, error) {
	return &CachedEnforcer{&Enforcer{adapter: a}}, nil
}

func (e *Enforcer) AddPolicies(rules [][]string) (bool, error) {
	for _, r := range rules {
		if err := e.adapter.AddPolicy("p", "p", r); err != nil {
			return false, err
		}
	}
	return true, nil
}

func (e *Enforcer) Enforce(rvals ...any) (bool, error) { return true, nil }
