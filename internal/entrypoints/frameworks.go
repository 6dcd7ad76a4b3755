package entrypoints

// The frameworks' registration calls, one table per framework. A key is
// what catalog.Key prints for the callee (for an interface method, the
// interface's method); the value is the index, among the call's parameters
// (a method's receiver not counted), of the first handler: every argument
// from there on that is a function, a method value or a value with the
// framework's handler method is a handler (gin's handlers ...HandlerFunc,
// echo's middleware after the handler).

// netHTTP is the standard library: a mux, the package-level mux, and the
// servers that take a handler directly. http.Server{Handler: h} is a field
// (serverHandlerFields).
var netHTTP = map[string]int{
	"(*net/http.ServeMux).Handle":     1,
	"(*net/http.ServeMux).HandleFunc": 1,
	"net/http.Handle":                 1,
	"net/http.HandleFunc":             1,
	"net/http.ListenAndServe":         1,
	"net/http.ListenAndServeTLS":      3,
	"net/http.Serve":                  1,
	"net/http.ServeTLS":               1,
}

// serverHandlerFields are struct fields whose value serves every request
// of a server: http.Server{Handler: mux}.
var serverHandlerFields = map[string]string{
	"net/http.Server": "Handler",
}

// chiMethods are go-chi's registration methods, on chi.Router and *chi.Mux
// (v1 to v5 share them).
var chiMethods = map[string]int{
	"Handle": 1, "HandleFunc": 1, "Method": 2, "MethodFunc": 2,
	"Connect": 1, "Delete": 1, "Get": 1, "Head": 1, "Options": 1, "Patch": 1, "Post": 1, "Put": 1, "Trace": 1,
	"NotFound": 0, "MethodNotAllowed": 0, "Mount": 1,
}

var chi = expand(chiMethods,
	"(github.com/go-chi/chi/v5.Router)", "(*github.com/go-chi/chi/v5.Mux)",
	"(github.com/go-chi/chi.Router)", "(*github.com/go-chi/chi.Mux)")

// gorillaMux is gorilla/mux: the router and its routes.
var gorillaMux = map[string]int{
	"(*github.com/gorilla/mux.Router).Handle":     1,
	"(*github.com/gorilla/mux.Router).HandleFunc": 1,
	"(*github.com/gorilla/mux.Route).Handler":     0,
	"(*github.com/gorilla/mux.Route).HandlerFunc": 0,
}

// echoMethods are labstack/echo's route methods, on *Echo and *Group;
// the handler comes after the path (Match and Add: after the methods).
var echoMethods = map[string]int{
	"GET": 1, "POST": 1, "PUT": 1, "DELETE": 1, "PATCH": 1, "HEAD": 1, "OPTIONS": 1, "CONNECT": 1, "TRACE": 1,
	"Any": 1, "Match": 2, "Add": 2, "RouteNotFound": 1,
}

var echo = expand(echoMethods,
	"(*github.com/labstack/echo/v4.Echo)", "(*github.com/labstack/echo/v4.Group)",
	"(*github.com/labstack/echo.Echo)", "(*github.com/labstack/echo.Group)")

// ginMethods are gin's route methods, on *RouterGroup (which *Engine
// embeds) and the IRoutes/IRouter interfaces.
var ginMethods = map[string]int{
	"GET": 1, "POST": 1, "PUT": 1, "DELETE": 1, "PATCH": 1, "HEAD": 1, "OPTIONS": 1, "Any": 1,
	"Handle": 2, "Match": 2,
}

var gin = expand(ginMethods,
	"(*github.com/gin-gonic/gin.RouterGroup)", "(github.com/gin-gonic/gin.IRoutes)", "(github.com/gin-gonic/gin.IRouter)")

// fiberMethods are gofiber's route methods, on *App, *Group and the Router
// interface Group returns (v2 and v3 share them); the handlers come after
// the path (Add: after the method).
var fiberMethods = map[string]int{
	"Get": 1, "Head": 1, "Post": 1, "Put": 1, "Delete": 1, "Connect": 1, "Options": 1, "Trace": 1, "Patch": 1,
	"All": 1, "Add": 2,
}

