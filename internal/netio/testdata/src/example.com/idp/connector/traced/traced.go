// Package traced wraps a connector to count its refreshes: it waits when
// what it wraps does, and is no implementation of its own.
package traced

import (
	"context"
	"log"

	"example.com/idp/connector"
)

type Connector struct{ Next connector.RefreshConnector }

func (t Connector) Refresh(ctx context.Context, id connector.Identity) (connector.Identity, error) {
	log.Printf("refresh %s", id.UserID)
	return t.Next.Refresh(ctx, id)
}
