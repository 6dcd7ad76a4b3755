/*
Package retryafter defines an Analyzer that reports HTTP handlers and gRPC
methods that shed load (429, 503, ResourceExhausted, Unavailable refusing
for lack of capacity) but do not say when to come back.

# Analyzer retryafter

retryafter: report a 429, 503 or gRPC ResourceExhausted sent without saying when to retry

ERR_MISSING_RETRY_AFTER. A 429 or 503 tells a client the server is shedding
load. Without Retry-After, well-behaved clients fall back on their own
policy, and the others retry at once: the rejection becomes the next wave
of load. The payment core's isolation spec requires that every rejection
carries Retry-After (the tax lane sheds with 503 and Retry-After: 5).

What counts: a function with the net/http handler signature
(http.ResponseWriter, *http.Request) — a function, a method such as
ServeHTTP, or a function literal — that writes status 429 or 503 through
w.WriteHeader, http.Error, WriteHeader of a wrapper type, or a helper that
writes a status it is passed or a 429/503 of its own (the WritesStatus
fact), when some path from the handler's entry reaches that write without
Retry-After having been set: w.Header().Set or Add with "Retry-After" (in
any spelling), an assignment to w.Header()["Retry-After"], or a call to a
function that sets it, in this package or another (the SetsRetryAfter
fact). The status may be a constant or a variable: a variable that can
hold 429 or 503 counts on the paths where it does, so `status = 503` set
together with the header on one branch is not blamed for the other. A
status decided by a function the handler calls and returned as a value —
item, code, err := CompileAndPublish(…) returning
http.StatusTooManyRequests when the build limit is reached, then
HandleError(c, code, err) — is reported where that function returns the
429 or 503, the refusal's decision, once whichever handlers write it; a
function of another package is known by its ReturnsShedStatus fact, and
each write of its result is reported, naming it. A function that sets
Retry-After itself before returning the status is not blamed, nor a 429
or 503 returned with an error when the handler writes the status only
where the call's error was nil.

A helper that answers for an error it is passed and picks the 429 or 503
from that error's identity — errutil.HTTPError(ctx, w, err) writing 429
only where errors.Is(err, ctxlock.ErrQueueFull), or under err == ErrBusy,
errors.As(err, &limitErr), a type switch's case, a predicate of the error
alone (isOverload(err)), the write reached only through that test passing
— is reported once, at that write in the helper, naming the error, and no
call of the helper is reported for it. The shed belongs to the errors that
can reach that branch, and most callers pass others (a parse error, a
permission error): reporting each call would blame dozens of handlers for
one line. The helper is the one place that decides the shed and the place
to set the header, beside its write, which fixes every caller at once (the
x/tools rule: one finding per root cause). A helper that writes a 429 or
503 whatever the error (on the failing edge of errors.Is(err,
ErrNotFound), say) still makes each call a finding.

Web frameworks (one table per framework in the catalogue): a function
that takes echo's Context (v4, or v3 before modules) or gin's *gin.Context
and writes a 429 or 503 through it — c.JSON(429, …), c.NoContent(503),
c.String, c.Blob, c.Response().WriteHeader; c.AbortWithStatus(429),
c.AbortWithStatusJSON, c.Status, c.JSON, c.String, c.Data, c.Render — on a
path where Retry-After was not set: c.Response().Header().Set or Add
(echo), c.Header("Retry-After", …) or c.Writer.Header().Set (gin). A
net/http handler that hands the status to go-chi/render
(render.Status(r, 429) before render.JSON, or the status stored under
render.StatusCtxKey with context.WithValue: it travels in the request's
context) writes it too (sftpgo's sendAPIResponse). A
function taking the context that writes a status it is passed
(respond(c, status, msg)) makes each call passing a shed status a finding;
one that writes a shed of its own is reported where it writes it. A
helper that takes the framework's context as a context.Context (or any
other interface) and recovers it inside — switch ctx := c.(type) { case
*gin.Context: ctx.AbortWithStatusJSON(status, …) }, or c.(echo.Context) —
is such a function too: HandleError(c, http.StatusServiceUnavailable, err)
is reported at the call, and a helper that never asserts its parameter to
a framework's context writes nothing.
A status read out of a table of constants by a constant key is that
constant: a package-level map literal whose entries hold a 429 or 503
(the status itself, or a field of a struct literal) behind a getter whose
whole body returns the entry its one parameter names (versitygw's
s3err.GetAPIError(ErrSlowDown).HTTPStatusCode; the StatusTable fact, across
packages). A key chosen at run time is not followed.

Fiber's handlers (v2's *fiber.Ctx, v3's fiber.Ctx) write the status with
c.Status and c.SendStatus and set the header with c.Set or c.Append, or on
fasthttp's response header (c.Response().Header.Set); a fasthttp
handler's *RequestCtx writes it with SetStatusCode or Error's second
argument. Fiber's own limiter middleware sets Retry-After by itself and is
not reported.
Echo's rate limiter: middleware.RateLimiter(store), and
middleware.RateLimiterWithConfig with a configuration that leaves
DenyHandler unset (a literal without it, or a copy of
DefaultRateLimiterConfig), are reported where they are called: the default
deny handler answers middleware.ErrRateLimitExceeded, a 429 with no
Retry-After, and the user, who chose to shed there, is the one who can
give it a DenyHandler that sets the header. A DenyHandler or ErrorHandler
of the user's is a function taking echo's Context, judged like any
handler. chi's throttles — middleware.Throttle, ThrottleBacklog, and
ThrottleWithOpts with options that leave RetryAfterFn unset — answer 429
without Retry-After when the limit and the backlog are full, and are
reported where they are called in the same way; ThrottleWithOpts given a
RetryAfterFn sets the header. net/http's TimeoutHandler answers 503 to
every request its handler has not answered in time, and its response
cannot carry a header: a call of it is reported where it is made (give
the handler a context deadline and answer the timeout with a 503 that
sets Retry-After). Fiber is not covered: it is not built on net/http, no service of
the corpus uses it, and its limiter middleware sets Retry-After on its 429
by itself (unless configured with DisableHeaders).

Not reported: other statuses (400, 500, 502), code that reads a 429 from an
outbound response, and handlers of health, liveness and readiness probes
(recognised by their name, their receiver's, or the route they are
registered on, e.g. "/healthz"): their 503 tells a load balancer to stop
sending traffic, not a client when to retry.

A rate limiter's refusal handler. A handler passed to a function that
stores it in a field the limiter's package calls only after setting
Retry-After on the writer it passes (go-chi/httprate: the middleware sets
Retry-After, then calls the handler given with WithLimitHandler) writes
its 429 on a response that carries the header already, and is not
reported. Both steps are found in the limiter's own code, by facts
(HandsAfterRetryAfter on WithLimitHandler), not from a list: a limiter
that calls its handler on some path without the header (a burst refusal
that sets none) gives no fact, and its handler is checked as any other.

gRPC and error values. A function returning an error (last result) that
builds a gRPC status error with codes.ResourceExhausted — status.Error, status.Errorf, status.New(…).Err(), a
framework constructor of the catalogue (Temporal's
serviceerror.NewResourceExhausted, &serviceerror.ResourceExhausted{…}) —
or with codes.Unavailable built where the server refused the call itself
for lack of capacity (below), and returns it on a path where it sent no grpc-retry-pushback-ms trailer
(grpc.SetTrailer or SetHeader in a function that names the key), is
reported where the error is built, unless a RetryInfo detail was attached
(status.New(…).WithDetails(&errdetails.RetryInfo{…})). The same holds for
an error value carrying an HTTP 429 or 503 in an integer field named
Status, StatusCode or Code (echo's echo.NewHTTPError(429), pocketbase's
e.TooManyRequestsError(…)), or an error type whose status method —
StatusCode(), Status(), Code(), HTTPStatus() returning an integer — returns
a 429 or 503, or a field then taken as its status field (the CarriesShed
fact, so a type of another package is known), which a framework's error
handler writes, when the function set no Retry-After on the way. A status
is HTTP only if it can reach an HTTP response: the error type must be
declared in a package that reaches net/http. An SMTP server's
&smtp.SMTPError{Code: 503} (the reply "bad sequence of commands") has the
shape of echo's &echo.HTTPError{Code: 503}, but go-smtp never reaches
net/http, so no HTTP response is written from it, and it is not reported. A
package-level error variable that holds one (a sentinel, var ErrBusy =
status.Error(…)) is reported where a function returns it, with its
declaration as related information: the return is where the shed was
decided (HandleError mapping a datastore throttle to ErrTransactionThrottled),
and a sentinel cannot carry a delay that fits each refusal. A function that
returns ErrBusy among other results is judged there, not where ErrBusy is
declared.

Response values. A framework that has handlers return their response
rather than write it (matrix-org/util's JSONResponse{Code, JSON, Headers},
which dendrite's rate limiter returns with Code 429) writes the status and
the headers the value carries. A response type is a struct declared in a
package that reaches net/http with an integer status field (Status,
StatusCode, Code) and a headers field (a field named Header… of a map
keyed by the header's name: map[string]string, http.Header). Such a value
built with a 429 or 503 and returned is judged as an error value carrying
one: reported where it is built, unless its headers hold Retry-After (a
map literal with that key, in any spelling) or come from somewhere the
analysis does not follow (a parameter, a call), which may. A constructor
taking the code (util.MessageResponse(code, msg)) makes each call passing
a 429 or 503 a finding. A struct with a status and no headers (an audit
record) is not a response.

Replies of the server's own protocol. A server that speaks its own
protocol (websocket or TCP frames: tinode's control messages) refuses in
its own messages, with no header to carry Retry-After. When a queue is
full — the default branch of a select that has a send case — and that
branch calls a reply builder of the package, the call is reported. A
reply builder returns a composite literal, at any depth (&Msg{Ctrl:
&Ctrl{…}}), with a field whose name has Code or Status in it set to the
constant 429 or 503, and no field whose name mentions retry, backoff or
wait (the hint); or returns what another builder returns. The same reply
built anywhere else (a topic being deleted, a feature switched off) is no
shed and is not reported. Builders in other packages are not followed.

A feature switched off. A 429 or 503 whose nearest deciding branch tests
configuration alone — a field, variable or value whose name or type ends
with a word for configuration (catalog.ConfigWords: if
!s.config.Alerts.Enabled, cfg.AI.APIKey == "", len(opts.Upstreams) == 0),
compared with constants — sheds nothing: it lasts until an operator
changes the configuration, and no wait would help. A handler literal with
no branch of its own is judged where it is made (a middleware factory
returning a refusing handler when the feature is off). A shed that
configuration merely switches on (if cfg.Limit.Enabled { if n > max { 503
} }) is decided by its inner test and is reported; so is a refusal whose
test joins configuration with anything else (!cfg.Enabled || busy()).

A middleware that admits each call through a method of the user's and
sends any error it returns as ResourceExhausted (catalogue
GRPCLimiterMethods: go-grpc-middleware v2's ratelimit interceptors call
Limiter.Limit(ctx) error) sheds where that method returns a non-nil error:
a method with the catalogued name and signature is reported at each such
return on a path where it sent no grpc-retry-pushback-ms trailer
(grpc.SetTrailer(ctx, …), which the method can send on the call's context:
the interceptor adds no delay of its own), even when its package imports
no gRPC. A return of a gRPC status built with a constant code that sheds
nothing (status.Errorf(codes.Internal, …), status.New(codes.Unauthenticated,
…).Err()) is not a refusal for load: the method says what went wrong, and
no wait helps, whatever code the interceptor wraps it in.

Where the user must act: a constructor — a function that returns such an
error on every path and takes no request (no context.Context, echo.Context,
*gin.Context, *http.Request, request event or ResponseWriter parameter; a
method of the request event may still be one) — is not reported; each call
to it is, in this package or another (the ShedError fact). A constructor
that takes the code or status as a parameter (NewApiError(status, …)) makes
each call that passes a shed one a finding. Callers that only pass on an
error they received (return nil, err) are not reported: the finding is
where the shed was decided.

Unavailable, the same constructors (and Temporal's
serviceerror.NewUnavailable, &serviceerror.Unavailable{…}), is a shed only
when the block that builds it is reached only through the failing edge of
an admission check — it is dominated by that edge of a branch on one: a
rate limiter's Allow or AllowN false or its Wait error not nil
(golang.org/x/time/rate), a semaphore's TryAcquire false
(golang.org/x/sync/semaphore), a failsafe-go bulkhead's or rate limiter's
TryAcquirePermit false, an error matched with errors.Is or == against a
runtime's rejection (failsafe-go's bulkhead.ErrFull and ErrExceeded, ants'
ErrPoolOverload, gobreaker's ErrTooManyRequests), the default branch of a
non-blocking select that sends (the bounded channel is full), or an
in-flight count compared with a limit (the result of an atomic Add; an
atomic or plain load of a field or variable named inflight, active,
running, pending, outstanding or concurrent; the length of a channel) on
the side where it is over. A sentinel holding Unavailable (var ErrOverloaded
= status.Error(codes.Unavailable, …)) and a constructor returning it are
judged where they are returned or called. Everywhere else services return
Unavailable for failures — a lost database connection, a driver error, a
shard moving or not owned, a server not ready or draining, a downstream
Unavailable passed on — on which gRPC's retry policy backs off by itself;
its message is free text ("please backoff and retry" on Temporal's reports
a shard moving), so no message makes an Unavailable a shed.

Not reported besides: the standard health service (a method returning
*grpc_health_v1.HealthCheckResponse) and functions named for probes; code
that reads codes.ResourceExhausted from an outbound call (status.Code(err)
== …); an error built but logged or dropped; fakes in _test.go files.

Fix: set the header before writing the status:
w.Header().Set("Retry-After", "5"); w.WriteHeader(http.StatusServiceUnavailable).
For gRPC, attach the delay: st, _ := status.New(codes.ResourceExhausted,
msg).WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(d)});
return nil, st.Err().
Use the delay after which the lane is expected to have room again.

Escape policy: a method of a limiter's shape is taken to be one that a
server's rate-limit interceptor calls, wherever it is registered (the
registration is in another package, seen after the method); one kept only
for a client-side interceptor is reported too. A status result is followed only from the call to the
write (code, err := decide(); HandleError(c, code, err)); a result stored
in a field or merged with other statuses in a variable is not, and a handler
that sets Retry-After only on the branch where the result is a 429 is still
reported (the path check does not split on the result's value). A handler
that passes its ResponseWriter to a helper is
judged by what the helper is known to do (facts); one that hands it to an
interface or a function value is assumed not to set the header, but a
status written there is not seen either. A helper that sets Retry-After
anywhere is taken to set it before it writes. A helper that chooses the
shed from its error's identity is reported even when every caller that can
pass that error sets Retry-After before calling it (the callers' errors
are not traced), and one analysed only for facts (a dependency) is
reported nowhere, its callers being silent. The error tested is the
parameter or a call's result computed from it (err = MapDBError(err) is
taken to keep the identities it does not map); a test joined to another
with ||, or on a copy stored elsewhere, is not seen as one, and the write
counts as its callers' (each call reported). A status variable set under
the test and written after the branches join counts as chosen there. Headers set in a deferred
call do not count: they come after the status. For gRPC, WithDetails with
details the pass cannot see (a slice built elsewhere) is taken to carry a
RetryInfo; a pushback trailer sent by a helper, or by an interceptor around
the method, is not seen, and the method is still reported. An Unavailable
after an admission check the catalogue does not know — the server's own
limiter method, an interface whose Allow is not a catalogued one, a flag
set elsewhere, a check joined to another with || —
is not reported; neither is one returned by a helper that made the check
(the helper is judged if it builds the status itself after the check). A shedding
middleware's configuration built elsewhere (a parameter, a function's
result) is taken to set a deny handler. An error type whose status method
chooses between statuses is not taken to carry a shed, and one declared
in a package that reaches neither net/http nor gRPC is not read, nor is a
status field or method of a type whose package does not reach net/http (an
imported type's package is judged by the packages its export data names);
a shed error
returned by a function that also returns other errors is reported in that
function, whatever its callers add to it.

Suppress a finding with //bhlint:ignore ERR_MISSING_RETRY_AFTER reason,
on the line or in the doc comment of the enclosing function.
*/
package retryafter
