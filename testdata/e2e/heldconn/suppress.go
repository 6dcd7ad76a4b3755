package heldconn

import (
	"context"
	"net/http"
)

// SuppressedWebhook: a finding suppressed with a reason, on its line. Every
// driver (bhlint, go vet -vettool, golangci-lint, the LSP server) drops it.
func (s *Store) SuppressedWebhook(ctx context.Context) error {
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	http.Get("http://127.0.0.1:9/hook") //bhlint:ignore ERR_CONN_HELD_ACROSS_NETWORK_CALL loopback sidecar with a 50 ms timeout
	return tx.Commit()
}

// StaleIgnore: an ignore that suppresses nothing is itself reported.
func (s *Store) StaleIgnore() {
	//bhlint:ignore ERR_CONN_HELD_ACROSS_NETWORK_CALL the call moved after Commit long ago
}
