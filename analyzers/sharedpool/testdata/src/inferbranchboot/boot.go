// Package inferbranchboot opens the one pool on whichever branch the // want package:`lanes\(inferbranchboot\.users@interactive, inferbranchboot\.index@background\)`
// configuration picks and hands it to inferbranchdb (openlist's
// bootstrap.InitDB): the finding names every branch's opening.
package inferbranchboot

import (
	"net/http"
	"time"

	"gorm.io/gorm"

	"inferbranchdb"
)

type dialect struct{ name string }

func (d dialect) Name() string { return d.name }

func users(w http.ResponseWriter, r *http.Request) { inferbranchdb.GetUser() }

func index() {
	for range time.Tick(time.Minute) {
		inferbranchdb.SaveProgress()
	}
}

func initDB(dev bool, kind string) {
	var d *gorm.DB
	if dev {
		d, _ = gorm.Open(dialect{"memory"}) // want `inferbranchdb.db, a database pool created once, serves both interactive and background work`
	} else {
		switch kind {
		case "mysql":
			d, _ = gorm.Open(dialect{"mysql"})
		default:
			d, _ = gorm.Open(dialect{"postgres"})
		}
	}
	inferbranchdb.Init(d)
}

func Main(dev bool, kind string) { // want Main:`creates\(inferbranchdb\.db\)` Main:`reaches\(inferbranchdb\.db\(no lane\)\)`
	initDB(dev, kind)
	http.HandleFunc("/users", users)
	go index()
}
