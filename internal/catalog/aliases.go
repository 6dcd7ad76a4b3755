package catalog

import "strings"

// moduleAliases are libraries published under two import paths with one
// API, as far as the catalogue reads it: xorm moved from
// github.com/go-xorm/xorm (v0.7 and before, which services such as gocron
// still build with) to xorm.io/xorm; pgx v4 and v5 share the pool's
// connection-taking methods (Acquire, Begin, Query, Exec, Ping…), the
// transaction's and rows' releases and the pool's default maximum
// (exposure-notifications-server's pgxpool is v4). The catalogue names the
// current path; a key or package naming it names the old one too, so
// every table covers both. A key the old version lacks (v5's pgxpool.New)
// matches nothing there; what only the old one has (v4's pgxpool.Connect,
// its pool's BeginFunc) has rows of its own.
var moduleAliases = map[string]string{
	"xorm.io/xorm":                    "github.com/go-xorm/xorm",
	"github.com/jackc/pgx/v5":         "github.com/jackc/pgx/v4",
	"github.com/jackc/pgx/v5/pgxpool": "github.com/jackc/pgx/v4/pgxpool",
	"github.com/jackc/pgx/v5/stdlib":  "github.com/jackc/pgx/v4/stdlib",
	// Brokers' clients that moved (brokers.go).
	"github.com/IBM/sarama":          "github.com/Shopify/sarama",
	"github.com/rabbitmq/amqp091-go": "github.com/streadway/amqp",
	"github.com/go-zookeeper/zk":     "github.com/samuel/go-zookeeper/zk",
}

// aliased returns key with each aliased module path in it replaced by its
// alias (as a package path, or before a dot: "(*xorm.io/xorm.Engine).Get",
// "*xorm.io/xorm.Engine"), and whether there was one.
func aliased(key string) (string, bool) {
	for from, to := range moduleAliases {
		if key == from {
			return to, true
		}
		if strings.Contains(key, from+".") {
			return strings.ReplaceAll(key, from+".", to+"."), true
		}
	}
	return key, false
}

// withAliases is keys followed by the aliases of those that have one.
func withAliases(keys []string) []string {
	out := keys
	for _, k := range keys {
		if alt, ok := aliased(k); ok {
			out = append(out[:len(out):len(out)], alt)
		}
	}
	return out
}

// aliasKeys adds to m, for each key with an alias, the alias with the same
// value (an entry the catalogue already has for the alias is kept).
func aliasKeys[V any](m map[string]V) {
	for k, v := range m {
		if alt, ok := aliased(k); ok {
			if _, has := m[alt]; !has {
				m[alt] = v
			}
		}
	}
}

// The maps and package lists keyed by paths cover the aliases too; tables
// (Table) do when they are indexed.
func init() {
	aliasKeys(ResourceTypes)
	aliasKeys(HeldCalls)
	aliasKeys(PoolOpeners)
	aliasKeys(PgxConfigParsers)
	aliasKeys(TxCallbacks)
	aliasKeys(ReleasingFuncs)
	LanePackages = withAliases(LanePackages)
	DBPackages = withAliases(DBPackages)
	BudgetPackages = withAliases(BudgetPackages)
	ORMContextHandles = withAliases(ORMContextHandles)
	NetworkPackages = withAliases(NetworkPackages)
	QueuePackages = withAliases(QueuePackages)
	DefaultBoundedPools = withAliases(DefaultBoundedPools)
	for _, k := range HeldKinds {
		if alt, ok := aliased(k.Type); ok {
			k.Type = alt
			HeldKinds = append(HeldKinds, k)
		}
	}
}
