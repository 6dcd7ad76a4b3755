// Package gormstore implements healthiface.Database and service.Datastore.
package gormstore

import (
	"net"

	"gorm.io/gorm"
)

// GormDatabase is the store every request uses.
type GormDatabase struct{ DB *gorm.DB }

func (d *GormDatabase) Ping() error { // want Ping:`reachesShared\(database pool GormDatabase.DB via \(\*sql.DB\).Ping\)`
	sqlDB, err := d.DB.DB()
	if err != nil {
		return err
	}
	return sqlDB.Ping()
}

// TCPPinger dials a connection of its own for each check.
type TCPPinger struct{ Addr string }

func (p TCPPinger) Ping() error {
	conn, err := net.Dial("tcp", p.Addr)
	if err != nil {
		return err
	}
	return conn.Close()
}
