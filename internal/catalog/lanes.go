package catalog

import (
	"go/types"
	"slices"
	"strings"
)

// RuntimePath is the import path of bhlint's runtime. The linter knows the
// runtime's types by path and name; it never imports it.
const RuntimePath = "github.com/bhlint/bhlint/bulkhead"

// LaneTypedTypes are the runtime's generic types whose first type argument
// names a lane: bulkhead.Executor[CardAuth] runs work in lane card_auth,
// bulkhead.DB[Tax] is a pool of lane tax. Keyed by import path, then type
// name. Kind says what the type is: "executor" or a resource noun.
var LaneTypedTypes = map[string]map[string]string{
	RuntimePath:               {"Executor": "executor"},
	RuntimePath + "/lanedb":   {"DB": "pool"},
	RuntimePath + "/lanepgx":  {"Pool": "pool"},
	RuntimePath + "/lanehttp": {"Client": "HTTP client"},
	RuntimePath + "/fleet":    {"Limiter": "fleet-wide limit"},
}

// LaneRunners are the calls that run a function in the lane of the executor
// passed to them (as receiver or argument): the function argument at the
// given index (receiver = 0) is an entry point of that lane.
var LaneRunners = map[string]int{
	"(*" + RuntimePath + ".Executor).Do":      2,
	"(*" + RuntimePath + ".Executor).Handler": 1,
	RuntimePath + ".Call":                     2,
}

// ResourceTypes are the types of shared, fixed-size resources a lane may own:
// database pools and outbound clients. Keyed by types.TypeString; the value
// is the noun a message uses. An ORM or query-builder handle wraps one
// *sql.DB and is that pool: gorm's *gorm.DB (jinzhu/gorm v1 and gorm.io),
// pocketbase/dbx's *dbx.DB and its dbx.Builder interface (what pocketbase
// keeps its pools in), xorm's *xorm.Engine and *xorm.EngineGroup, bun's
// *bun.DB. A prepared statement (*sql.Stmt, *sqlx.Stmt,
// *sqlx.NamedStmt) is a use of the pool it was prepared on.
var ResourceTypes = map[string]string{
	"*database/sql.DB":                      "database pool",
	"*github.com/jmoiron/sqlx.DB":           "database pool",
	"*github.com/jackc/pgx/v5/pgxpool.Pool": "database pool",
	"*github.com/jinzhu/gorm.DB":            "database pool",
	"*gorm.io/gorm.DB":                      "database pool",
	"*github.com/pocketbase/dbx.DB":         "database pool",
	"github.com/pocketbase/dbx.Builder":     "database pool",
	// A statement prepared on a pool runs on that pool's connections.
	"*database/sql.Stmt":                   "database pool",
	"*github.com/jmoiron/sqlx.Stmt":        "database pool",
	"*github.com/jmoiron/sqlx.NamedStmt":   "database pool",
	"*net/http.Client":                     "HTTP client",
	"*net/http.Transport":                  "HTTP transport",
	"net/http.RoundTripper":                "HTTP transport",
	"*github.com/redis/go-redis/v9.Client": "Redis client",
	// xorm: an Engine holds one *sql.DB; an EngineGroup, the primary's and
	// the replicas' pools, all of which every caller shares.
	"*xorm.io/xorm.Engine":      "database pool",
	"*xorm.io/xorm.EngineGroup": "database pool",
	// uptrace/bun: *bun.DB embeds the *sql.DB it wraps.
	"*github.com/uptrace/bun.DB": "database pool",
	// go-redis v8 and v9's other clients, and redigo's pool.
	"*github.com/go-redis/redis/v8.Client":         "Redis client",
	"*github.com/go-redis/redis/v8.ClusterClient":  "Redis client",
	"github.com/go-redis/redis/v8.UniversalClient": "Redis client",
	"*github.com/redis/go-redis/v9.ClusterClient":  "Redis client",
	"github.com/redis/go-redis/v9.UniversalClient": "Redis client",
	// Cmdable: the commands every go-redis client has, the interface
	// programs keep a client as.
	"github.com/go-redis/redis/v8.Cmdable":   "Redis client",
	"github.com/redis/go-redis/v9.Cmdable":   "Redis client",
	"*github.com/gomodule/redigo/redis.Pool": "Redis client",
	"*google.golang.org/grpc.ClientConn":     "gRPC connection",
	// MongoDB's driver: a Client is its connection pool (maxPoolSize), and a
	// Database or Collection it hands out runs on that pool.
	"*go.mongodb.org/mongo-driver/mongo.Client":        "database pool",
	"*go.mongodb.org/mongo-driver/mongo.Database":      "database pool",
	"*go.mongodb.org/mongo-driver/mongo.Collection":    "database pool",
	"*go.mongodb.org/mongo-driver/v2/mongo.Client":     "database pool",
	"*go.mongodb.org/mongo-driver/v2/mongo.Database":   "database pool",
	"*go.mongodb.org/mongo-driver/v2/mongo.Collection": "database pool",
	// gocql: a Session keeps a fixed number of connections per host.
	"*github.com/gocql/gocql.Session": "database pool",
}

