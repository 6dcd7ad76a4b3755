// Package catalog is bhlint's one table of what counts as a network call,
// a pool acquire, a held connection and its release. Analyzers ask it; none
// keeps a list of its own. Keys are the fully-qualified names that
// (*types.Func).FullName prints, for the generic origin of instantiated
// functions, with a generic receiver's type parameters left out:
// "net/http.Get", "(*net/http.Client).Do", "(*…/bulkhead/lanedb.DB).Conn",
// "(github.com/jackc/pgx/v5.Tx).Commit". A key ending in ".*" matches every
// method of that receiver type.
package catalog

import (
	"go/types"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// NetworkCalls are calls that leave the process and wait on the network,
// and the requests of the cloud SDKs' service clients
// (ServiceClientPackages).
var NetworkCalls = newClientTable(
	// net/http: client methods and the package-level helpers.
	"(*net/http.Client).Do", "(*net/http.Client).Get", "(*net/http.Client).Post",
	"(*net/http.Client).PostForm", "(*net/http.Client).Head",
	"net/http.Get", "net/http.Post", "net/http.PostForm", "net/http.Head",
	"(*net/http.Transport).RoundTrip", "(net/http.RoundTripper).RoundTrip",
	// raw sockets and name resolution.
	"net.Dial", "net.DialTimeout", "net.DialTCP", "net.DialUDP", "net.DialIP", "net.DialUnix",
	"(*net.Dialer).Dial", "(*net.Dialer).DialContext",
	"net.LookupHost", "net.LookupIP", "net.LookupAddr", "net.LookupCNAME", "net.LookupMX",
	"(*net.Resolver).LookupHost", "(*net.Resolver).LookupIPAddr", "(*net.Resolver).LookupIP",
	"(*crypto/tls.Dialer).DialContext", "crypto/tls.Dial", "crypto/tls.DialWithDialer",
	// mail.
	"net/smtp.SendMail", "net/smtp.Dial", "(*net/smtp.Client).*",
	// mailers: gomail and its forks dial through a package variable
	// (netDialTimeout), which netio cannot follow, so their sends are rows.
	"(*gopkg.in/gomail.v2.Dialer).DialAndSend", "(*gopkg.in/gomail.v2.Dialer).Dial",
	"(*gopkg.in/mail.v2.Dialer).DialAndSend", "(*gopkg.in/mail.v2.Dialer).Dial",
	"(*github.com/go-gomail/gomail.Dialer).DialAndSend", "(*github.com/go-gomail/gomail.Dialer).Dial",
	"(*github.com/gophish/gomail.Dialer).DialAndSend", "(*github.com/gophish/gomail.Dialer).Dial",
	"(*github.com/wneessen/go-mail.Client).DialAndSend", "(*github.com/wneessen/go-mail.Client).DialAndSendWithContext",
	"(*github.com/wneessen/go-mail.Client).DialWithContext", "(*github.com/wneessen/go-mail.Client).Send",
	// gRPC: the connection and the interface generated clients call through.
	"(*google.golang.org/grpc.ClientConn).Invoke", "(*google.golang.org/grpc.ClientConn).NewStream",
	"(google.golang.org/grpc.ClientConnInterface).Invoke", "(google.golang.org/grpc.ClientConnInterface).NewStream",
	"google.golang.org/grpc.Invoke", "google.golang.org/grpc.NewClientStream",
	// go-redis v9: every command, whichever client type carries it.
	"(github.com/redis/go-redis/v9.cmdable).*", "(github.com/redis/go-redis/v9.statefulCmdable).*",
	"(github.com/redis/go-redis/v9.Cmdable).*", "(github.com/redis/go-redis/v9.StatefulCmdable).*",
	"(github.com/redis/go-redis/v9.UniversalClient).*",
	"(*github.com/redis/go-redis/v9.Client).Do", "(*github.com/redis/go-redis/v9.Client).Process",
	"(*github.com/redis/go-redis/v9.ClusterClient).Do", "(*github.com/redis/go-redis/v9.ClusterClient).Process",
	"(*github.com/redis/go-redis/v9.Ring).Do", "(*github.com/redis/go-redis/v9.Ring).Process",
	// go-redis v9's optimistic transaction: WATCH, the caller's function, UNWATCH.
	"(*github.com/redis/go-redis/v9.Client).Watch", "(*github.com/redis/go-redis/v9.ClusterClient).Watch",
	"(*github.com/redis/go-redis/v9.Ring).Watch",
	// go-redis v8 (github.com/go-redis/redis/v8), the same commands before
	// the module moved.
	"(github.com/go-redis/redis/v8.cmdable).*", "(github.com/go-redis/redis/v8.statefulCmdable).*",
	"(github.com/go-redis/redis/v8.Cmdable).*", "(github.com/go-redis/redis/v8.StatefulCmdable).*",
	"(github.com/go-redis/redis/v8.UniversalClient).*",
	"(*github.com/go-redis/redis/v8.Client).Do", "(*github.com/go-redis/redis/v8.Client).Process",
	"(*github.com/go-redis/redis/v8.ClusterClient).Do", "(*github.com/go-redis/redis/v8.ClusterClient).Process",
	"(*github.com/go-redis/redis/v8.Ring).Do", "(*github.com/go-redis/redis/v8.Ring).Process",
	"(*github.com/go-redis/redis/v8.Client).Watch", "(*github.com/go-redis/redis/v8.ClusterClient).Watch",
	"(*github.com/go-redis/redis/v8.Ring).Watch",
)

// ServiceClientPackages are the path prefixes of cloud SDKs whose
// service clients send their requests through a chain of handlers or
// policies held in function values and interfaces, which netio cannot
// follow to the net/http call at its end: AWS's (v1 and v2), Azure's and
// Google Cloud's; and of the broker and coordination clients whose every
// request takes a context and hands it to a connection goroutine (Azure's
// older Service Bus and Event Hubs clients and the AMQP 1.0 client under
// them, franz-go's admin client, etcd's client; brokers.go has the
// clients whose requests take none). A method of one of their types is a
// request (see isServiceRequest). A list, as the mailers' rows are,
// because the SDKs hide the one principle (the request reaches the
// network) behind values.
var ServiceClientPackages = []string{
	"github.com/aws/aws-sdk-go/service/",
	"github.com/aws/aws-sdk-go-v2/service/",
	"github.com/Azure/azure-sdk-for-go/sdk/",
	"cloud.google.com/go/",
	"github.com/Azure/azure-service-bus-go",
	"github.com/Azure/azure-event-hubs-go/",
	"github.com/Azure/go-amqp",
	"pack.ag/amqp",
	"github.com/twmb/franz-go/pkg/kadm",
	"go.etcd.io/etcd/client/v3",
}

// isServiceRequest reports whether fn is an exported method of a type of
// one of the client packages that sends a request: its last result is an
// error and it is handed a context.Context first (v2, Azure, Google Cloud,
// v1's XxxWithContext), or it is a v1 client's operation (ReceiveMessage),
// not the builder of one (ReceiveMessageRequest, which returns the
// request unsent).
func isServiceRequest(fn *types.Func, prefixes []string) bool {
	sig := fn.Signature()
	if sig.Recv() == nil || fn.Pkg() == nil || !fn.Exported() || sig.Results().Len() == 0 {
		return false
	}
	path := fn.Pkg().Path()
	if !slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(path, p) }) {
		return false
	}
	if !isErrorType(sig.Results().At(sig.Results().Len() - 1).Type()) {
		return false
	}
	if sig.Params().Len() > 0 && TypeKey(sig.Params().At(0).Type()) == "context.Context" {
		return true
	}
	return strings.HasPrefix(path, "github.com/aws/aws-sdk-go/service/") && !strings.HasSuffix(fn.Name(), "Request")
}

