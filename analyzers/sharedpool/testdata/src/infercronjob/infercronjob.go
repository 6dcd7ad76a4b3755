// Package infercronjob declares its jobs as values whose Run field holds // want package:`lanes\(\(\*infercronjob\.Job\)\.doRun@background, infercronjob\.listTokens@interactive\)`
// the work, and schedules a method that calls that field: the job reaches
// what the functions stored in Run reach.
package infercronjob

import (
	"database/sql"
	"net/http"
	"time"

	"github.com/go-co-op/gocron/v2"
)

type Job struct {
	Name string
	Run  func() error
}

var db *sql.DB

// jobsDB is the jobs' own pool, which no handler reaches.
var jobsDB *sql.DB

func open() {
	db, _ = sql.Open("postgres", "app") // want `infercronjob.db, a database pool created once, serves both interactive and background work`
	jobsDB, _ = sql.Open("postgres", "jobs")
}

var PurgeTokensJob = &Job{
	Name: "purge",
	Run: func() error {
		_, err := db.Exec("DELETE FROM tokens WHERE expired")
		return err
	},
}

// ArchiveJob's work uses the jobs' own pool only: not shared.
var ArchiveJob = &Job{
	Name: "archive",
	Run: func() error {
		_, err := jobsDB.Exec("INSERT INTO archive SELECT * FROM events")
		return err
	},
}

func (j *Job) doRun() {
	if err := j.Run(); err != nil {
		println(err.Error())
	}
}

func register(s gocron.Scheduler, j *Job) {
	s.NewJob(gocron.DurationJob(time.Hour), gocron.NewTask(j.doRun))
}

func listTokens(w http.ResponseWriter, r *http.Request) {
	db.Query("SELECT * FROM tokens")
}

func Main() { // want Main:`creates\(infercronjob\.db, infercronjob\.jobsDB\)` Main:`reaches\(infercronjob\.db\(no lane\)\)`
	open()
	http.HandleFunc("/tokens", listTokens)
	s, _ := gocron.NewScheduler()
	register(s, PurgeTokensJob)
	s.Start()
}
