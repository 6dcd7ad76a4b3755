package catalog

import "strings"

// Web frameworks: where a handler writes a response status and where it
// sets a response header, one table per framework. A framework's handlers
// receive its request context (echo.Context, *gin.Context); a call of a
// StatusWrites method writes the status passed as the given argument, a
// call of a HeaderSets method sets the header named by the given argument.
// Indexes count the call's arguments without the receiver. Keys are full
// names as in the other tables. Headers set through the net/http Header a
// framework exposes (echo's c.Response().Header().Set, gin's
// c.Writer.Header().Set) need no row: they are net/http's.

// HTTPFramework is the catalogue of one web framework.
type HTTPFramework struct {
	Name string
	// Contexts are the type keys of the request context its handlers take.
	Contexts []string
	// StatusWrites are the calls that write a response status, with the
	// index of the status argument.
	StatusWrites map[string]int
	// HeaderSets are the calls that set a response header, with the index
	// of the header name.
	HeaderSets map[string]int
	// SetRetryAfter is how a handler of this framework sets the header, for
	// messages.
	SetRetryAfter string
	// StatusContextKeys are package-level context keys under which a
	// handler may store the status for the framework to write
	// (context.WithValue(r.Context(), render.StatusCtxKey, 429)).
	StatusContextKeys []string
}

// IsStatusContextKey reports whether the package-level variable named key
// (path.Name) is one of the frameworks' StatusContextKeys.
func IsStatusContextKey(key string) bool {
	for _, f := range HTTPFrameworks {
		for _, k := range f.StatusContextKeys {
			if k == key {
				return true
			}
		}
	}
	return false
}

// echoWrites are the methods of echo's Context that write the status they
// are passed first (Redirect is left out: a 3xx).
var echoWrites = []string{"JSON", "JSONPretty", "JSONBlob", "JSONP", "JSONPBlob", "XML", "XMLPretty",
	"XMLBlob", "HTML", "HTMLBlob", "String", "Blob", "Stream", "NoContent"}

func echoTable(path string) *HTTPFramework {
	f := &HTTPFramework{
		Name:          "echo",
		Contexts:      []string{path + ".Context"},
		StatusWrites:  map[string]int{},
		HeaderSets:    map[string]int{},
		SetRetryAfter: `c.Response().Header().Set("Retry-After", "5")`,
	}
	for _, m := range echoWrites {
		f.StatusWrites["("+path+".Context)."+m] = 0
	}
	return f
}

// Echo is github.com/labstack/echo/v4.
var Echo = echoTable("github.com/labstack/echo/v4")

// EchoV3 is github.com/labstack/echo before modules (listmonk's).
var EchoV3 = echoTable("github.com/labstack/echo")

// Gin is github.com/gin-gonic/gin: *gin.Context writes the status it is
// passed first (Redirect left out), and sets headers with c.Header.
var Gin = &HTTPFramework{
	Name:     "gin",
	Contexts: []string{"*github.com/gin-gonic/gin.Context"},
	StatusWrites: ginWrites("Status", "AbortWithStatus", "AbortWithStatusJSON", "AbortWithStatusPureJSON",
		"AbortWithError", "JSON", "IndentedJSON", "SecureJSON", "JSONP", "AsciiJSON", "PureJSON", "XML", "YAML",
		"TOML", "ProtoBuf", "String", "Data", "DataFromReader", "Render", "HTML"),
	HeaderSets:    map[string]int{"(*github.com/gin-gonic/gin.Context).Header": 0},
	SetRetryAfter: `c.Header("Retry-After", "5")`,
}

func ginWrites(methods ...string) map[string]int {
	m := map[string]int{}
	for _, name := range methods {
		m["(*github.com/gin-gonic/gin.Context)."+name] = 0
	}
	return m
}