func isErrorType(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// BoundsOwnWait reports whether a network call of fn's signature is handed
// how long it may wait (a time.Duration parameter: NATS's Request(subj,
// data, timeout) and NextMsg(timeout), paho's token.WaitTimeout(d),
// net.DialTimeout): it waits no longer than that, whatever deadline its
// caller sets or does not.
func BoundsOwnWait(fn *types.Func) bool {
	params := fn.Signature().Params()
	for i := range params.Len() {
		if TypeKey(params.At(i).Type()) == "time.Duration" {
			return true
		}
	}
	return false
}

// NetworkPackages are import paths through which a package can reach a
// network call. A package that imports none of them, directly or not,
// cannot contain one, and analyzers skip it.
var NetworkPackages = []string{
	"net", "net/http", "net/smtp", "crypto/tls",
	"gopkg.in/gomail.v2", "gopkg.in/mail.v2", "github.com/go-gomail/gomail", "github.com/gophish/gomail",
	"github.com/wneessen/go-mail",
	"google.golang.org/grpc", "github.com/redis/go-redis/v9", "github.com/go-redis/redis/v8",
	"database/sql", "github.com/jackc/pgx/v5", "github.com/jackc/pgx/v5/pgxpool",
	"github.com/casbin/casbin/v2", "github.com/casbin/casbin",
}

// casbinPersisting are the methods of a casbin enforcer that write or read
// its policy through the adapter it was built with (AddPolicy and the rest
// of the management and RBAC APIs, SavePolicy, LoadPolicy). The adapters
// services use (gorm-adapter, xorm-adapter, sqlx-adapter, pgx-adapter)
// run them on a database pool, behind an interface netio cannot follow, so
// they are rows of NetworkCalls, as the mailers above are. Enforce, the
// check a request makes, reads the enforcer's memory and is not among them.
var casbinPersisting = []string{
	"AddPolicy", "AddPolicies", "AddPoliciesEx", "AddNamedPolicy", "AddNamedPolicies", "AddNamedPoliciesEx",
	"RemovePolicy", "RemovePolicies", "RemoveFilteredPolicy", "RemoveNamedPolicy", "RemoveNamedPolicies", "RemoveFilteredNamedPolicy",
	"AddGroupingPolicy", "AddGroupingPolicies", "AddGroupingPoliciesEx", "AddNamedGroupingPolicy", "AddNamedGroupingPolicies",
	"RemoveGroupingPolicy", "RemoveGroupingPolicies", "RemoveFilteredGroupingPolicy", "RemoveNamedGroupingPolicy",
	"RemoveNamedGroupingPolicies", "RemoveFilteredNamedGroupingPolicy",
	"UpdatePolicy", "UpdatePolicies", "UpdateFilteredPolicies", "UpdateNamedPolicy", "UpdateNamedPolicies",
	"UpdateFilteredNamedPolicies", "UpdateGroupingPolicy", "UpdateNamedGroupingPolicy",
	"SavePolicy", "LoadPolicy", "LoadFilteredPolicy", "LoadIncrementalFilteredPolicy",
	"AddRoleForUser", "AddRolesForUser", "AddRoleForUserInDomain", "AddPermissionForUser", "AddPermissionsForUser",
	"DeleteRoleForUser", "DeleteRolesForUser", "DeleteRoleForUserInDomain", "DeleteRolesForUserInDomain",
	"DeleteUser", "DeleteRole", "DeletePermission", "DeletePermissionForUser", "DeletePermissionsForUser",
	"DeleteAllUsersByDomain", "DeleteDomains",
}

func init() {
	var keys []string
	for _, mod := range []string{"github.com/casbin/casbin/v2", "github.com/casbin/casbin"} {
		for _, enforcer := range []string{"Enforcer", "CachedEnforcer", "SyncedEnforcer", "SyncedCachedEnforcer", "DistributedEnforcer"} {
			for _, m := range casbinPersisting {
				keys = append(keys, "(*"+mod+"."+enforcer+")."+m)
			}
		}
	}
	NetworkCalls.Add(keys...) // once: each Add before indexing copies the table's keys
}

// DBPackages are the import paths a package must reach to hold a database
// connection at all.
var DBPackages = []string{"database/sql", "github.com/jackc/pgx/v5", "github.com/jackc/pgx/v5/pgxpool",
	"github.com/bhlint/bhlint/bulkhead/lanedb", "github.com/bhlint/bhlint/bulkhead/lanepgx"}

// TxDocumentPackages are the document stores whose transactions a package
// can hold while it calls out (a MongoDB session's WithTransaction): not SQL,
// so not among DBPackages, whose packages the SQL checks read.
var TxDocumentPackages = []string{"go.mongodb.org/mongo-driver/mongo", "go.mongodb.org/mongo-driver/v2/mongo"}

// PoolAcquires are calls that take a connection from a pool, and so may wait
// for one. Holding a connection of one pool while calling these on another
// is holding a connection across a network call.
var PoolAcquires = newTable(
	"(*database/sql.DB).Query", "(*database/sql.DB).QueryContext",
	"(*database/sql.DB).QueryRow", "(*database/sql.DB).QueryRowContext",
	"(*database/sql.DB).Exec", "(*database/sql.DB).ExecContext",
	"(*database/sql.DB).Begin", "(*database/sql.DB).BeginTx",
	"(*database/sql.DB).Conn", "(*database/sql.DB).Ping", "(*database/sql.DB).PingContext",
	"(*database/sql.DB).Prepare", "(*database/sql.DB).PrepareContext",
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).Acquire", "(*github.com/jackc/pgx/v5/pgxpool.Pool).AcquireFunc",
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).Begin", "(*github.com/jackc/pgx/v5/pgxpool.Pool).BeginTx",
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).Query", "(*github.com/jackc/pgx/v5/pgxpool.Pool).QueryRow",
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).Exec", "(*github.com/jackc/pgx/v5/pgxpool.Pool).SendBatch",
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).CopyFrom", "(*github.com/jackc/pgx/v5/pgxpool.Pool).Ping",
	"(*github.com/jmoiron/sqlx.DB).Beginx", "(*github.com/jmoiron/sqlx.DB).BeginTxx",
	"(*github.com/jmoiron/sqlx.DB).Get", "(*github.com/jmoiron/sqlx.DB).GetContext",
	"(*github.com/jmoiron/sqlx.DB).Select", "(*github.com/jmoiron/sqlx.DB).SelectContext",
	"(*github.com/jmoiron/sqlx.DB).Queryx", "(*github.com/jmoiron/sqlx.DB).QueryxContext",
	"(*github.com/jmoiron/sqlx.DB).NamedExec", "(*github.com/jmoiron/sqlx.DB).NamedExecContext",
	// The runtime's lane-typed pools.
	"(*github.com/bhlint/bhlint/bulkhead/lanedb.DB).Conn", "(*github.com/bhlint/bhlint/bulkhead/lanedb.DB).BeginTx",
	"(*github.com/bhlint/bhlint/bulkhead/lanedb.DB).QueryContext", "(*github.com/bhlint/bhlint/bulkhead/lanedb.DB).QueryRowContext",
	"(*github.com/bhlint/bhlint/bulkhead/lanedb.DB).ExecContext", "(*github.com/bhlint/bhlint/bulkhead/lanedb.DB).PingContext",
	"(*github.com/bhlint/bhlint/bulkhead/lanepgx.Pool).Acquire", "(*github.com/bhlint/bhlint/bulkhead/lanepgx.Pool).Begin",
	"(*github.com/bhlint/bhlint/bulkhead/lanepgx.Pool).Query", "(*github.com/bhlint/bhlint/bulkhead/lanepgx.Pool).QueryRow",
	"(*github.com/bhlint/bhlint/bulkhead/lanepgx.Pool).Exec", "(*github.com/bhlint/bhlint/bulkhead/lanepgx.Pool).Ping",
)

