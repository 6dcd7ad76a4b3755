// Package mongotx runs MongoDB transactions through the session's
// WithTransaction: the callback runs while the server holds the
// transaction's writes, and the session rides in the callback's context.
package mongotx

import (
	"context"
	"net/http"
	"time"

	"go.mongodb.org/mongo-driver/mongo"
)

type Store struct {
	client *mongo.Client
	db     *mongo.Database
}

// ---- positives ----

// DeleteNamespace calls out over HTTP inside the transaction.
func (s *Store) DeleteNamespace(ctx context.Context, tenant, hook string) error {
	session, err := s.client.StartSession()
	if err != nil {
		return err
	}
	defer session.EndSession(ctx)
	_, err = session.WithTransaction(ctx, func(sessCtx mongo.SessionContext) (interface{}, error) {
		if _, err := s.db.Collection("namespaces").DeleteOne(sessCtx, tenant); err != nil {
			return nil, err
		}
		_, err := http.Get(hook) // want `the function passed to \(mongo.Session\).WithTransaction calls http.Get while the transaction it runs in is held`
		return nil, err
	})
	return err
}

// MoveOwner writes the owner's documents with the request's context: that
// write runs outside the transaction, on a connection of its own.
func (s *Store) MoveOwner(ctx context.Context, tenant string) error {
	session, err := s.client.StartSession()
	if err != nil {
		return err
	}
	defer session.EndSession(ctx)
	_, err = session.WithTransaction(ctx, func(sessCtx mongo.SessionContext) (interface{}, error) {
		if _, err := s.db.Collection("namespaces").DeleteOne(sessCtx, tenant); err != nil {
			return nil, err
		}
		return s.db.Collection("users").UpdateMany(ctx, tenant, nil) // want `calls \(\*mongo.Collection\).UpdateMany with ctx, not the callback's context that carries the session`
	})
	return err
}

// ---- traps: must stay silent ----

// DerivedContext gives each write a deadline cut from the callback's
// context: the session rides along.
func (s *Store) DerivedContext(ctx context.Context, tenant string) error {
	session, err := s.client.StartSession()
	if err != nil {
		return err
	}
	defer session.EndSession(ctx)
	_, err = session.WithTransaction(ctx, func(sessCtx mongo.SessionContext) (interface{}, error) {
		opCtx, cancel := context.WithTimeout(sessCtx, time.Second)
		defer cancel()
		return s.db.Collection("users").UpdateMany(opCtx, tenant, nil)
	})
	return err
}

// InNameOnly hands the request's context to every write: no operation runs
// in the session, the server holds no transaction, and each write is on
// its own.
func (s *Store) InNameOnly(ctx context.Context, tenant, hook string) error {
	session, err := s.client.StartSession()
	if err != nil {
		return err
	}
	defer session.EndSession(ctx)
	_, err = session.WithTransaction(ctx, func(sessCtx mongo.SessionContext) (interface{}, error) {
		if _, err := s.db.Collection("devices").DeleteOne(ctx, tenant); err != nil {
			return nil, err
		}
		if _, err := http.Get(hook); err != nil {
			return nil, err
		}
		return s.db.Collection("sessions").UpdateMany(ctx, tenant, nil)
	})
	return err
}

// CheckFirst calls out before its first write in the session, when the
// server holds nothing yet.
func (s *Store) CheckFirst(ctx context.Context, tenant, hook string) error {
	session, err := s.client.StartSession()
	if err != nil {
		return err
	}
	defer session.EndSession(ctx)
	_, err = session.WithTransaction(ctx, func(sessCtx mongo.SessionContext) (interface{}, error) {
		if _, err := http.Get(hook); err != nil {
			return nil, err
		}
		return s.db.Collection("devices").DeleteOne(sessCtx, tenant)
	})
	return err
}

// NotifyAfter calls out once the transaction has committed.
func (s *Store) NotifyAfter(ctx context.Context, tenant, hook string) error {
	session, err := s.client.StartSession()
	if err != nil {
		return err
	}
	defer session.EndSession(ctx)
	if _, err := session.WithTransaction(ctx, func(sessCtx mongo.SessionContext) (interface{}, error) {
		return s.db.Collection("namespaces").DeleteOne(sessCtx, tenant)
	}); err != nil {
		return err
	}
	_, err = http.Get(hook)
	return err
}
