// Package reach answers, for `bhlint lanes`, the question a design review
// asks of every outbound dependency: who else does this reach? For each
// dependency it finds the entry points whose calls reach it, what they hold
// while they wait on it, and so which other entry points stall when it
// slows.
//
// A dependency is what a call waits on, named as the rest of bhlint names
// resources: by the package-level variable or struct field the client is
// loaded from (taxclient.Client.http, shop.Audit), or a lane-typed client
// by its type; with the host when a constant URL shows it
// (http.Get("https://api.example.com/…"), http.NewRequest with a constant
// or a constant prefix, fmt.Sprintf with one), and by the host alone when
// the client is http.DefaultClient or unknown. The calls are the
// catalogue's network calls (net/http clients and package functions, gRPC
// ClientConn and generated client interfaces — a method whose last
// parameter is ...grpc.CallOption —, go-redis commands, raw dials), the
// runtime's lanehttp clients, and os/exec's Run, Output, CombinedOutput and
// Wait, named by the command of exec.Command(Context) when it is a
// constant.
//
// Entry points are the declared lanes' (//bhlint:lane on a func, the
// lanes .bhlint.yml declares, a func handed to bulkhead.Executor[L].Do or
// bulkhead.Call) and, when no lane is declared anywhere (declared lanes
// win, as in sharedpool) and inference is on, the inferred workload
// classes' (internal/entrypoints: request handlers are interactive,
// start-up loops background; a loop a request starts is part of the
// request). Only the root packages' entry points count. A call made in a
// goroutine started on the way is marked: the entry point does not wait on
// it. A dependency no entry point reaches is listed with the functions that
// reach it and that nothing calls or registers where bhlint sees (a
// handler wired through a map), with what they hold; they stall nobody,
// since they are not known to run.
//
// Held at a call is what the frames on the way hold, by heldconn's rules
// (see `bhlint -explain heldconn`): a transaction, connection or open rows
// of a pool from the acquiring call until its release on each path (a call
// after Commit holds nothing; a deferred Rollback holds to the return), the
// body of a transaction callback (pgx.BeginFunc, and user helpers that run
// their func parameter inside one, learned as a fact), and a slot of a lane
// executor inside Executor.Do and bulkhead.Call. A pool is named by the
// variable or field the acquiring call's receiver (or pool argument) comes
// from, in the caller when it is a parameter.
//
// An entry point stalls when a dependency slows if it needs what a caller
// holds while it waits on it: a pool it uses anywhere on its paths (a load
// of the pool's variable or field), or the executor it runs in or calls.
// The callers themselves wait on the dependency and are not listed again.
//
// Escape policy: membership follows static calls, in this package and
// others (facts), func values passed directly as arguments, and function
// literals where they are made (nothing held in a goroutine started with
// go; a handler literal registered there is not a call). Calls through interfaces are not followed, except the catalogue's
// and generated gRPC client interfaces, which are the dependency; so an
// interface with several implementations, or one, hides what is behind it.
// Func values stored in a field or a map and called elsewhere are not
// followed. A client passed down as a parameter is named in the caller that
// loads it; one the entry point itself receives is "the HTTP client passed
// to E". A held value stored in a field stays held on that path; one
// returned is the caller's. Functions above the SSA budget are not read.
// Test files are not read.
package reach