// HeldKind describes one type of pooled connection that a caller holds from
// acquisition until a release.
type HeldKind struct {
	Type    string   // the type as types.TypeString prints it
	Noun    string   // what to call it in a message
	Release []string // method names that give the connection back
	// NextReleases says the connection is released once Next returns false,
	// as database/sql and pgx rows close themselves after the last row.
	NextReleases bool
}

// HeldKinds are the connection-holding types bhlint knows. Types that embed
// one of them (sqlx's *sqlx.Tx) are held the same way.
var HeldKinds = []HeldKind{
	{Type: "*database/sql.Tx", Noun: "transaction", Release: []string{"Commit", "Rollback"}},
	{Type: "*database/sql.Conn", Noun: "connection", Release: []string{"Close"}},
	{Type: "*database/sql.Rows", Noun: "open rows", Release: []string{"Close"}, NextReleases: true},
	// A single row holds its connection until Scan, which closes it.
	{Type: "*database/sql.Row", Noun: "row", Release: []string{"Scan"}},
	{Type: "*github.com/jmoiron/sqlx.Row", Noun: "row", Release: []string{"Scan", "StructScan", "MapScan", "SliceScan"}},
	{Type: "github.com/jackc/pgx/v5.Tx", Noun: "transaction", Release: []string{"Commit", "Rollback"}},
	{Type: "*github.com/jackc/pgx/v5/pgxpool.Tx", Noun: "transaction", Release: []string{"Commit", "Rollback"}},
	{Type: "*github.com/jackc/pgx/v5/pgxpool.Conn", Noun: "connection", Release: []string{"Release", "Hijack"}},
	{Type: "github.com/jackc/pgx/v5.Rows", Noun: "open rows", Release: []string{"Close"}, NextReleases: true},
	// The runtime's lane-typed pools (generic: matched without type arguments).
	{Type: "*github.com/bhlint/bhlint/bulkhead/lanedb.Conn", Noun: "lane connection", Release: []string{"Close"}},
	{Type: "*github.com/bhlint/bhlint/bulkhead/lanedb.Tx", Noun: "lane transaction", Release: []string{"Commit", "Rollback"}},
	{Type: "*github.com/bhlint/bhlint/bulkhead/lanedb.Rows", Noun: "open rows", Release: []string{"Close"}, NextReleases: true},
	{Type: "*github.com/bhlint/bhlint/bulkhead/lanepgx.Conn", Noun: "lane connection", Release: []string{"Release"}},
	{Type: "*github.com/bhlint/bhlint/bulkhead/lanepgx.Tx", Noun: "lane transaction", Release: []string{"Commit", "Rollback"}},
	{Type: "*github.com/bhlint/bhlint/bulkhead/lanepgx.Rows", Noun: "open rows", Release: []string{"Close"}, NextReleases: true},
}

