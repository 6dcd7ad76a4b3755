// Package cli is a stand-in for github.com/urfave/cli/v2: the flag
// structs and the context that reads them by name.
package cli

type Flag interface{ Names() []string }

type IntFlag struct {
	Name    string
	Usage   string
	EnvVars []string
	Value   int
}

func (f *IntFlag) Names() []string { return []string{f.Name} }

type StringFlag struct {
	Name  string
	Value string
}

func (f *StringFlag) Names() []string { return []string{f.Name} }

type Context struct{}

func (c *Context) Int(name string) int       { return 0 }
func (c *Context) String(name string) string { return "" }

type App struct {
	Flags  []Flag
	Action func(*Context) error
}

func (a *App) Run(args []string) error { return nil }
