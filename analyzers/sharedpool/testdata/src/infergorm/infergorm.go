// Package infergorm keeps its pool in a jinzhu/gorm handle, as gotify // want package:`lanes\(\(\*infergorm\.GormDatabase\)\.messages@interactive, \(\*infergorm\.GormDatabase\)\.pluginLoop@background\)`
// does: the handle wraps one *sql.DB and is that pool.
package infergorm

import (
	"net/http"

	"github.com/jinzhu/gorm"
)

type GormDatabase struct {
	DB *gorm.DB
	// assoc is not a pool: reached from both classes, never reported.
	assoc *gorm.Association
}

type Message struct{ Text string }

func New() (*GormDatabase, error) { // want New:`creates\(infergorm\.GormDatabase\.DB\)`
	db, err := gorm.Open("sqlite3", "data.db") // want `infergorm.GormDatabase.DB, a database pool created once, serves both interactive and background work`
	if err != nil {
		return nil, err
	}
	return &GormDatabase{DB: db}, nil
}

func (d *GormDatabase) messages(w http.ResponseWriter, r *http.Request) {
	var msgs []Message
	d.DB.Find(&msgs)
	d.assoc.Count()
}

// pluginLoop saves what the plugins send, for the life of the process.
func (d *GormDatabase) pluginLoop(in chan Message) {
	for m := range in {
		d.DB.Create(&m)
		d.assoc.Count()
	}
}

func Main() { // want Main:`reaches\(infergorm\.GormDatabase\.DB\(no lane\)\)` Main:`creates\(infergorm\.GormDatabase\.DB\)`
	d, _ := New()
	http.HandleFunc("/message", d.messages)
	go d.pluginLoop(make(chan Message))
}
