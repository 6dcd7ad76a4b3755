// Package infermongo keeps its MongoDB database handle in a store that the // want package:`lanes\(func literal in infermongo\.Main@interactive, func literal in infermongo\.Main@background\)`
// handlers and a cleanup loop share: a Database runs on its Client's pool,
// opened by mongo.Connect.
package infermongo

import (
	"context"
	"net/http"
	"time"

	"go.mongodb.org/mongo-driver/mongo"
)

type Store struct{ db *mongo.Database }

func Connect(ctx context.Context, uri string) (*mongo.Client, *mongo.Database, error) {
	client, err := mongo.Connect(ctx, uri) // want `infermongo.Store.db, a database pool created once, serves both interactive and background work`
	if err != nil {
		return nil, nil, err
	}
	return client, client.Database("main"), nil
}

func NewStore(db *mongo.Database) *Store { return &Store{db: db} } // want NewStore:`storesParam\(infermongo\.Store\.db\)`

func (s *Store) Device(ctx context.Context) { s.db.Collection("devices").FindOne(ctx, nil) } // want Device:`reaches\(infermongo\.Store\.db\(no lane\)\)`

func (s *Store) DeleteOldSessions(ctx context.Context) { // want DeleteOldSessions:`reaches\(infermongo\.Store\.db\(no lane\)\)`
	s.db.Collection("sessions").DeleteMany(ctx, nil)
}

func Main() { // want Main:`reaches\(infermongo\.Store\.db\(no lane\)\)` Main:`creates\(infermongo\.Store\.db\)`
	ctx := context.Background()
	_, db, _ := Connect(ctx, "mongodb://mongo:27017/main")
	s := NewStore(db)
	http.HandleFunc("/devices", func(w http.ResponseWriter, r *http.Request) { s.Device(r.Context()) })
	go func() {
		for range time.Tick(time.Hour) {
			s.DeleteOldSessions(ctx)
		}
	}()
}
