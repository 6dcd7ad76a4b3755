package app

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/go-chi/chi/v5"
	"github.com/gofiber/fiber/v2"
	"github.com/gorilla/mux"
	"github.com/julienschmidt/httprouter"
	"github.com/labstack/echo/v4"
	"github.com/robfig/cron/v3"
	"github.com/zerodha/fastglue"

	"app/appv1connect"
	"connectrpc.com/connect"
	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc"

	"pb"
)

type Server struct{ jobs chan string }

func (s *Server) listFeeds(w http.ResponseWriter, r *http.Request)                       {}
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request)                       {}
func (s *Server) feed(c echo.Context) error                                              { return nil }
func (s *Server) ginFeed(c *gin.Context)                                                 {}
func (s *Server) fiberFeed(c *fiber.Ctx) error                                           { return nil }
func (s *Server) routerFeed(w http.ResponseWriter, r *http.Request, p httprouter.Params) {}

func logging(next http.Handler) http.Handler      { return next }
func auth(next echo.HandlerFunc) echo.HandlerFunc { return next }
func ginAuth(c *gin.Context)                      {}

// ---- interactive ----

func routes(s *Server) {
	m := http.NewServeMux()
	m.HandleFunc("/feeds", s.listFeeds)                                      // want `interactive: net/http handler registered with ServeMux.HandleFunc: \(\*app.Server\).listFeeds`
	m.Handle("/all", s)                                                      // want `interactive: net/http handler registered with ServeMux.Handle: \(\*app.Server\).ServeHTTP`
	m.Handle("/logged", logging(http.HandlerFunc(s.listFeeds)))              // want `interactive: net/http handler registered with ServeMux.Handle: \(\*app.Server\).listFeeds`
	http.HandleFunc("/lit", func(w http.ResponseWriter, r *http.Request) {}) // want `interactive: net/http handler registered with http.HandleFunc: func literal in app.routes`
	srv := &http.Server{Handler: s}                                          // want `interactive: net/http handler of http.Server\{Handler\}: \(\*app.Server\).ServeHTTP`
	_ = srv
	// The router handed to the server is the framework's, not a handler.
	_ = &http.Server{Handler: m}
}

func frameworks(s *Server) {
	var r chi.Router = chi.NewRouter()
	r.Get("/feeds", s.listFeeds) // want `interactive: chi handler registered with Router.Get: \(\*app.Server\).listFeeds`
	mx := mux.NewRouter()
	mx.HandleFunc("/feeds", s.listFeeds).Methods("GET") // want `interactive: gorilla/mux handler registered with Router.HandleFunc: \(\*app.Server\).listFeeds`
	e := echo.New()
	e.GET("/feeds", s.feed, auth)          // want `interactive: echo handler registered with Echo.GET: \(\*app.Server\).feed` `interactive: echo handler registered with Echo.GET: app.auth`
	e.Group("/api").POST("/feeds", s.feed) // want `interactive: echo handler registered with Group.POST: \(\*app.Server\).feed`
	g := gin.New()
	g.GET("/feeds", ginAuth, s.ginFeed) // want `interactive: gin handler registered with RouterGroup.GET: app.ginAuth` `interactive: gin handler registered with RouterGroup.GET: \(\*app.Server\).ginFeed`
	hr := httprouter.New()
	hr.GET("/feeds", s.routerFeed) // want `interactive: httprouter handler registered with Router.GET: \(\*app.Server\).routerFeed`
	f := fiber.New()
	f.Get("/feeds", s.fiberFeed)                   // want `interactive: fiber handler registered with App.Get: \(\*app.Server\).fiberFeed`
	f.Get("/made", fiberHandler("made"))           // want `interactive: fiber handler registered with App.Get: func literal in app.fiberHandler`
	f.Get("/logged", logged(s.fiberFeed))          // want `interactive: fiber handler registered with App.Get: \(\*app.Server\).fiberFeed`
	f.Get("/table", handlerFrom(fiberRoutes, "x")) // a handler looked up in a table: nothing to name
	api := f.Group("/api")                         // the group's prefix is no route
	api.Post("/feeds", func(c *fiber.Ctx) error {  // want `interactive: fiber handler registered with Router.Post: func literal in app.frameworks`
		return c.SendString("ok")
	})
}

// logged is a middleware, not a factory: what the route runs is the
// handler it wraps, and its own literal is not named as a handler.
func logged(next fiber.Handler) fiber.Handler {
	return func(c *fiber.Ctx) error { return next(c) }
}

var fiberRoutes = map[string]fiber.Handler{}

// handlerFrom returns a handler it looks up: no literal of its own.
func handlerFrom(m map[string]fiber.Handler, k string) fiber.Handler { return m[k] }

// fiberHandler is a factory: what the route runs is the literal it returns.
func fiberHandler(name string) fiber.Handler {
	return func(c *fiber.Ctx) error { return c.SendString(name) }
}

type feedService struct {
	pb.UnimplementedFeedServiceServer
}

func (f *feedService) GetFeed(ctx context.Context, r *pb.Req) (*pb.Resp, error) { return nil, nil }

func grpcServer() {
	gs := grpc.NewServer()
	pb.RegisterFeedServiceServer(gs, &feedService{}) // want `interactive: gRPC method of pb.FeedServiceServer: \(\*app.feedService\).GetFeed` `interactive: gRPC method of pb.FeedServiceServer: \(pb.UnimplementedFeedServiceServer\).ListFeeds`
}

