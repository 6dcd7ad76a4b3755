package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const shedWithoutRetryAfter = `package shed

import "net/http"

func Shed(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusServiceUnavailable)
}
`

// TestFix: -fix -diff shows the suggested fix and changes nothing; -fix
// applies it; the module is then clean.
func TestFix(t *testing.T) {
	bin := buildBhlint(t)
	dir := t.TempDir()
	write(t, dir, "go.mod", "module example.com/shed\n\ngo 1.26\n")
	write(t, dir, "shed.go", shedWithoutRetryAfter)

	out, _, code := run(t, dir, bin, "-fix", "-diff", "./...")
	if code != 1 || !strings.Contains(out, `+	w.Header().Set("Retry-After", "5")`) {
		t.Fatalf("-fix -diff: exit %d, output:\n%s\nwant exit 1 and the Retry-After line added", code, out)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "shed.go")); string(got) != shedWithoutRetryAfter {
		t.Fatalf("-fix -diff changed the file:\n%s", got)
	}
	if _, stderr, code := run(t, dir, bin, "-fix", "./..."); code != 0 {
		t.Fatalf("-fix: exit %d\n%s", code, stderr)
	}
	if out, _, code := run(t, dir, bin, "./..."); code != 0 {
		t.Fatalf("after -fix: exit %d, findings:\n%s", code, out)
	}
}
