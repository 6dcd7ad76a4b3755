// Package cloudstore is a second storage driver whose check wanders
// through its metadata client before it reaches an HTTP client.
package cloudstore

import (
	"context"
	"net/http"

	"storeiface"
)

type provider struct{ hc *http.Client }

func Open(hc *http.Client) storeiface.Provider { return &provider{hc: hc} }

func (p *provider) AdminStorage() storeiface.AdminStorage { return &adminStorage{hc: p.hc} }

type adminStorage struct{ hc *http.Client }

func (s *adminStorage) CheckDatabaseAccessible(ctx context.Context) error { // want CheckDatabaseAccessible:`reachesShared\(HTTP client adminStorage.hc via \(\*cloudstore.adminStorage\).projectID → \(\*cloudstore.adminStorage\).metadata → \(\*http.Client\).Do\)`
	return s.projectID(ctx)
}

func (s *adminStorage) projectID(ctx context.Context) error { // want projectID:`reachesShared`
	return s.metadata(ctx)
}

func (s *adminStorage) metadata(ctx context.Context) error { // want metadata:`reachesShared`
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://metadata/project", nil)
	_, err := s.hc.Do(req)
	return err
}