// LanePackages are the import paths a package must reach to use a lane
// resource or executor at all.
var LanePackages = []string{
	"database/sql", "github.com/jmoiron/sqlx", "github.com/jackc/pgx/v5/pgxpool", "net/http",
	"github.com/jinzhu/gorm", "gorm.io/gorm", "github.com/pocketbase/dbx",
	"github.com/redis/go-redis/v9", "google.golang.org/grpc", RuntimePath,
	"xorm.io/xorm", "github.com/uptrace/bun", "github.com/go-redis/redis/v8", "github.com/gomodule/redigo/redis",
	RuntimePath + "/lanedb", RuntimePath + "/lanepgx", RuntimePath + "/lanehttp", RuntimePath + "/fleet",
	// The MongoDB driver's module root too: its internals (x/mongo/driver's
	// topology and connections) are the pool's own code, never a resource
	// of the program's.
	"go.mongodb.org/mongo-driver", "go.mongodb.org/mongo-driver/mongo", "go.mongodb.org/mongo-driver/v2/mongo",
	"github.com/gocql/gocql",
}

// PoolMakers maps an interface resource type to the concrete type whose
// constructors open it: where a program creates the pool it keeps in a
// dbx.Builder field is a call returning *dbx.DB.
var PoolMakers = map[string]string{
	"github.com/pocketbase/dbx.Builder": "*github.com/pocketbase/dbx.DB",
	// A Database or Collection is handed out by a Client's method: the
	// pool is opened where the Client is (mongo.Connect).
	"*go.mongodb.org/mongo-driver/mongo.Database":      "*go.mongodb.org/mongo-driver/mongo.Client",
	"*go.mongodb.org/mongo-driver/mongo.Collection":    "*go.mongodb.org/mongo-driver/mongo.Client",
	"*go.mongodb.org/mongo-driver/v2/mongo.Database":   "*go.mongodb.org/mongo-driver/v2/mongo.Client",
	"*go.mongodb.org/mongo-driver/v2/mongo.Collection": "*go.mongodb.org/mongo-driver/v2/mongo.Client",
}

// ResourceNoun returns what kind of shared resource t is, or "" if it is
// none. A lane-typed runtime pool counts, an executor does not.
func ResourceNoun(t types.Type) string {
	if noun, ok := ResourceTypes[TypeKey(t)]; ok { // none of the types is generic: TypeKey is the printer's form
		return noun
	}
	if _, kind, ok := LaneTyped(t); ok && kind != "executor" {
		return kind
	}
	return wrappedClientNoun(t)
}

// wrappedClientNoun: a program's own interface that has every method of a
// client interface of the table — defined over it (nightingale's
// `type Redis redis.Cmdable`) or embedding it — is kept as that client,
// and every value it holds is one; "" for any other type.
func wrappedClientNoun(t types.Type) string {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return ""
	}
	iface, ok := named.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 {
		return ""
	}
	// The client interface is declared in a package whose methods the
	// interface has: look its name up there.
	seen := map[*types.Package]bool{}
	for m := range iface.Methods() {
		pkg := m.Pkg()
		if pkg == nil || seen[pkg] || pkg == named.Obj().Pkg() {
			continue
		}
		seen[pkg] = true
		for _, name := range clientInterfaces[pkg.Path()] {
			client, ok := pkg.Scope().Lookup(name).(*types.TypeName)
			if !ok {
				continue
			}
			if ci, ok := client.Type().Underlying().(*types.Interface); ok && types.Implements(named, ci) {
				return ResourceTypes[pkg.Path()+"."+name]
			}
		}
	}
	return ""
}

