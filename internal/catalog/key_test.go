package catalog

import "testing"

func TestWithoutTypeParams(t *testing.T) {
	for in, want := range map[string]string{
		"(*github.com/bhlint/bhlint/bulkhead/lanedb.DB[L]).Conn": "(*github.com/bhlint/bhlint/bulkhead/lanedb.DB).Conn",
		"(*example.com/x.Map[K, V]).Get":                         "(*example.com/x.Map).Get",
		"(*example.com/x.T[example.com/y.List[int]]).M":          "(*example.com/x.T).M",
		"(*net/http.Client).Do":                                  "(*net/http.Client).Do",
		"github.com/jackc/pgx/v5.CollectRows":                    "github.com/jackc/pgx/v5.CollectRows",
	} {
		if got := withoutTypeParams(in); got != want {
			t.Errorf("withoutTypeParams(%q) = %q, want %q", in, got, want)
		}
	}
}
