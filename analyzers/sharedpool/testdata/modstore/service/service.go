// Package service holds the business logic over store.Store: it imports
// no database either.
package service

import "example.com/modstore/store"

type Service struct{ store store.Store }

func New(s store.Store) *Service { return &Service{store: s} }

func (s *Service) Device(id string) (*store.Device, error) { return s.store.DeviceGet(id) } // want Device:`reaches\(via \(store\.Store\)\.DeviceGet\)`

func (s *Service) Cleanup() error { return s.store.DeleteOldSessions() } // want Cleanup:`reaches\(via \(store\.Store\)\.DeleteOldSessions\)`
