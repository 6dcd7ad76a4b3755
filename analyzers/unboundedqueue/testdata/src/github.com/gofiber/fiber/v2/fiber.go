package fiber

type Ctx struct{}

func (c *Ctx) SendString(s string) error { return nil }

type Handler = func(*Ctx) error

type Router interface {
	Get(path string, handlers ...Handler) Router
	Post(path string, handlers ...Handler) Router
	Group(prefix string, handlers ...Handler) Router
}

type App struct{}

func New() *App                                                { return &App{} }
func (a *App) Get(path string, handlers ...Handler) Router     { return a }
func (a *App) Post(path string, handlers ...Handler) Router    { return a }
func (a *App) Group(prefix string, handlers ...Handler) Router { return &Group{} }

type Group struct{}

func (g *Group) Get(path string, handlers ...Handler) Router     { return g }
func (g *Group) Post(path string, handlers ...Handler) Router    { return g }
func (g *Group) Group(prefix string, handlers ...Handler) Router { return g }