// A method of the program's own that happens to be called HandleFunc is
// not a router's.
type myRouter struct{}

func (myRouter) HandleFunc(path string, f func()) {}

func notARouter() {
	myRouter{}.HandleFunc("/x", func() {})
}

// ---- background ----

func (s *Server) run(ctx context.Context) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.refresh()
		}
	}
}

func (s *Server) refresh() {}

func (s *Server) start(ctx context.Context) { s.run(ctx) }

func consume(jobs chan string) {
	for j := range jobs {
		_ = j
	}
}

func pollForever() {
	for {
		time.Sleep(time.Second)
	}
}

func spin(s *Server) {
	for {
		s.refresh()
	}
}

func startup(ctx context.Context, s *Server) {
	go s.run(ctx)           // want `background: ticker loop started by go Server.run\(\): \(\*app.Server\).run`
	go s.start(ctx)         // want `background: ticker loop started by go Server.start\(\): \(\*app.Server\).start`
	go consume(s.jobs)      // want `background: receive loop started by go app.consume\(\): app.consume`
	go pollForever()        // want `background: sleep loop started by go app.pollForever\(\): app.pollForever`
	go func() { spin(s) }() // want `background: infinite loop started by go func literal in app.startup\(\): func literal in app.startup`
	var g errgroup.Group
	g.Go(func() error { // want `background: receive loop started by Group.Go: func literal in app.startup`
		for j := range s.jobs {
			_ = j
		}
		return nil
	})
	c := cron.New()
	c.AddFunc("@hourly", s.refresh) // want `background: job scheduled with Cron.AddFunc: \(\*app.Server\).refresh`
	c.AddJob("@daily", cleaner{})   // want `background: job scheduled with Cron.AddJob: \(app.cleaner\).Run`
}

type cleaner struct{}

func (cleaner) Run() {}

// ---- traps: goroutines that end ----

func sendMail(to string) {}

func perRequest(w http.ResponseWriter, r *http.Request, items []string) {
	go sendMail("a@b") // a goroutine per request that returns: not background
	go func() {
		for _, it := range items { // a range over a slice ends
			sendMail(it)
		}
	}()
	results := make(chan int)
	go func() {
		for i := 0; i < len(items); i++ { // a counted fan-in of n results
			<-results
		}
	}()
	go func() {
		for { // a loop with a way out
			if len(items) == 0 {
				break
			}
			items = items[1:]
		}
	}()
}

// matchAll's workers range over a channel it makes, feeds and closes, then
// waits for: the request's own work (claircore's EnrichedMatch), not a
// background lane.
func matchAll(ctx context.Context, items []string) error {
	work := make(chan string)
	var g errgroup.Group
	for range 4 {
		g.Go(func() error {
			for {
				select {
				case <-ctx.Done(): // a signal, not an item
					return ctx.Err()
				case it, ok := <-work:
					if !ok {
						return nil
					}
					sendMail(it)
				}
			}
		})
	}
	done := make(chan struct{})
	go drain(ctx, work, done)
	var feed errgroup.Group
	feed.Go(func() error { // the feeder closes the channel, as claircore's does
		for _, it := range items {
			work <- it
		}
		close(work)
		return nil
	})
	<-done
	_ = feed.Wait()
	waitFor(&pending)
	return g.Wait()
}

var pending atomic.Int32

// waitFor sleeps until nothing is pending: matchAll calls it, but matchAll
// itself has no loop that runs for the life of the process (as errgroup's
// Wait spins on its WaitGroup).
func waitFor(n *atomic.Int32) {
	for n.Load() > 0 {
		time.Sleep(time.Millisecond)
	}
}

func drain(ctx context.Context, work chan string, done chan struct{}) {
	for it := range work {
		select {
		case <-ctx.Done(): // a signal, as in claircore's workers
			return
		default:
		}
		sendMail(it)
	}
	close(done)
}

// A channel kept in a field outlives the call that made it: its reader is
// a consumer for the life of the process.
func (s *Server) startQueue() {
	q := make(chan string)
	s.jobs = q
	go consume(q) // want `background: receive loop started by go app.consume\(\): app.consume`
}

func (s *Server) glueMessages(r *fastglue.Request) error { return nil }

// glued registers handlers with fastglue, fasthttp's router.
func (s *Server) glued() {
	g := fastglue.NewGlue()
	g.GET("/api/messages", s.glueMessages)                    // want `interactive: fastglue handler registered with Fastglue.GET: \(\*app.Server\).glueMessages`
	g.POST("/api/messages", func(r *fastglue.Request) error { // want `interactive: fastglue handler registered with Fastglue.POST: func literal in \(\*app.Server\).glued`
		return nil
	})
}

type pingServer struct{}

func (pingServer) Ping(ctx context.Context, req *connect.Request[appv1connect.PingRequest]) (*connect.Response[appv1connect.PingResponse], error) {
	return nil, nil
}

// connected serves a Connect service: every method of what the generated
// constructor is handed serves an RPC.
func connected(mux *http.ServeMux) {
	path, h := appv1connect.NewPingServiceHandler(pingServer{}) // want `interactive: Connect RPC method of appv1connect.PingServiceHandler: \(app.pingServer\).Ping`
	mux.Handle(path, h)
	path, h = appv1connect.NewRouterHandler(pingServer{})
	mux.Handle(path, h)
}