// ChiRender is github.com/go-chi/render: a handler of net/http's hands the
// status to render.Status, which keeps it in the request's context, and
// the next render.JSON (or any of its renderers) writes it. The header is
// set on the net/http ResponseWriter, which needs no row.
var ChiRender = &HTTPFramework{
	Name:              "go-chi/render",
	StatusContextKeys: []string{"github.com/go-chi/render.StatusCtxKey"},
	StatusWrites:      map[string]int{"github.com/go-chi/render.Status": 1},
	HeaderSets:        map[string]int{},
	SetRetryAfter:     `w.Header().Set("Retry-After", "5")`,
}

// fiberTable is a major version of gofiber/fiber, whose handlers take ctx
// (v2's *fiber.Ctx, v3's fiber.Ctx interface), the receiver recv of its
// methods: c.Status(429) and
// c.SendStatus(503) write the status, c.Set and c.Append set a header. Its
// limiter middleware sets Retry-After on the 429 it sends by itself (unless
// configured with DisableHeaders), so only the user's own writes are read.
func fiberTable(ctx, recv string) *HTTPFramework {
	f := &HTTPFramework{
		Name:          "fiber",
		Contexts:      []string{ctx},
		StatusWrites:  map[string]int{},
		HeaderSets:    map[string]int{},
		SetRetryAfter: `c.Set("Retry-After", "5")`,
	}
	for _, m := range []string{"Status", "SendStatus"} {
		f.StatusWrites["("+recv+")."+m] = 0
	}
	for _, m := range []string{"Set", "Append"} {
		f.HeaderSets["("+recv+")."+m] = 0
	}
	return f
}

// FiberV2 and FiberV3 are github.com/gofiber/fiber's two major versions.
var (
	FiberV2 = fiberTable("*github.com/gofiber/fiber/v2.Ctx", "*github.com/gofiber/fiber/v2.Ctx")
	FiberV3 = fiberTable("github.com/gofiber/fiber/v3.Ctx", "github.com/gofiber/fiber/v3.Ctx")
)

// Fasthttp is github.com/valyala/fasthttp, which fiber and fastglue are
// built on: its RequestCtx writes the status (SetStatusCode, Error's
// second argument), and its ResponseHeader sets headers (what fiber's
// c.Response().Header.Set reaches too).
var Fasthttp = &HTTPFramework{
	Name:     "fasthttp",
	Contexts: []string{"*github.com/valyala/fasthttp.RequestCtx"},
	StatusWrites: map[string]int{
		"(*github.com/valyala/fasthttp.RequestCtx).SetStatusCode": 0,
		"(*github.com/valyala/fasthttp.RequestCtx).Error":         1,
		"(*github.com/valyala/fasthttp.Response).SetStatusCode":   0,
	},
	HeaderSets: map[string]int{
		"(*github.com/valyala/fasthttp.ResponseHeader).Set": 0,
		"(*github.com/valyala/fasthttp.ResponseHeader).Add": 0,
	},
	SetRetryAfter: `ctx.Response.Header.Set("Retry-After", "5")`,
}

// HTTPFrameworks are the frameworks whose handlers retryafter reads.
var HTTPFrameworks = []*HTTPFramework{Echo, EchoV3, Gin, ChiRender, FiberV2, FiberV3, Fasthttp}

// FrameworkOfContext returns the framework whose request context has the
// type key t, or nil.
func FrameworkOfContext(t string) *HTTPFramework {
	for _, f := range HTTPFrameworks {
		for _, c := range f.Contexts {
			if c == t {
				return f
			}
		}
	}
	return nil
}

// FrameworkStatusWrite returns the index of the status argument of the
// framework call key, if it writes a status.
func FrameworkStatusWrite(key string) (int, bool) {
	for _, f := range HTTPFrameworks {
		if i, ok := f.StatusWrites[key]; ok {
			return i, true
		}
	}
	return 0, false
}

// FrameworkHeaderSet returns the index of the header-name argument of the
// framework call key, if it sets a response header.
func FrameworkHeaderSet(key string) (int, bool) {
	for _, f := range HTTPFrameworks {
		if i, ok := f.HeaderSets[key]; ok {
			return i, true
		}
	}
	return 0, false
}