// ExactHeldKind is the HeldKinds entry of t itself (not of a type wrapping
// one).
func ExactHeldKind(t types.Type) (HeldKind, bool) {
	key := TypeKey(t)
	for _, k := range HeldKinds {
		if k.Type == key {
			return k, true
		}
	}
	return HeldKind{}, false
}

// TypeKey names a type as HeldKinds and the other type tables do: the
// pointer and the package path, without type arguments, so
// *lanedb.Tx[Tax] and *lanedb.Tx[Fraud] are both "*…/lanedb.Tx". Every
// table holds named types and pointers to them only, so a type literal (a
// func, struct, slice, map, channel or interface literal, a tuple, a type
// parameter) has no key: "". The passes ask for the key of nearly every
// value's type, and printing a signature or a struct only to compare it
// with a name showed in profiles.
func TypeKey(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		if k := TypeKey(p.Elem()); k != "" {
			return "*" + k
		}
		return ""
	}
	if named, ok := types.Unalias(t).(*types.Named); ok && named.TypeArgs().Len() > 0 {
		obj := named.Origin().Obj()
		if obj.Pkg() != nil {
			return obj.Pkg().Path() + "." + obj.Name()
		}
	}
	// A plain named type directly: the type printer, asked for nearly every
	// value a pass looks at, showed in profiles.
	switch t := t.(type) {
	case *types.Named:
		if t.TypeParams().Len() == 0 && t.Obj().Pkg() != nil {
			return t.Obj().Pkg().Path() + "." + t.Obj().Name()
		}
	case *types.Alias, *types.Basic:
	default:
		return ""
	}
	return types.TypeString(t, nil)
}

