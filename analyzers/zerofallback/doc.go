/*
Package zerofallback defines an Analyzer that reports fallback paths that
serve a hard-coded money value.

# Analyzer zerofallback

zerofallback: report a fallback path that returns a hard-coded money, tax or rate value instead of an error or a verified table

ERR_UNTESTED_COMPENSATION_REJECTED. When a dependency fails fast — the tax
API is slow and its lane sheds, the breaker is open — the code on the
failure branch decides what the caller gets. If it serves 0% tax, a flat
fee or a made-up rate with a nil error, every order settles with a number
nobody can tell from a real one: a compliance breach and ledger entries
that never reconcile. A fallback may serve money only from a pre-computed
table verified against the authoritative rates.

What counts as a fallback path: the branch taken on an error — if err !=
nil, the else of if err == nil, errors.Is and errors.As (including the
breaker's and the bulkhead's rejections: gobreaker ErrOpenState and
ErrTooManyRequests, failsafe-go's ErrOpen and ErrFull, the bhlint runtime's
*bulkhead.Rejection, ErrRejected and AsRejection), err == Sentinel, a
switch case on an error value or type; the whole body of a function
registered as a fallback (failsafe-go fallback.NewWithFunc); the value
registered with fallback.NewWithResult; and a deferred function that calls
recover(). A branch taken because a row or key was not found
(sql.ErrNoRows, pgx.ErrNoRows, redis.Nil…) is an answer, not a failure, and
is not a fallback path.

What counts as money: a result, variable or struct field whose type is a
decimal type (shopspring/decimal, cockroachdb/apd, govalues/decimal,
go-money) or a named numeric or struct type whose name has a money word
(Money, Cents, TaxAmount, Price, Rate), or whose name has one (taxCents,
shippingFee; rate, total, amount and balance only for non-integer types, so
a request rate or an item total is not money; sampleRate, totalCount and
rateLimit never are). An unnamed numeric result takes the function's name
(taxFor). The patterns are bhlint's catalogue (internal/catalog, money.go).

What is reported: on a fallback path, a money value that is hard-coded — a
constant (0, 0.07, a named constant), a zero or all-constant money
composite literal, a struct literal that leaves a money field zero,
decimal.Zero, a decimal built from constants, an amount times a literal
rate, or an entry of a hard-coded table (a package-level map, slice or
array initialised with constants, which no contract test verifies) —
returned with a nil error or from a function with no error result,
directly or through a variable or named result that the fallback path set.
In a deferred recover, setting a named money result to such a value without
also setting the named error result is reported.

What is not: the value returned alongside a non-nil error (it is not used);
a return that also says false in a bool result ("found", "ok"); a value
read from a verified compensation table (bhlint's runtime type
*bulkhead/compensation.Table, known by import path); non-money values
(counts, flags, strings); test files (_test.go), whose fakes fail on
purpose; the decimal libraries of the catalogue themselves; any function marked
//bhlint:verified-compensation reason (in its doc comment, or on or above a
function literal), which declares that the values it serves are verified
by other means.

Fix: return the error and let the caller shed (503 with Retry-After), or
serve the value from a verified table: compensation.Load refuses a table
whose content is not the content its contract test (compensation.Verify,
±0.5% of the authoritative rates) recorded.

Escape policy: variables are followed within the function by their last
write before the return, by position; a write on a fallback branch that
ends in a return or a jump does not reach code after the branch. Values
stored in struct fields after construction, in package-level variables,
or passed to other functions are not followed, and calls through
interfaces are not looked into: a hard-coded value hidden there is missed
rather than guessed at.

Suppress a finding with //bhlint:ignore ERR_UNTESTED_COMPENSATION_REJECTED
reason, on the line or in the doc comment of the enclosing function.
*/
package zerofallback