// clientInterfaces are the interfaces of ResourceTypes, by package.
var clientInterfaces = func() map[string][]string {
	out := map[string][]string{}
	for key := range ResourceTypes {
		if strings.HasPrefix(key, "*") {
			continue
		}
		dot := strings.LastIndex(key, ".")
		out[key[:dot]] = append(out[key[:dot]], key[dot+1:])
	}
	for _, names := range out {
		slices.Sort(names)
	}
	return out
}()

// LaneTyped reports whether t (or what it points to) is one of the
// runtime's lane-typed types, and returns its lane type argument and kind.
func LaneTyped(t types.Type) (lane *types.Named, kind string, ok bool) {
	if p, isPtr := types.Unalias(t).(*types.Pointer); isPtr {
		t = p.Elem()
	}
	named, isNamed := types.Unalias(t).(*types.Named)
	if !isNamed || named.Obj().Pkg() == nil || named.TypeArgs().Len() == 0 {
		return nil, "", false
	}
	kind, ok = LaneTypedTypes[named.Obj().Pkg().Path()][named.Obj().Name()]
	if !ok {
		return nil, "", false
	}
	arg, _ := types.Unalias(named.TypeArgs().At(0)).(*types.Named)
	if arg == nil {
		return nil, "", false // a type parameter: the lane is not known here
	}
	return arg, kind, true
}

// LaneName turns a lane type's name into the lane's name as directives spell
// it, as the runtime does: CardAuth → card_auth, HTTPProxy → http_proxy.
func LaneName(typeName string) string {
	rs := []rune(typeName)
	var b strings.Builder
	for i, r := range rs {
		upper := r >= 'A' && r <= 'Z'
		if upper && i > 0 {
			prev := rs[i-1]
			prevLower := prev >= 'a' && prev <= 'z' || prev >= '0' && prev <= '9'
			nextLower := i+1 < len(rs) && rs[i+1] >= 'a' && rs[i+1] <= 'z'
			if prevLower || (prev >= 'A' && prev <= 'Z' && nextLower) {
				b.WriteByte('_')
			}
		}
		if upper {
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// TestSupportPackages are libraries for writing tests: test frameworks,
// assertion helpers and mocks. Their interfaces (testify's TestingT,
// gomock's Matcher) are implemented by *testing.T and test doubles, never by
// code on a lane's path, though the packages import net/http for their HTTP
// assertions; and a package whose every file is written against one of them
// is test support, as one whose every file imports testing (kafka-pixy's
// kafkahelper, written against gocheck).
var TestSupportPackages = []string{
	"github.com/stretchr/testify",
	"github.com/golang/mock",
	"go.uber.org/mock",
	"gopkg.in/check.v1",
	"github.com/onsi/ginkgo",
	"github.com/onsi/gomega",
	"gotest.tools",
	"github.com/smartystreets/goconvey",
	"github.com/frankban/quicktest",
}

// TestContainerPackages start throw-away containers (a database, a broker)
// for tests to run against: a file that uses one is test support even
// beside production files, since no production binary runs its services
// that way (an embedded database a server ships with, as
// fergusstrange/embedded-postgres, is not among them).
var TestContainerPackages = []string{
	"github.com/orlangure/gnomock",
	"github.com/testcontainers/testcontainers-go",
	"github.com/ory/dockertest",
}

// IsTestContainer reports whether an import path is in one of the
// TestContainerPackages or below one.
func IsTestContainer(path string) bool { return InPackages(path, TestContainerPackages) }

// IsTestSupport reports whether an import path is in one of the
// TestSupportPackages or below one.
func IsTestSupport(path string) bool { return InPackages(path, TestSupportPackages) }

// NonProductionDirs are the directory names Go projects keep code in that
// no production binary runs: tests, their harnesses and data (test, tests,
// e2e, testdata, testutil: the layout the go tool and the community's
// project layout give them) and development tooling (hack, devtools). tools
// and examples are not among them: some projects ship library code there
// (pocketbase's tools/cron runs in every server).
var NonProductionDirs = []string{"test", "tests", "e2e", "testdata", "testutil", "testutils", "hack", "devtools"}

// InNonProductionDir reports whether a package path relative to its module's
// root has one of the NonProductionDirs among its elements.
func InNonProductionDir(rel string) bool {
	for elem := range strings.SplitSeq(rel, "/") {
		if slices.Contains(NonProductionDirs, elem) {
			return true
		}
	}
	return false
}

// InPackages reports whether an import path is one of roots or a package
// below one of them.
func InPackages(path string, roots []string) bool {
	for _, root := range roots {
		if path == root || strings.HasPrefix(path, root+"/") {
			return true
		}
	}
	return false
}
