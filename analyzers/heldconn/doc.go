/*
Package heldconn defines an Analyzer that reports a pooled database
connection held across a network call.

# Analyzer heldconn

heldconn: report a DB connection, transaction or open rows held while the code makes a network call

ERR_CONN_HELD_ACROSS_NETWORK_CALL. A connection taken from a pool is a slot
of a fixed-size resource. While the code waits on the network with it in
hand, nobody else can use it: when the remote end slows (a tax API at
8,000 ms), every connection of the pool ends up held by requests waiting on
that API, and every other lane that shares the pool starves. Worker
isolation does not help; the pool is the shared failure domain.

What counts as held: a *sql.Tx, *sql.Conn or *sql.Rows; a pgx v5 pgx.Tx,
*pgxpool.Conn, *pgxpool.Tx or pgx.Rows; and types that embed or wrap them
(sqlx's *sqlx.Tx). A value is held from the call that returns it until, on
each control-flow path, a release: Commit or Rollback, Close, Release,
the last rows.Next() returning false, pgx.CollectRows and the other pgx
functions that close rows, or a function that releases its parameter
(learned as a fact, across packages). The path on which the acquiring call
returned a non-nil error holds nothing. A deferred release holds until the
function returns; a Commit that already ran has released, so the classic
`defer tx.Rollback()` … `tx.Commit()` … call-after-commit is silent.

The body of a callback run inside a transaction is held too:
pgx.BeginFunc, pgx.BeginTxFunc, (*pgxpool.Pool).AcquireFunc, and any user
helper that begins, calls its func parameter, then commits (learned as a
fact, so RunInTx(ctx, func(tx) error { … }) is found wherever the helper
lives).

What counts as a network call: an entry of bhlint's catalogue (net/http
clients and package functions, net.Dial*, crypto/tls dials, DNS lookups,
net/smtp, gRPC ClientConn.Invoke/NewStream, go-redis commands), any function
that reaches one through static calls, in this package or another (a fact),
and a query or acquire on a different DB pool than the one held. Calls on
the held value itself (tx.Exec, rows.Scan) and helpers that only query
through it are not network calls.

Fix: release first. Move the call before Begin, or after Commit; read what
the call needs inside the transaction, commit, then call; for rows, collect
them (pgx.CollectRows) and close before calling out.

Escape policy: a held value that is returned is the caller's to hold (the
call that returned it is an acquisition there); one stored in a field or
passed to a function that does not release it stays held on this path.
Calls through interfaces and function values are not followed, except the
catalogue's interface methods and callback helpers; so a network call
hidden behind an interface is missed rather than guessed at. Calls in a
goroutine started while holding do not make this function wait and are not
reported.

Suppress a finding with //bhlint:ignore ERR_CONN_HELD_ACROSS_NETWORK_CALL
reason, on the line or in the doc comment of the enclosing function.
*/
package heldconn