// ReleasingFuncs are functions that release the held value passed as the
// given argument, as pgx.CollectRows closes the rows it reads.
var ReleasingFuncs = map[string]int{
	"github.com/jackc/pgx/v5.CollectRows":          0,
	"github.com/jackc/pgx/v5.CollectOneRow":        0,
	"github.com/jackc/pgx/v5.CollectExactlyOneRow": 0,
	"github.com/jackc/pgx/v5.ForEachRow":           0,
	"github.com/jackc/pgx/v5.AppendRows":           1,
}

// TxCallbacks are functions that begin a transaction or take a connection,
// call the function passed as the given argument while holding it, and then
// release it. Receivers count as argument 0.
var TxCallbacks = map[string]int{
	"github.com/jackc/pgx/v5.BeginFunc":                   2,
	"github.com/jackc/pgx/v5.BeginTxFunc":                 3,
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).AcquireFunc": 2,
	// pgx v4's pool begins and commits around a function itself.
	"(*github.com/jackc/pgx/v4/pgxpool.Pool).BeginFunc":   2,
	"(*github.com/jackc/pgx/v4/pgxpool.Pool).BeginTxFunc": 3,
	// MongoDB: the callback runs inside the session's transaction, which
	// holds its writes' locks on the server until it commits (v1's Session
	// is an interface, v2's a struct).
	"(go.mongodb.org/mongo-driver/mongo.Session).WithTransaction":     2,
	"(*go.mongodb.org/mongo-driver/v2/mongo.Session).WithTransaction": 2,
}

