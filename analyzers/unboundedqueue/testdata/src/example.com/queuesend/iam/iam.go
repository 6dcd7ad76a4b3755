// Package iam keeps one LDAP connection for the process and adds an
// account through it on every request.
package iam

import (
	"net/http"

	"example.org/ldaplike"
)

type Service struct{ Conn *ldaplike.Conn }

// Trap: the send that waits is the vendored library's, on its connection's
// own loop: the program cannot change it, and no finding points into it.
func (s *Service) CreateAccount(w http.ResponseWriter, r *http.Request) {
	s.Conn.Add("cn=" + r.URL.Query().Get("name"))
}
