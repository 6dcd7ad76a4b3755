// Package inferxorm keeps its pools in xorm engines and runs its jobs with // want package:`lanes\(\(\*inferxorm\.Database\)\.listUsers@interactive, \(\*inferxorm\.Database\)\.removeExpiredTokens@background, \(\*inferxorm\.Archive\)\.compactArchive@background\)`
// gocron v2: a job wrapped in gocron.NewTask is background work.
package inferxorm

import (
	"net/http"
	"time"

	"github.com/go-co-op/gocron/v2"
	"xorm.io/xorm"
)

type Database struct {
	engineGroup *xorm.EngineGroup
}

// Archive holds the jobs' own engine, which no handler reaches.
type Archive struct {
	engine *xorm.Engine
}

func Open() (*Database, *Archive) { // want Open:`creates\(inferxorm\.Archive\.engine, inferxorm\.Database\.engineGroup\)`
	g, _ := xorm.NewEngineGroup("mysql", []string{"app"}) // want `inferxorm.Database.engineGroup, a database pool created once, serves both interactive and background work`
	e, _ := xorm.NewEngine("mysql", "archive")
	return &Database{engineGroup: g}, &Archive{engine: e}
}

func (d *Database) listUsers(w http.ResponseWriter, r *http.Request) {
	d.engineGroup.NewSession().Find(nil)
}

func (d *Database) removeExpiredTokens() {
	d.engineGroup.Exec("DELETE FROM tokens WHERE expired")
}

// compactArchive is a job on the archive's own engine: not shared.
func (a *Archive) compactArchive() {
	a.engine.Exec("VACUUM")
}

func Main() { // want Main:`creates\(inferxorm\.Archive\.engine, inferxorm\.Database\.engineGroup\)`
	d, a := Open()
	http.HandleFunc("/users", d.listUsers)
	s, _ := gocron.NewScheduler()
	s.NewJob(gocron.DurationJob(time.Hour), gocron.NewTask(d.removeExpiredTokens))
	s.NewJob(gocron.DurationJob(time.Hour), gocron.NewTask(a.compactArchive))
	s.Start()
}
