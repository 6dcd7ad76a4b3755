package sdkuser

import (
	"context"
	"net/http"

	"sdk"
)

// grant writes through the SDK's builder: the interface method's fact, from
// the package that declares and implements it, says it sends.
func grant(ctx context.Context, api sdk.API) error { // want grant:`mayNetwork\(\(sdk.WriteRequest\).Execute → \(sdk.API\).WriteExecute → \(\*sdk.apiService\).WriteExecute → \(\*http.Client\).Do\)`
	_, err := api.Write(ctx).Body("admin").Execute()
	return err
}

func lookup(c sdk.Cache) string { v, _ := c.Get("k"); return v }

type httpSink struct{ url string }

func (s httpSink) Put(v string) error { // want Put:`mayNetwork\(http.Post\)`
	_, err := http.Post(s.url, "text/plain", nil)
	return err
}

// drainAll hands the sink to sdk.Drain, which calls it through sdk.Sink: not
// followed, sdk.Sink's implementations are not sdk's.
func drainAll(vs []string) error { return sdk.Drain(httpSink{"https://sink.example"}, vs) }
