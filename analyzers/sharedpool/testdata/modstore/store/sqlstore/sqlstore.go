// Package sqlstore implements store.Store on one database pool. // want package:`lanes\(\)`
package sqlstore

import (
	"database/sql"

	"example.com/modstore/store"
)

type Store struct{ db *sql.DB }

func Open(dsn string) (*Store, error) { // want Open:`creates\(sqlstore\.Store\.db\)`
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, err
	}
	return &Store{db: db}, nil
}

func (s *Store) DeviceGet(id string) (*store.Device, error) { // want DeviceGet:`reaches\(sqlstore\.Store\.db\(no lane\)\)`
	var d store.Device
	return &d, s.db.QueryRow("SELECT id FROM devices WHERE id = $1", id).Scan(&d.ID)
}

func (s *Store) DeleteOldSessions() error { // want DeleteOldSessions:`reaches\(sqlstore\.Store\.db\(no lane\)\)`
	_, err := s.db.Exec("DELETE FROM sessions WHERE expired")
	return err
}
