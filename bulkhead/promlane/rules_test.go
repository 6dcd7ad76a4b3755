package promlane_test

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bhlint/bhlint/bulkhead/promlane"
	"github.com/prometheus/client_golang/prometheus"
)

// promtool finds promtool (Debian: apt-get install prometheus) or skips,
// unless BHLINT_REQUIRE_SERVICES=1 makes a missing tool a failure.
func promtool(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("promtool")
	if err == nil {
		return path
	}
	if os.Getenv("BHLINT_REQUIRE_SERVICES") == "1" {
		t.Fatalf("promtool not found (%v) and BHLINT_REQUIRE_SERVICES=1; install it (Debian: apt-get install prometheus)", err)
	}
	t.Skipf("promtool not found: %v; install it (Debian: apt-get install prometheus) to check the alerting rules", err)
	return ""
}

func TestRulesPassPromtool(t *testing.T) {
	tool := promtool(t)
	for _, args := range [][]string{{"check", "rules", "rules.yml"}, {"test", "rules", "rules_test.yml"}} {
		out, err := exec.Command(tool, args...).CombinedOutput()
		if err != nil {
			t.Errorf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// Every metric the rules read is one the Collector exports, so a renamed
// metric cannot leave an alert that never fires.
func TestRulesUseExportedMetrics(t *testing.T) {
	exported := map[string]bool{}
	ch := make(chan *prometheus.Desc, 100)
	go func() { promlane.New(promlane.Opts{}).Describe(ch); close(ch) }()
	fq := regexp.MustCompile(`fqName: "([a-z_]+)"`)
	for d := range ch {
		if m := fq.FindStringSubmatch(d.String()); m != nil {
			exported[m[1]] = true
		}
	}
	used := regexp.MustCompile(`\bbulkhead_[a-z_]+`).FindAllString(exprs(string(promlane.Rules)), -1)
	if len(used) == 0 {
		t.Fatal("no metric found in the rules' expressions")
	}
	for _, name := range slices.Compact(slices.Sorted(slices.Values(used))) {
		base := strings.TrimSuffix(strings.TrimSuffix(name, "_count"), "_sum")
		if !exported[name] && !exported[base] {
			t.Errorf("rules.yml reads %s, which promlane does not export", name)
		}
	}
}

// exprs is the text of the rules' expr fields (one-line or block).
func exprs(rules string) string {
	var b strings.Builder
	in := false
	for line := range strings.SplitSeq(rules, "\n") {
		trim := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trim, "expr:"):
			b.WriteString(strings.TrimPrefix(trim, "expr:") + "\n")
			in = strings.HasSuffix(trim, "|")
		case in && (strings.HasPrefix(trim, "for:") || strings.HasPrefix(trim, "labels:")):
			in = false
		case in:
			b.WriteString(trim + "\n")
		}
	}
	return b.String()
}
