/*
Package retryafter defines an Analyzer that reports HTTP handlers that shed
load with 429 or 503 but do not say when to come back.

# Analyzer retryafter

retryafter: report a 429 or 503 written without a Retry-After header

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
together with the header on one branch is not blamed for the other.

Not reported: other statuses (400, 500, 502), code that reads a 429 from an
outbound response, and handlers of health, liveness and readiness probes
(recognised by their name, their receiver's, or the route they are
registered on, e.g. "/healthz"): their 503 tells a load balancer to stop
sending traffic, not a client when to retry.

Fix: set the header before writing the status:
w.Header().Set("Retry-After", "5"); w.WriteHeader(http.StatusServiceUnavailable).
Use the delay after which the lane is expected to have room again.

Escape policy: a handler that passes its ResponseWriter to a helper is
judged by what the helper is known to do (facts); one that hands it to an
interface or a function value is assumed not to set the header, but a
status written there is not seen either. A helper that sets Retry-After
anywhere is taken to set it before it writes. Headers set in a deferred
call do not count: they come after the status.

Suppress a finding with //bhlint:ignore ERR_MISSING_RETRY_AFTER reason,
on the line or in the doc comment of the enclosing function.
*/
package retryafter