// Table is a set of function keys with ".*" receiver wildcards.
type Table struct {
	// The catalogue's tables are package variables, made in every process
	// a driver starts (go vet starts one per package), and most processes
	// look nothing up: the keys are indexed on first use.
	indexOnce sync.Once
	indexed   atomic.Bool
	keys      []string

	exact     map[string]bool
	receivers map[string]bool
	// Lookups are on every call of every package, and building a full name
	// allocates: names (the last part of each exact key) and recvPkgs (the
	// packages of the wildcard receivers) turn most functions away first.
	names       map[string]bool
	recvPkgs    map[string]bool
	oddReceiver bool // a wildcard receiver with no package to filter by
	// clients are the packages (path prefixes) of generated service
	// clients whose every request method is a row: ServiceClientPackages.
	clients []string
}

// NewTable makes a table of function keys, such as a configuration's
// additions to the catalogue.
func NewTable(keys ...string) *Table { return newTable(keys...) }

func newTable(keys ...string) *Table { return &Table{keys: keys} }

// newClientTable is a table whose rows are keys and, besides them, the
// requests of the service clients of ServiceClientPackages.
func newClientTable(keys ...string) *Table {
	return &Table{keys: keys, clients: ServiceClientPackages}
}

// index builds the table's maps from the keys it was made with, once.
func (t *Table) index() {
	t.indexOnce.Do(func() {
		t.exact, t.receivers, t.names, t.recvPkgs = map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
		t.add(t.keys)
		t.keys = nil
		t.indexed.Store(true)
	})
}

// Add extends the table, as the catalogue's own files do when they are
// initialised. Like a map's writes, it must not run alongside lookups.
func (t *Table) Add(keys ...string) {
	if !t.indexed.Load() {
		t.keys = append(t.keys[:len(t.keys):len(t.keys)], keys...) // never into a caller's array
		return
	}
	t.add(keys)
}

