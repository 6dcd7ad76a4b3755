/*
Package retrystorm defines an Analyzer that reports retry loops with no
bound on attempts, or with no backoff and jitter between them.

# Analyzer retrystorm

retrystorm: report a retry loop with no attempt bound, or with no backoff and jitter between attempts

ERR_UNBOUNDED_RETRY_DETECTED. When a dependency fails, every caller that
retries at once, forever, or in step with the others multiplies the load on
it exactly when it can least take it. In the tax-API incident bhlint was
built around, the checkout service retried failed tax calls every 50 ms,
with no bound, no backoff and no jitter, and turned 150 req/s into
1,800 req/s.

What counts as a retry loop: a loop (for, or goto; a range over an integer
counts, a range over a slice, map, string, channel or iterator does not;
and a function calling itself, which loops as surely: statping's Connect
sleeping 5s and returning Connect(cfg, retry) when the database is down,
gotenberg's Pdf converting again at once on a core dump — its round is
every block from which the self-call can be reached, it leaves by
returning without calling itself, a parameter passed on unchanged is the
same every round and bounds nothing when tested, one passed on changed,
attempts-1, is its counter, and one the self-call hands the failed call's
own error in, when that call reads it, makes each round's call a different
one: kratos's WriteFlowError writing the failure of the flow it tried to
replace handles an error, it does not retry; reported at the self-call)
around a call whose error decides whether the loop goes round again (when
the error comes from an accessor on a call's result — go-redis's
rdb.Get(ctx, k).Result(), .Err(), also when the accessor is promoted
from a field the result embeds, as Ping(ctx).Err() is — the call is the
one retried). The
error is tested by err != nil, a comparison with a sentinel
(err == ErrConflict), a type assertion or a case of a type switch
(case *ConditionFailedError: continue), errors.Is and errors.As, or
gRPC's status.Code(err) compared with a code (also when the error is kept
in a variable of the enclosing function that a closure writes and reads
back: part, err = bucket.UploadPart(…); if err == nil); or, when the call folds its
error into its one result (a project's own response type, as
resp := httpclient.PostJson(…), with no error beside it), a field of that
result compared with an HTTP success status (resp.StatusCode == 200: any
2xx constant); or the response's error status: a loop that goes round
when the status of the call's response (its StatusCode field, or a
StatusCode() method, as resty's and fasthttp's responses have) equals an
error status, 4xx or 5xx, resends a refused request, even when it returns
on the call's error (the transport's failure leaves, the server's refusal
comes round: openlist's WPS driver re-posting a move every 500 ms while the
API answers 403, a client logging in again on every 401). 404 is not such a
status: a loop waiting for a resource to appear polls for it; and a bounded
loop that resends after a 401 (authenticate, then retry: openlist's
seafile driver renewing its token once) follows the protocol. Every
way round passes the check of that error, on the error branch the loop can
come back to its head, and on the success branch it always leaves — unless
it comes back on the response's StatusCode (a retry on 503 or 429). Loops
that leave on the error (a stream Recv loop, pagination, a poll that
returns its error) and loops whose call changes each time round (the next
endpoint, a received message, an argument carried round the loop such as a
cursor, a map entry or field written with a changing value before each call
such as the next port to try, an iterator's Next) are not retries. A
client made again each round from the same inputs (an MQTT client remade
from the broker's address on every reconnect, then connected; a method
called on it) is the same dependency asked again, and a retry; one made
from the next address of a list is failover. Nor
are searches: a loop around a function known statically that reaches
neither the network nor a database, handed each round either the value its
own previous round returned (a walk along an error chain:
next := errors.Unwrap(err) until it is nil) or a value another call of the
loop made afresh (a generate-until-valid loop: a random name, checked by a
local function until it passes) repeats no call against a dependency. A
call through an interface or a function value is never taken for a search
(its implementation may be a client) — unless it is called on the error
the call itself returned the round before, asserted to the interface or
filled from it by errors.As (err = c.Cause(), step-ca's
statusCodeFromError): what implements it is that error's own type — nor is one that reaches the network
or a database, however its arguments change. Loops in _test.go files are
not checked.

A loop that waits, every way round, for a time read out of the retried
call's own result — a field or a method of its error or response, a value
errors.As filled from its error (time.Sleep(rl.RetryAfter)), a Retry-After
header parsed — goes round when, and as often as, the server says it may:
it honours the server and is not reported. When one way round waits a
constant time, or not at all, the loop is judged as below.

A loop that goes round only on a sentinel error of its own package
(errors.Is(err, errNextLoop), err == errPending: every other error leaves
the loop) that the retried function returns only after its network call
succeeded, and after a pause (a sleep or a timer in a block that leads to
that return), polls a status: the server answered "not yet" and is asked
again later (oneapi's replicate adaptor, asking for a prediction every
3 s). It is not reported. A sentinel returned when the call failed, or
with no pause before it (a busy poll), is judged as below.

A reader loop — one that also goes round after a success, such as
for { msg, err := sub.ReceiveMessage(ctx); if err != nil { log; continue }; handle(msg) } —
is reported when it goes round again at once on the error: nothing on the
way from the loop's head to the check, or from the error branch back to
the head, can leave the loop (a return, a break, io.EOF or net.ErrClosed
tested, a context or closed flag checked, a count of failures) or wait (a
sleep, a timer or ticker, a backoff, a channel receive or send, a blocking
select, or a function of the package that does one). Once the connection,
stream, subscription or listener is gone, the call fails at once every
time, and the loop spins and floods the log. Only calls that wait on a
peer count: network calls, a net.Listener's Accept, a packet connection's
reads, gRPC streams' Recv, go-redis PubSub receives, NATS, Kafka and
WebSocket reads. A call given a timeout to wait for (ReceiveTimeout,
NextMsg, BLPop: a time.Duration parameter named for a timeout or a wait)
paces the loop itself, and a call whose input another call of the loop
produced (a tuple from an iterator, a decoded record) is skipping an item,
not repeating itself; neither is reported.

A reader loop whose call sends a new request each round (a long-lived
one that returns when it fails: a LISTEN session, a subscription, a long
poll; a database round trip counts) and that pauses only on the failure's
way — for { if err := listen(ctx); err != nil { log; select { case
<-time.After(time.Second): case <-ctx.Done(): return } } } — is a
reconnect loop: the pause paces its retries, and it is judged as a retry
by its pause. A constant one with no growth and no jitter is reported as
for a retry (every instance reconnects in step when the server comes
back); a growing one, or a loop paced by a channel, is not. A pause taken
on every way of the success's as well makes it a poll, every round paced
alike (one taken on some successes only, as argo-events' queue listener
sleeping when the queue came back empty, paces no failure), and a
handle's read (a listener's Accept) is no request: neither is
reported.

A reader loop whose call sends a new request each round (it reaches the
catalogue's network calls — an HTTP request, a dial — or a method of a
generated gRPC client: a long-poll client) is judged by the request, not by
a handle. A shutdown check on its way is no way out: a select with a
default whose cases receive from channels no deadline closes (a tomb's
Dying(), a context's Done(), a quit channel) or ctx.Err() of a context with
no deadline leaves when the process stops, and until then, while the
server is down, every request fails at once and the next is sent back to
back (crowdsec's long-poll client). Nor is a way out that only some of the
request's errors take (errors.Is(err, errUnauthorized), err == io.EOF): as
for a retry, the failures of a server that is down take none of them. For a
handle (a listener's Accept, a stream's Recv) both are the way out: a
handle fails for ever only once closed, which is what shutdown does, and
io.EOF or net.ErrClosed says it is. And the request's own function
paces a round only when it waits on a channel on every path to a return of
an error that may be non-nil: handing the fetched events to a consumer after
the request succeeded paces the rounds that succeed, not the ones that fail.

Network calls are those of bhlint's catalogue (with the requests of the
cloud SDKs' service clients, AWS v1 and v2, Azure and Google Cloud, whose
handler chains hide the net/http call: catalog.ServiceClientPackages; and
of the message brokers' and ZooKeeper's clients, NATS, Kafka, RabbitMQ,
MQTT, whose connection goroutine writes the request) and
of the functions that reach them (a call through an interface shaped as
(*http.Client).Do, a
library's Doer or HTTPClient, is one: whatever implements it sends the
request), plus, for this analyzer, a method of a generated gRPC client
interface (its last parameter is ...grpc.CallOption), whose
implementation is often not visible, and gRPC streams' Recv. A request
that returns a token the code then waits on (paho's token :=
client.Connect(); token.Wait() && token.Error() != nil:
catalog.AwaitedTokens) is the network call, though its client only
queued it: its outcome, the wait's and the error's, is read from the
token, so a loop that goes round on that error retries the request, and
the wait's result is the request's own (not a condition of the loop's).

It is reported at the loop's for statement (the line a fix changes: its
bound, its pause), with the call retried and the constant wait as related
information, when
  - nothing but the call's own result can end it: no attempt counter, no
    deadline or context check, no retry policy or other condition tested
    to leave (errors.Is on the call's error does not count; a comparison
    of this attempt's error with the one kept from the attempt before,
    prev == err.Error(), does: the loop leaves when the same failure comes
    back, so one that persists is tried twice, not for ever) — unless the
    call cannot reach a dependency at all: a static call into a package
    that imports no network or database package, directly or
    transitively, with no function or interface among its arguments
    (os.Stat, an fsnotify watch re-added until the file comes back) loads
    nothing remote however often it runs; or
  - the call reaches the network (directly, or through functions that do,
    in any package) and the loop does not wait between attempts at all (a
    loop bounded only by its context's deadline, with no pause, hammers
    until the deadline); or
  - the call reaches the network and the loop waits a constant time
    (time.Sleep(50 * time.Millisecond), a fixed ticker or time.After) with
    no growth and no jitter, so every caller retries in step — unless the
    loop gives up at a deadline it reads from the clock
    (time.Since(start) > 10*time.Second): a readiness poll that dials every
    500ms for at most 10s makes a known, small number of attempts and ends
    by itself. So does a loop that leaves when a context with a deadline
    ends (ctx.Err(), <-ctx.Done() of a context derived with WithTimeout or
    WithDeadline, or from one; or the context parameter of a function no
    other package can call, when every call of it in the package passes
    such a context: waitForReady(waitCtx) after waitCtx, cancel :=
    context.WithTimeout(ctx, c.Timeout)), or when a timer that fires once
    does (time.After taken before the loop, a time.NewTimer made before it
    and not reset in it), also when that branch ends the program
    (log.Fatal("failed to start after 30 seconds")). Any other context
    tested in the loop is no such deadline: it may be cancelled only at
    shutdown; nor is one handed to a function that is also used as a
    value, whose other callers are not known.

A call that reaches a database counts as a network call for the third
rule: a connection taken from a pool (sql.DB's Query, Exec, Ping, BeginTx;
pgxpool's; sqlx's), an opener that connects (gorm.Open, sqlx.Connect,
xorm.NewEngine), a method of a database pool type (*gorm.DB, *xorm.Engine,
*bun.DB), directly or through functions of the package — its driver
reaches the network through interfaces no static call shows. So a loop
waiting a constant 5s for the database to come up, bounded or not, is
reported like one waiting for an HTTP server. A bounded loop that retries
a call reaching only a database at once is a conflict retry (a
serialization failure, a bad pooled connection), not a wait for a server,
and is not reported; neither is a bounded loop that retries a local
operation at once (a compare-and-swap conflict): they add no load to a
dependency. Nor is a bounded loop, paced or not, that goes round only when
the datastore answered that another writer won: every way from the failed
check back to the loop's head passes a test that the error is one of the
catalogue's ConflictErrors (go-redis's TxFailedErr, returned when a WATCHed
key changed before EXEC: err == redis.TxFailedErr, a case of a switch on
err, errors.Is), and every other error leaves the loop. The server is up
and has answered; the loop retries a lost race on the data, as go-redis's
own optimistic-locking example does. Unbounded, it is reported.

A wait counts wherever it happens in the loop: time.Sleep, a receive from
time.After, a timer or a ticker (also in a select; creating a timer is not
a wait, re-arming it with a growing delay is backing off), a backoff or
retry library (cenkalti/backoff, failsafe-go, a rate.Limiter), or a call to
a function that waits — in this package or another (the Sleeps fact:
"sleeps(growing)", "sleeps(param [N])" when the wait is the duration passed
as parameter N, "sleeps(constant)"). A function waits when it sleeps or
receives from a timer itself, outside a loop (a sleep helper that returns
early when its context ends still counts), or when every path through it
calls a function that waits; a client whose internals wait on timers for
their timeouts is not a pause. A wait grows when its duration changes from
one attempt to the next: a loop variable (delay *= 2), a call (rand,
b.NextBackOff()), a field the loop updates. A call through a func-typed
struct field is resolved to the functions this package stores in that
field; when it cannot be resolved (the field is set in another package, or
the function is a parameter), a function value that takes a time.Duration
is taken to be an injected sleep. So is a clock, an interface injected so
that tests can fake time: a call of an interface method that takes one
time.Duration and returns nothing (jmhodges/clock's, benbjohnson/clock's,
k8s.io/utils/clock's Sleep(d): boulder's cpc.clk.Sleep(core.RetryBackoff(i,
…))) sleeps, and a receive from what one that takes a time.Duration and
returns a channel of time.Time returns (Clock.After(d)) waits, as from
time.After; the duration passed decides whether the wait grows.

A retry library's call runs the loop itself, and its options say how
(catalog.RetryRunners: avast/retry-go's Do and DoWithData). It is judged
as a loop would be, and reported at the call: when its options never give
up (UntilSucceeded, Attempts(0)), or when they make the delay constant
(DelayType(FixedDelay)) and the function it is handed reaches the network.
A retrying client interceptor (catalog.RetryInterceptors:
go-grpc-middleware's retry.UnaryClientInterceptor and
StreamClientInterceptor, v1 and v2) retries every RPC of the connection it
is installed on, a network call: its options are read the same way, and
WithBackoff(BackoffLinear(d)), a constant wait with no jitter, is reported
at the call (the library's default, and BackoffLinearWithJitter, add
jitter). The options are read where they are written: at the call, or appended to
a local slice handed to it; options that come from elsewhere, and a delay
function of the program's own, are taken to bound and to back off. The
library's defaults (10 attempts, exponential backoff with jitter) are
silent.

A client's retry count (catalog.RetryCountSetters: resty's SetRetryCount)
set to a constant at an integer's maximum (math.MaxInt32 and above) makes
the client retry every request it sends until it succeeds: reported at the
call. Any smaller count, or one not written at the call, bounds it.

A runner handed a backoff value is judged by that value
(catalog.BackoffRunners: cenkalti/backoff's Retry family up to v4,
sethvargo/go-retry's Do, DoValue and Constant). A constant one
(NewConstantBackOff, &backoff.ConstantBackOff{…}, go-retry's NewConstant)
waits the same time every round and never stops by itself: reported as
never giving up, unless a wrapper caps the attempts (WithMaxRetries) or
the runner watches a context (go-retry's Do, cenkalti's WithContext: a
context check is a way out, as in a loop); and as waiting a constant
time when the function reaches the network, unless jitter is added
(WithJitter, WithJitterPercent) or the attempts end at a deadline
(WithMaxDuration, or a watched context that ends by itself,
context.WithTimeout): a known, small number of attempts, as for a loop
that gives up at a deadline. A value the analysis cannot read (an
exponential policy, a parameter, a field) is taken to bound and to back
off. cenkalti/backoff v5's Retry, whose default gives up after 15
minutes, is not judged.

A retry policy written as a struct literal (catalog.RetryPolicyStructs:
watermill's middleware.Retry{MaxRetries: 3, InitialInterval: 100ms}) is
reported at the literal when its growth factor (Multiplier) is at most 1
and its jitter (RandomizationFactor) is 0, each by a constant or by
leaving it out, and no deadline (MaxElapsedTime) is set: every instance
retries its failing handlers in step (watermill's zero Multiplier even
drops the delay to none after the first). A field set from something
other than a constant (configuration) is taken to back off; a literal
with its fields by position is not read.

Fix: bound the attempts (3 is the payment core's budget) or the total time,
and wait with exponential backoff and full jitter between attempts —
backoff.Retry(op, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3))
— or return the error and let the caller's own policy decide. A bounded
loop with backoff and jitter is silent.

Escape policy: only waits and exits inside the loop count; what a callee
does is known through static calls and facts. A bound or an exit whose
condition the analyzer cannot read (a flag, a call other than the retried
one) is taken as a bound, so a loop is reported only when it is clearly
unbounded or clearly unpaced. In a reader loop any way out on the error
path silences it, even one that only some errors take (io.EOF ends the
loop, other errors go round): the analyzer cannot tell which errors
persist, and a loop that leaves on some was written with persistence in
mind (in a loop of requests, neither a shutdown check nor a test of which
error came back is such a way out, above).
A call a reader loop makes to a function of the package that receives from
or sends on a channel is taken to pace it, except the request it retries,
which must wait on every path to its failure. A wait is the
server's only when its duration is read out of the result in the loop
(through fields, methods, conversions and parsing); the error or response
handed whole to a function (delayFor(err)) is not, since that function may
answer a constant.

errors.Is and errors.As stand for the same two functions of the libraries
that wrap errors (catalog.ErrorMatchers: github.com/pkg/errors,
golang.org/x/xerrors, cockroachdb/errors, emperror), which forward to them.

Suppress a finding with //bhlint:ignore ERR_UNBOUNDED_RETRY_DETECTED
reason, on the line or in the doc comment of the enclosing function.
*/
package retrystorm