var fiber = expand(fiberMethods,
	"(*github.com/gofiber/fiber/v2.App)", "(*github.com/gofiber/fiber/v2.Group)", "(github.com/gofiber/fiber/v2.Router)",
	"(*github.com/gofiber/fiber/v3.App)", "(*github.com/gofiber/fiber/v3.Group)", "(github.com/gofiber/fiber/v3.Router)")

// httprouter is julienschmidt/httprouter.
var httprouter = expand(map[string]int{
	"GET": 1, "POST": 1, "PUT": 1, "DELETE": 1, "PATCH": 1, "HEAD": 1, "OPTIONS": 1,
	"Handle": 2, "Handler": 2, "HandlerFunc": 2,
}, "(*github.com/julienschmidt/httprouter.Router)")

// fastglue is zerodha/fastglue, fasthttp's router with request handlers of
// its own type (func(*fastglue.Request) error).
var fastglue = expand(map[string]int{
	"GET": 1, "POST": 1, "PUT": 1, "DELETE": 1, "OPTIONS": 1, "HEAD": 1, "Any": 1, "NotFound": 0,
}, "(*github.com/zerodha/fastglue.Fastglue)")

// grpcRegistrations register a service implementation by value; every
// exported method of the interface the parameter has is an entry point.
// Generated RegisterXxxServer functions are found by shape (grpcGenerated).
var grpcRegistrations = map[string]int{
	"(*google.golang.org/grpc.Server).RegisterService":          1,
	"(google.golang.org/grpc.ServiceRegistrar).RegisterService": 1,
}

// pocketbaseRouter is pocketbase's tools/router: routes and middleware are
// func(e T) error values on generic route groups (the Router embeds one),
// run from the net/http mux the router builds, so only the registration
// names them.
var pocketbaseRouter = withCalls(expand(map[string]int{
	"GET": 1, "POST": 1, "PUT": 1, "DELETE": 1, "PATCH": 1, "HEAD": 1, "OPTIONS": 1, "SEARCH": 1, "Any": 1,
	"Route": 2, "BindFunc": 0,
}, "(*github.com/pocketbase/pocketbase/tools/router.RouterGroup)"),
	"(*github.com/pocketbase/pocketbase/tools/router.Route).BindFunc", 0)

// goKitServers are go-kit's transports: a server made for an endpoint calls
// it for every request or RPC (the router then serves the transport's
// ServeHTTP, the framework's own), so the endpoint is the handler: the
// closure an endpoint factory returns, through endpoint middlewares. Only
// that argument: the options after it configure the server once.
var goKitServers = map[string]int{
	"github.com/go-kit/kit/transport/http.NewServer": 0,
	"github.com/go-kit/kit/transport/grpc.NewServer": 0,
}

// interactiveTables are the tables of handler registrations.
var interactiveTables = []struct {
	framework string
	calls     map[string]int
}{
	{"net/http", netHTTP},
	{"chi", chi},
	{"gorilla/mux", gorillaMux},
	{"echo", echo},
	{"gin", gin},
	{"fiber", fiber},
	{"httprouter", httprouter},
	{"fastglue", fastglue},
	{"pocketbase", pocketbaseRouter},
}

// goRunners start their function argument in a new goroutine, like a go
// statement: the value is the parameter index of the function.
var goRunners = map[string]int{
	"(*golang.org/x/sync/errgroup.Group).Go":      0,
	"(*sync.WaitGroup).Go":                        0,
	"(*github.com/oklog/run.Group).Add":           0,
	"(*github.com/sourcegraph/conc.WaitGroup).Go": 0,
}

