package cell_test

import (
	"context"
	"fmt"

	"github.com/bhlint/bhlint/bulkhead/cell"
)

// Route tenants to cells from a map loaded once and refreshed in the
// background (cell.PostgresSource reads it from a table).
func ExampleRouter_Cell() {
	src := cell.SourceFunc(func(context.Context) (cell.Map, error) {
		return cell.Map{
			Version: 12,
			Cells:   []string{"eu-1", "eu-2", "us-1"},
			Default: "eu-1",
			Tenants: map[string]string{"acme": "eu-2", "globex": "us-1"},
		}, nil
	})
	r, err := cell.New(context.Background(), src, cell.Config{})
	if err != nil {
		panic(err)
	}
	// go r.Run(ctx) refreshes it every Config.Refresh; a failed load keeps this map.
	fmt.Println(r.Cell("acme"), r.Cell("globex"), r.Cell("initech"))
	// Output: eu-2 us-1 eu-1
}
