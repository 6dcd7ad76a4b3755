/*
Package heldconn defines an Analyzer that reports a pooled database
connection held across a network call.

# Analyzer heldconn

heldconn: report a DB connection, transaction or open rows held while the code makes a network call, waits on a subprocess or takes a second connection

ERR_CONN_HELD_ACROSS_NETWORK_CALL. A connection taken from a pool is a slot
of a fixed-size resource. While the code waits on the network with it in
hand, nobody else can use it: when the remote end slows (a tax API at
8,000 ms), every connection of the pool ends up held by requests waiting on
that API, and every other lane that shares the pool starves. Worker
isolation does not help; the pool is the shared failure domain.

What counts as held: a *sql.Tx, *sql.Conn or *sql.Rows, and a *sql.Row
(sqlx's *sqlx.Row) until its Scan, which closes it; a pgx v5 pgx.Tx,
*pgxpool.Conn, *pgxpool.Tx or pgx.Rows; and types that embed or wrap them
(sqlx's *sqlx.Tx, bun's bun.Tx), also through wrappers of wrappers, up to
three deep (chirpstack's logging TxLogger embeds *sqlx.Tx, which embeds
*sql.Tx; a method that begins one and returns it wrapped, DBLogger.Beginx,
is where it is taken), unless the wrapper has a method that
takes one: a builder handed the caller's transaction to run in
(backlite's TaskAddOp.Tx(tx)) holds none by being made (client.Add(task)
begins nothing). An ORM's transaction whose handle is not
such a type is held from the call that begins it: gorm's db.Begin() (the
*gorm.DB it returns, until Commit or Rollback) and xorm's sess.Begin(),
which returns only an error and holds the session it is called on until
Commit, Rollback or Close (a session that never begins holds nothing
between its statements). An interface of the analysed module with a
releasing method (type Tx interface { Exec(…); Commit() error; Rollback()
error }) is held when a visible implementation is a held type or wraps one,
so store.Begin(ctx) returning that interface, itself called through a Store
interface, acquires a transaction. A value is held from the call that returns it until, on
each control-flow path, a release: Commit or Rollback, Close, Release,
the last rows.Next() returning false, pgx.CollectRows and the other pgx
functions that close rows, or a function that releases its parameter
(learned as a fact, across packages: by a call or a deferred one, which
runs before it returns, as parseRecords(rows) with its defer rows.Close();
or, for a parameter of an interface type, by calling on it a method that
releases the kind its caller passes: parseOne(s Scannable) calling s.Scan
releases a *sql.Row, not a *sql.Rows; or, for rows, by reading them to
their end: a helper whose every return comes after its for rows.Next()
loop ends, or returns an error found non-nil (a failed Scan, on which the
caller returns too), as convoy's scanSubscriptions(rows) before its count
query; one that returns with the first row leaves the others open). The path on which the acquiring call
returned a non-nil error holds nothing. A deferred release holds until the
function returns; a Commit that already ran has released, so the classic
`defer tx.Rollback()` … `tx.Commit()` … call-after-commit is silent. A
func the acquiring call returns beside the held value releases it when
called (hatchet's sqlchelpers.PrepareTx handing back tx, commit, rollback:
commit(ctx) releases the transaction).

The body of a callback run inside a transaction is held too:
pgx.BeginFunc, pgx.BeginTxFunc, (*pgxpool.Pool).AcquireFunc, the ORMs'
own helpers (gorm's and xorm's db.Transaction(func(tx) …), pop's
Connection.Transaction and TransactionContext, bun's RunInTx), and any user
helper that begins, calls its func parameter, then commits (learned as a
fact, so RunInTx(ctx, func(tx) error { … }) is found wherever the helper
lives). MongoDB's Session.WithTransaction (driver v1 and v2) runs its
callback inside a transaction too, whose writes hold their documents' locks
on the server until it commits; the session rides in the context the
callback is handed, so there an operation of the driver handed another
context (the request's ctx captured from outside, context.Background())
runs outside the transaction, on a connection of its own, and is reported;
one handed the callback's context, or a context made from it
(context.WithTimeout(sessCtx, d)), is the transaction's own. The server
starts the transaction with its first operation in the session: calls
before it, and every call of a callback that hands its context to no
operation (a transaction in name only), hold nothing. A helper that passes its callback on to one, or captures it in a
closure that one runs (db.Transactional(func(tx) error { return fn(app) })),
is a holder too; the message names the chain of helpers down to the one
that holds.

Transaction helpers behind interfaces. A call through an interface method
that takes a func (app.RunInTransaction(func(txApp App) error { … }),
s.tx.WithTx(ctx, func(ctx context.Context) error { … }) with the
transaction carried in the context) is followed when a visible implementation
holds while running it: the named types of the interface's package, of the
calling package and of the packages it imports that implement the
interface. The message names the implementation followed. When the
implementations disagree (one backend runs the callback inside a SQL
transaction, another, a fake or an in-memory store, runs it directly), the
caller cannot tell which it gets, so the one that holds is followed and the
message names it and those that hold nothing. If every visible
implementation runs the callback with nothing held, or the holding ones
hold different parameters, the call is not followed. When none is visible,
an implementation in the caller's build is: each package exports, as the
implements fact, the interface methods of its own and its imports'
interfaces that its types implement with a method that holds, and carries
on those of its imports (the module's interfaces implemented by a method
that waits on the network travel the same way, in the network pass's
ImplementedInBuild fact), so that a package whose build includes the implementation
learns of it however the implementation is wired in (openim's storage
controllers call the tools module's tx.Tx, implemented over a MongoDB
session by its mongoutil, and invalidate their caches through an
interface implemented over Redis by cache/redis; the controllers import
neither implementation, and the Redis deletes inside the transaction are
found). The message names the implementation followed. When the
implementation is not even in the caller's build (dex's server hands
storage.Storage's UpdateRefreshToken an updater; only main imports
storage/sql, whose implementation runs it inside a transaction), the
caller keeps the call and its callback's waits on the network or a
subprocess (pendingCallbacks, a package fact), and the first package
whose build has an implementation holding while it runs that parameter
(main, which wires it in) reports each wait at its line in the callback,
naming the implementation, once. A second connection inside such a
callback is not reported that way: which pool the implementation holds
is not known where the callback is. A callback parameter that a closure
also captures (ExecTx(fn) calling fn on one path and handing a closure
that calls it to the flavor's runner on the other) is the parameter
wherever it is called.

What the held connection must not wait on:

  - the network: an entry of bhlint's catalogue (net/http clients and
    package functions, net.Dial*, crypto/tls dials, DNS lookups, net/smtp,
    gRPC ClientConn.Invoke/NewStream, go-redis commands, a casbin
    enforcer's policy changes, which its adapter writes to a database:
    paralus granting roles inside the transaction that creates the user),
    or any function
    that reaches one through static calls, in this package or another (a
    fact);
  - a subprocess: (*exec.Cmd).Run, Output, CombinedOutput and Wait, or a
    function that reaches one through static calls (a fact, learned also in
    packages that touch no database); Start alone does not wait;
  - either of these behind an interface declared in the analysed module
    (s.git.Push(dir) where a visible implementation runs git, a Mirror
    whose HTTP implementation posts): the call is reported naming the
    implementation that waits, even when another one (a fake, an in-memory
    one) does not; one in the caller's build (ImplementedInBuild) when
    none is visible. Interfaces of the standard library and of other modules
    (io.Writer, a logger's) are not searched;
  - another connection: a query, exec, prepare or begin on a pool handle.
    On the pool the held value came from (the same package variable, struct
    field or parameter; sqlx's embedded *sql.DB and Unsafe() count as their
    pool), it is a second connection from the same pool: at saturation
    every holder waits for a second one and the pool deadlocks (HikariCP's
    documentation describes the hazard). On another handle it waits for a
    connection of its own. Both positions are reported (related
    information). So does a call of a helper that makes such a round trip
    (a finisher of the catalogue's DatabaseWaits, at the end of its
    builder chain: s.db.NewSelect().Where(…).Scan(ctx)) on a pool of its
    own, a field or package variable of a database pool type, itself or
    through its callees (queriesPool, a fact), or that queries a handle it
    is handed (queriesParam, a fact) when the caller hands it a pool
    rather than the held transaction: paralus' createGroupAccountRelations
    (ctx, tx, …), handed the transaction for its inserts, looking each
    group up with dao.GetByName(ctx, s.db, …); for a helper of the same
    package, related information points at its own call that queries (the
    line that should be handed the transaction), also when the finding names
    another wait of the same helper (its network call: paralus'
    createGroupAccountRelations grants the groups at the authorization
    service too, and both lines are to change). A helper that uses its pool
    only when a handle parameter is nil (if tx == nil { tx, … =
    PrepareTx(ctx, r.pool) }) stands in for a caller that hands none, and
    takes no connection of its own for one that hands its transaction;
  - a statement prepared on a pool (*sql.Stmt, *sqlx.Stmt, *sqlx.NamedStmt)
    executed while a transaction is held: its execution takes a connection
    from the pool, not the transaction's. Counted as prepared on a pool: the
    result of a pool's Prepare/Preparex/PrepareNamed, and a statement kept
    in a package variable or in a field of a struct that holds no
    connection (a statement prepared on a transaction dies with it, so one
    kept beyond a function lives on a pool). A statement from tx.Stmt,
    tx.Stmtx, tx.Prepare or tx.Preparex, one kept beside a transaction in a
    struct, and one passed in as a parameter are not. A helper that
    executes a statement parameter (models.LoadLists(stmt)) is learned as a
    fact, and the statement passed to it is judged at the call.

Calls on the held value itself (tx.Exec, rows.Scan) and helpers that only
query through it are not waits. Inside a callback the held value is not in
hand: there a pool query is reported when the handle is known (a package
variable, a field, a parameter), as a wait for a connection of its own.

Fix: release first. Move the call before Begin, or after Commit; read what
the call needs inside the transaction, commit, then call; for rows, collect
them (pgx.CollectRows) and close before calling out. Run a pool's statement
inside the transaction through tx.Stmt(stmt).

Escape policy: a held value that is returned is the caller's to hold (the
call that returned it is an acquisition there); one stored in a field or
passed to a function that does not release it stays held on this path.
Calls through function values are not followed, except the callback
helpers above, a function drawn from a list of functions the code writes
out (a flow run step by step inside the transaction, for _, step :=
range []func() error{j.lockDevice, j.askJoinServer, j.saveSession}: each
step runs while it is held), and calls through a func-typed field of the
package's own struct types: a router that begins a request's transaction, calls the
route's handler through its handler field (r.handler(c, req)) and commits
after it holds the transaction across every function the package stores in
that field, directly or handed through the parameters of its own
registration helpers (post(a, "/login", a.Login), whose body builds
route{handler: handler}). Each such function's own calls that wait are
reported where they are, in the handler: the line to move out of the
request's transaction. A function that ends a transaction it is handed
(a long-poll handler that rolls the request's transaction back before it
waits, itself or through a function it hands it to) decides its own span
and is left alone, and a call of another function stored in the same
field (a versioned route's handler calling the current one) is reported
where that one waits. Calls through interfaces only as above (the catalogue's
interface methods, an interface method shaped as (*http.Client).Do — a
library's Doer, whatever implements it sends the request —, the module's
interfaces with a visible implementation
that waits, and callback helpers with a visible implementation that holds),
so a network call behind an interface whose implementation is out of sight
(wired in main, in a package this one does not import) is missed rather
than guessed at. Calls in a goroutine started while holding do not make this
function wait and are not reported, even when the callback then waits for
the goroutine. Branches are correlated only through integer counters
compared with zero: a transaction begun when a counter is zero, the counter
incremented and reset to zero at the commit, is not held on a later branch
that tests the counter for zero (a batch loop's tail); other correlated
branches are followed both ways. Test code is not reported, as for every
bhlint analyzer: _test.go files, a package whose every file imports
testing, and functions and function literals given a *testing.T (in a
parameter or in their receiver): a test holds its connection for itself, under its -timeout.

Suppress a finding with //bhlint:ignore ERR_CONN_HELD_ACROSS_NETWORK_CALL
reason, on the line or in the doc comment of the enclosing function.
*/
package heldconn