func (t *Table) add(keys []string) {
	for _, k := range withAliases(keys) {
		if recv, ok := strings.CutSuffix(k, ".*"); ok {
			recv = withoutTypeParams(recv)
			t.receivers[recv] = true
			typeName := strings.TrimPrefix(strings.TrimSuffix(strings.TrimPrefix(recv, "("), ")"), "*")
			if dot := strings.LastIndex(typeName, "."); dot > 0 && !strings.ContainsAny(typeName, "{}()[] ") {
				t.recvPkgs[typeName[:dot]] = true
			} else {
				t.oddReceiver = true
			}
			continue
		}
		k = withoutTypeParams(k)
		t.exact[k] = true
		t.names[k[strings.LastIndex(k, ".")+1:]] = true
	}
}

// MethodNames are the names of the table's methods (the last part of each
// exact key with a receiver): the calls an interface of that shape makes
// when a value of the table's types fills it.
func (t *Table) MethodNames() map[string]bool {
	t.index()
	out := map[string]bool{}
	for k := range t.exact {
		if i := strings.LastIndex(k, ")."); i >= 0 {
			out[k[i+2:]] = true
		}
	}
	return out
}

// Has reports whether fn, or its generic origin, is in the table.
func (t *Table) Has(fn *types.Func) bool {
	if t == nil || fn == nil {
		return false
	}
	t.index()
	fn = fn.Origin()
	if t.names[fn.Name()] && t.exact[Key(fn)] {
		return true
	}
	if len(t.clients) > 0 && isServiceRequest(fn, t.clients) {
		return true
	}
	if len(t.receivers) == 0 {
		return false
	}
	if !t.oddReceiver && (fn.Pkg() == nil || !t.recvPkgs[fn.Pkg().Path()]) {
		return false
	}
	recv := ReceiverKey(fn)
	return recv != "" && t.receivers[recv]
}

// ReceiverKey is the "(T)" or "(*T)" part of a method's full name, or "" for
// a function.
func ReceiverKey(fn *types.Func) string {
	full := withoutTypeParams(fn.FullName())
	if !strings.HasPrefix(full, "(") {
		return ""
	}
	end := strings.LastIndex(full, ").")
	if end < 0 {
		return ""
	}
	return full[:end+1]
}

// Key is the name a table looks fn up by: its full name, for the generic
// origin, with the receiver's type parameters left out, so
// "(*…/lanedb.DB).Conn" names the method whatever the runtime calls its
// type parameter.
//
// It is computed for nearly every call every pass looks at, so the common
// shapes (a function, a method of a named type or a pointer to one) are
// put together directly; FullName formats the receiver through the
// general type printer, which dominated some passes' profiles.
func Key(fn *types.Func) string {
	fn = fn.Origin()
	recv := fn.Signature().Recv()
	if recv == nil {
		if fn.Pkg() == nil {
			return fn.Name()
		}
		return fn.Pkg().Path() + "." + fn.Name()
	}
	t, star := recv.Type(), ""
	if p, ok := t.(*types.Pointer); ok {
		t, star = p.Elem(), "*"
	}
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil {
		return "(" + star + n.Obj().Pkg().Path() + "." + n.Obj().Name() + ")." + fn.Name()
	}
	return slowKey(fn)
}

// slowKey is Key for every other receiver (an interface literal's method,
// an alias): the full name, type parameters left out.
func slowKey(fn *types.Func) string { return withoutTypeParams(fn.Origin().FullName()) }

// withoutTypeParams drops bracketed type parameters from the receiver part
// of a full name: "(*p.DB).Conn" → "(*p.DB).Conn".
func withoutTypeParams(full string) string {
	if !strings.HasPrefix(full, "(") || !strings.Contains(full, "[") {
		return full
	}
	var b strings.Builder
	depth := 0
	for _, r := range full {
		switch {
		case r == '[':
			depth++
		case r == ']':
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}