// ShedMiddleware is a framework middleware that refuses requests with a
// 429 of its own. A call is a shed without Retry-After unless its
// configuration (the argument at ConfigArg, -1 for none) sets the field
// DenyField to a handler of the user's, which is then judged as a handler.
type ShedMiddleware struct {
	ConfigArg int
	DenyField string
	// Sends says what the middleware answers by default.
	Sends string
	// Fix says what to give it so that its refusals carry Retry-After.
	Fix string
}

// ShedMiddlewares are the shedding middlewares by key: echo's rate
// limiter, whose default DenyHandler returns middleware.ErrRateLimitExceeded,
// a 429 with no Retry-After; chi's throttles; net/http's TimeoutHandler.
var ShedMiddlewares = map[string]ShedMiddleware{
	"github.com/labstack/echo/v4/middleware.RateLimiter": {ConfigArg: -1, DenyField: "DenyHandler",
		Sends: "429 Too Many Requests (middleware.ErrRateLimitExceeded)", Fix: echoDenyFix},
	"github.com/labstack/echo/v4/middleware.RateLimiterWithConfig": {ConfigArg: 0, DenyField: "DenyHandler",
		Sends: "429 Too Many Requests (middleware.ErrRateLimitExceeded)", Fix: echoDenyFix},
	// chi's throttles answer 429 when the limit and the backlog are full or
	// the backlog wait times out, with Retry-After only when ThrottleOpts
	// has a RetryAfterFn; Throttle and ThrottleBacklog never set one.
	"github.com/go-chi/chi/v5/middleware.Throttle": {ConfigArg: -1, DenyField: "RetryAfterFn",
		Sends: "429 Too Many Requests", Fix: chiThrottleFix},
	"github.com/go-chi/chi/v5/middleware.ThrottleBacklog": {ConfigArg: -1, DenyField: "RetryAfterFn",
		Sends: "429 Too Many Requests", Fix: chiThrottleFix},
	"github.com/go-chi/chi/v5/middleware.ThrottleWithOpts": {ConfigArg: 0, DenyField: "RetryAfterFn",
		Sends: "429 Too Many Requests", Fix: chiThrottleFix},
	// net/http's TimeoutHandler answers 503 to every request its handler
	// has not answered in time, with no way to add a header: nothing to
	// configure (no DenyField).
	"net/http.TimeoutHandler": {ConfigArg: -1,
		Sends: "503 Service Unavailable (to each request its handler has not answered in time)", Fix: timeoutHandlerFix},
}

const (
	echoDenyFix    = `give its configuration a DenyHandler that sets c.Response().Header().Set("Retry-After", …) before returning the error`
	chiThrottleFix = `use middleware.ThrottleWithOpts with a RetryAfterFn, which sets Retry-After on each refusal`
	// TimeoutHandler writes its 503 itself; the handler's deadline has to
	// come from elsewhere for the answer to say when to come back.
	timeoutHandlerFix = `give the handler a context deadline instead (http.TimeoutHandler's own 503 cannot carry a header) and answer a timeout with a 503 that sets Retry-After`
)

// StatusMethods are the methods through which an error type says which
// HTTP status its framework's error handler writes (func (e *E) StatusCode()
// int): a type whose method returns a 429 or 503 carries a shed, and a field
// the method returns is a status field.
var StatusMethods = []string{"Status", "StatusCode", "Code", "HTTPStatus", "HTTPStatusCode", "GetStatus", "GetStatusCode"}

// ShedMiddlewarePackage reports whether path is the package of a shedding
// middleware, whose Default… configuration leaves the default deny handler
// in place.
func ShedMiddlewarePackage(path string) bool {
	for key := range ShedMiddlewares {
		if strings.HasPrefix(key, path+".") && !strings.Contains(key[len(path)+1:], "/") {
			return true
		}
	}
	return false
}
