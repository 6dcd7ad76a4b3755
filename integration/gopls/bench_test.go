package gopls_test

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// The editor benchmarks measure, per edit, the time from the editor's
// notification to the diagnostics of the new text: a gopls built with
// bhlint's analyzers on didChange (unsaved, as you type) beside `bhlint lsp`
// on didSave. Each edit has new text (a counter comment), so neither server
// can answer from a cache of an earlier edit. bench/EDITOR.md has figures;
// run them with
//
//	BHLINT_GOPLS=/tmp/gopls-bhlint go test -run '^$' -bench . -benchtime 10x ./integration/gopls

// BenchmarkShop edits the small std-only module of the tests: the held
// transaction is fixed and broken again on alternate edits.
func BenchmarkShop(b *testing.B) {
	variant := func(i int) string {
		text := storeHeld
		if i%2 == 1 {
			text = storeFixed
		}
		return fmt.Sprintf("%s// edit %d\n", text, i)
	}
	// The retryafter finding is in every version; heldconn in the even ones.
	analysed := func(p publish, source func(string) string, i int) bool {
		return len(p.bySource(source("retryafter"))) > 0 &&
			(len(p.bySource(source("heldconn"))) > 0) == (i%2 == 0)
	}
	benchServers(b, func(b *testing.B) string { return tempModule(b, workspace) }, "store.go", variant, analysed)
}

// BenchmarkPaymentCore edits internal/tax/handler.go of a copy of
// examples/payment-core (pgx, net/http, the lanes): a comment changes, the
// held transaction stays.
func BenchmarkPaymentCore(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "payment-core", "internal", "tax", "handler.go"))
	if err != nil {
		b.Fatal(err)
	}
	variant := func(i int) string { return fmt.Sprintf("%s// edit %d\n", src, i) }
	analysed := func(p publish, source func(string) string, _ int) bool {
		return len(p.bySource(source("heldconn"))) > 0
	}
	copyCore := func(b *testing.B) string {
		dir := tempModule(b, nil)
		if out, err := exec.Command("cp", "-r", filepath.Join("..", "..", "examples", "payment-core")+"/.", dir).CombinedOutput(); err != nil {
			b.Fatalf("copy payment-core: %v\n%s", err, out)
		}
		// Its go.mod replaces the runtime by a relative path.
		bulkhead, _ := filepath.Abs(filepath.Join("..", "..", "bulkhead"))
		edit := exec.Command("go", "mod", "edit", "-replace=github.com/bhlint/bhlint/bulkhead="+bulkhead)
		edit.Dir = dir
		if out, err := edit.CombinedOutput(); err != nil {
			b.Fatalf("go mod edit: %v\n%s", err, out)
		}
		return dir
	}
	benchServers(b, copyCore, filepath.Join("internal", "tax", "handler.go"), variant, analysed)
}

// benchServers runs the edit loop against gopls (default settings, and with
// diagnosticsDelay 0: gopls waits 1 s after the last keystroke by default
// before it analyses) and against `bhlint lsp` (edit saved to disk).
func benchServers(b *testing.B, workspace func(*testing.B) string, file string,
	variant func(int) string, analysed func(p publish, source func(string) string, i int) bool) {
	gopls := goplsBin(b)
	goplsSource := func(a string) string { return a }
	bhlintSource := func(a string) string { return "bhlint/" + a }
	for _, delay := range []string{"", "0s"} {
		name := "gopls-didChange/diagnosticsDelay=" + cmp.Or(delay, "default")
		b.Run(name, func(b *testing.B) {
			root := workspace(b)
			var options map[string]any
			if delay != "" {
				options = map[string]any{"diagnosticsDelay": delay}
			}
			c := start(b, root, options, gopls)
			uri := fileURI(filepath.Join(root, file))
			c.open(uri, variant(0))
			c.waitFor(uri, "the first analysis", func(p publish) bool { return analysed(p, goplsSource, 0) })
			b.ResetTimer()
			for i := 1; i <= b.N; i++ {
				c.change(uri, i+1, variant(i))
				c.waitFor(uri, "the edit analysed", func(p publish) bool { return p.Version == i+1 && analysed(p, goplsSource, i) })
			}
		})
	}
	b.Run("bhlint-lsp-didSave", func(b *testing.B) {
		root := workspace(b)
		c := start(b, root, nil, buildBhlint(b), "lsp")
		path := filepath.Join(root, file)
		uri := fileURI(path)
		c.open(uri, variant(0))
		c.waitFor(uri, "the first analysis", func(p publish) bool { return analysed(p, bhlintSource, 0) })
		b.ResetTimer()
		for i := 1; i <= b.N; i++ {
			if err := os.WriteFile(path, []byte(variant(i)), 0o644); err != nil {
				b.Fatal(err)
			}
			sent := time.Now()
			c.conn.Notify(c.ctx, "textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
			p := c.waitFor(uri, "the save analysed", func(p publish) bool { return p.at.After(sent) })
			if !analysed(p, bhlintSource, i) {
				b.Fatalf("edit %d: bhlint lsp published %+v", i, p.Diagnostics)
			}
		}
	})
}