// schedulers run their function argument on a schedule for the life of the
// process, whatever the function looks like.
var schedulers = map[string]int{
	"(*github.com/robfig/cron/v3.Cron).AddFunc":                   1,
	"(*github.com/robfig/cron/v3.Cron).AddJob":                    1,
	"(*github.com/robfig/cron/v3.Cron).Schedule":                  1,
	"(*github.com/robfig/cron.Cron).AddFunc":                      1,
	"(*github.com/robfig/cron.Cron).AddJob":                       1,
	"(*github.com/pocketbase/pocketbase/tools/cron.Cron).Add":     2,
	"(*github.com/pocketbase/pocketbase/tools/cron.Cron).MustAdd": 2,
	// go-co-op/gocron: v1 schedules s.Every(…).Do(job, args…); v2 wraps
	// the job in a task for Scheduler.NewJob(definition, task).
	"(*github.com/go-co-op/gocron.Scheduler).Do": 0,
	"github.com/go-co-op/gocron/v2.NewTask":      0,
}

// consumers hand their function argument to a message broker's client,
// which calls it for every message of a subscription, for as long as the
// subscription lasts (the process's, when start-up subscribes): background
// work, the consumer of a queue, whatever the function looks like. The
// value is the parameter index of the handler; a handler that is an
// interface value (sarama's ConsumerGroupHandler) runs its methods. Brokers
// whose clients hand messages over a channel or an iterator (amqp091,
// go-redis, kafka-go, franz-go) need no row: their receive loops are loops.
var consumers = map[string]int{
	"(*github.com/nats-io/nats.go.Conn).Subscribe":                               1,
	"(*github.com/nats-io/nats.go.Conn).QueueSubscribe":                          2,
	"(*github.com/nats-io/nats.go.EncodedConn).Subscribe":                        1,
	"(*github.com/nats-io/nats.go.EncodedConn).QueueSubscribe":                   2,
	"(github.com/nats-io/nats.go.JetStream).Subscribe":                           1,
	"(github.com/nats-io/nats.go.JetStream).QueueSubscribe":                      2,
	"(github.com/nats-io/nats.go/jetstream.Consumer).Consume":                    0,
	"(github.com/eclipse/paho.mqtt.golang.Client).Subscribe":                     2,
	"(github.com/eclipse/paho.mqtt.golang.Client).AddRoute":                      1,
	"(github.com/IBM/sarama.ConsumerGroup).Consume":                              2,
	"(github.com/Shopify/sarama.ConsumerGroup).Consume":                          2,
	"(*cloud.google.com/go/pubsub.Subscription).Receive":                         1,
	"(*github.com/hibiken/asynq.ServeMux).HandleFunc":                            1,
	"(*github.com/hibiken/asynq.ServeMux).Handle":                                1,
	"(*github.com/ThreeDotsLabs/watermill/message.Router).AddHandler":            5,
	"(*github.com/ThreeDotsLabs/watermill/message.Router).AddNoPublisherHandler": 3,
}

// sleeps are the calls that make a loop wait between rounds.
var sleeps = map[string]bool{"time.Sleep": true}

// withCalls adds one call to a table.
func withCalls(table map[string]int, key string, index int) map[string]int {
	table[key] = index
	return table
}

func expand(methods map[string]int, receivers ...string) map[string]int {
	out := map[string]int{}
	for _, recv := range receivers {
		for m, i := range methods {
			out[recv+"."+m] = i
		}
	}
	return out
}

// frameworkPackages are the packages of the routers and servers
// themselves: a *chi.Mux handed to http.Server is the router, not a
// handler of the program's own.
var frameworkPackages = []string{
	"net/http", "github.com/go-chi/chi", "github.com/gorilla/mux", "github.com/labstack/echo",
	"github.com/gin-gonic/gin", "github.com/julienschmidt/httprouter", "google.golang.org/grpc",
	"github.com/grpc-ecosystem/grpc-gateway", "github.com/pocketbase/pocketbase/tools/router",
	"github.com/gofiber/fiber", "github.com/go-kit/kit/transport",
}
