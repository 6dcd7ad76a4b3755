package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLanesPaymentCore prints the lane map of the example service in the
// three formats: positions from the module root, the before mode's one
// pool in a field of Server drawn as shared, a legend; the DOT is checked
// by Graphviz when it is installed.
func TestLanesPaymentCore(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the example module and its dependencies")
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chdir(wd) })
	for _, tc := range []struct {
		format string
		want   []string
	}{
		{"text", []string{
			"lane card_auth\n  entry points:\n    card.Authorize at internal/card/authorize.go:",
			"    pools.CardAuth (database pool, lane card_auth) via tax.Estimate → merchant.Country → merchant.row → pools.CardAuth  ← another lane's\n",
			"lane fraud\n", "lane tax\n",
			"shared between lanes:\n  pools.CardAuth (database pool at internal/pools/pools.go:14:5) shared by card_auth, tax\n",
			"  service.Server.sharedDB (database pool at internal/service/service.go:", ") shared by card_auth, fraud, through one value of its struct\n",
			"\nlegend:\n",
			// The outbound dependencies: who calls each, holding what.
			"outbound dependencies (who waits when one slows):\n",
			"  service.Server.taxAPI (HTTP client at internal/service/service.go:",
			"      service.quote (lane tax) via service.quote → (*service.Server).callTaxAPI → service.callJSON → service.Server.taxAPI\n        holding: nothing\n",
			"  taxclient.Client.http (HTTP client at internal/taxclient/taxclient.go:",
			// The incident's handler, wired where bhlint cannot see, holds
			// the transaction of InTx while it waits on the tax API.
			"      (*tax.Handler).ServeHTTP via (*tax.Handler).ServeHTTP → (*tax.Handler).quote → (*taxclient.Client).Quote → taxclient.Client.http\n        holding: transaction of store.Store.pool (pgx.BeginFunc in (*store.Store).InTx)\n",
			"  stalls when it slows              other entry points that need what a caller holds while it waits: they wait too\n",
		}},
		{"json", []string{`"dependencies": [`, `"name": "service.Server.taxAPI",` + "\n" + `      "kind": "HTTP client",`, `"entry": "service.quote",` + "\n" + `          "lane": "tax",`, `"name": "card_auth"`, `"name": "pools.Fraud"`, `"lanes": [` + "\n" + `        "card_auth",` + "\n" + `        "tax"`}},
		{"dot", []string{"digraph lanes {", `"tax: tax.Estimate" -> "res: pools.CardAuth" [color=red];`, `"fraud: fraud.Score" -> "res: pools.Fraud" [color=black];`,
			`"res: service.Server.sharedDB" [shape=cylinder, label="service.Server.sharedDB\ndatabase pool", color=red, style=dashed];`,
			"subgraph cluster_legend {",
			`"dep: service.Server.taxAPI" [shape=hexagon, label="service.Server.taxAPI\nHTTP client"];`,
			`"dep: service.Server.taxAPI" -> "tax: service.quote" [color=blue, label="waits"];`,
			"subgraph cluster_legend_deps {"}},
	} {
		var stdout, stderr bytes.Buffer
		if code := runLanes([]string{"-format=" + tc.format, "-C", "../../examples/payment-core", "./..."}, &stdout, &stderr); code != exitClean {
			t.Fatalf("-format=%s: exit %d, stderr:\n%s", tc.format, code, stderr.String())
		}
		os.Chdir(wd)
		for _, want := range tc.want {
			if !strings.Contains(stdout.String(), want) {
				t.Errorf("-format=%s: output lacks %q:\n%s", tc.format, want, stdout.String())
			}
		}
		if tc.format == "dot" {
			renderDOT(t, stdout.Bytes())
		}
	}
}

// renderDOT has Graphviz lay the graph out, when it is installed.
func renderDOT(t *testing.T, graph []byte) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Log("Graphviz (dot) is not installed: the DOT map is checked by its text only")
		return
	}
	cmd := exec.Command(dot, "-Tsvg")
	cmd.Stdin = bytes.NewReader(graph)
	if out, err := cmd.CombinedOutput(); err != nil || !bytes.Contains(out, []byte("<svg")) {
		t.Errorf("dot -Tsvg rejects the map: %v\n%.2000s", err, out)
	}
}

// TestLanesHelp: -h says what the map shows, the dependencies section and
// what it does not follow.
func TestLanesHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := runLanes([]string{"-h"}, &stdout, &stderr); code != exitClean {
		t.Fatalf("-h: exit %d", code)
	}
	for _, want := range []string{"usage: bhlint lanes", "outbound dependencies", "called by", "holding", "stalls", "inferred", "Not followed: calls\nthrough interfaces", `"dependencies"`, "-format"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("-h lacks %q:\n%s", want, stderr.String())
		}
	}
}

func TestLanesBadFormat(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := runLanes([]string{"-format=svg"}, &stdout, &stderr); code != exitError || !strings.Contains(stderr.String(), `unknown -format "svg"`) {
		t.Errorf("exit %d, stderr %q; want exit %d and an unknown-format error", code, stderr.String(), exitError)
	}
}

// TestLanesCache: a lane map is kept under a key of what it depends on and
// served from there while nothing changed (the stored map stands in for
// the analysis: a marker put in its place is what the next run prints); an
// edited file, another format or other build tags is another key; -tags
// reaches the load (a tagged file that imports a missing package fails it).
func TestLanesCache(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("BHLINT_LANES_CACHE", cache)
	dir := t.TempDir()
	t.Chdir(dir)
	writeFiles(t, map[string]string{
		"go.mod":          "module example.com/lanecache\n\ngo 1.26\n",
		"tax/tax.go":      "package tax\n\n//bhlint:lane tax\nfunc Estimate() int { return 1 }\n",
		"tax/extra.go":    "//go:build extra\n\npackage tax\n\nimport _ \"example.com/lanecache/missing\"\n",
		"tax/notdata.txt": "not a Go file",
	})
	lanes := func(args ...string) (string, int) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := runLanes(args, &stdout, &stderr)
		return stdout.String() + stderr.String(), code
	}
	first, code := lanes("./...")
	entries, _ := os.ReadDir(cache)
	if code != exitClean || len(entries) != 1 {
		t.Fatalf("first run: exit %d, %d cache entries, want 0 and 1\n%s", code, len(entries), first)
	}
	marker := "served from the cache\n"
	if err := os.WriteFile(filepath.Join(cache, entries[0].Name()), []byte(marker), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _ := lanes("./..."); out != marker {
		t.Errorf("unchanged code: printed %q, want the stored map %q", out, marker)
	}
	for what, change := range map[string]func() (string, int){
		"edited file": func() (string, int) {
			writeFiles(t, map[string]string{"tax/tax.go": "package tax\n\n//bhlint:lane tax\nfunc Estimate() int { return 2 }\n"})
			return lanes("./...")
		},
		"another format": func() (string, int) { return lanes("-format=json", "./...") },
	} {
		if out, code := change(); code != exitClean || out == marker {
			t.Errorf("%s: exit %d, printed %q; want a map computed again", what, code, out)
		}
	}
	if out, code := lanes("-tags=extra", "./..."); code != exitError || !strings.Contains(out, "could not be loaded") {
		t.Errorf("-tags=extra: exit %d, output:\n%s\nwant the tagged file's missing import to fail the load", code, out)
	}
}

func writeFiles(t *testing.T, files map[string]string) {
	t.Helper()
	for name, content := range files {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
