package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestLanesPaymentCore prints the lane map of the example service in the
// three formats.
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
			"lane card_auth\n  entry points:\n    card.Authorize at authorize.go:",
			"    pools.CardAuth (database pool, lane card_auth) via tax.Estimate → merchant.Country → merchant.row → pools.CardAuth  ← another lane's\n",
			"lane fraud\n", "lane tax\n",
			"shared between lanes:\n  pools.CardAuth (database pool at pools.go:14:5) shared by card_auth, tax\n",
		}},
		{"json", []string{`"name": "card_auth"`, `"name": "pools.Fraud"`, `"lanes": [` + "\n" + `        "card_auth",` + "\n" + `        "tax"`}},
		{"dot", []string{"digraph lanes {", `"tax: tax.Estimate" -> "res: pools.CardAuth" [color=red];`, `"fraud: fraud.Score" -> "res: pools.Fraud" [color=black];`}},
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
	}
}

func TestLanesBadFormat(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := runLanes([]string{"-format=svg"}, &stdout, &stderr); code != exitError || !strings.Contains(stderr.String(), `unknown -format "svg"`) {
		t.Errorf("exit %d, stderr %q; want exit %d and an unknown-format error", code, stderr.String(), exitError)
	}
}
