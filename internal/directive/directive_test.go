package directive

import (
	"go/ast"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		text    string
		ok      bool
		verb    string
		errPart string
	}{
		{"// ordinary comment", false, "", ""},
		{"//bhlint:ignore ERR_CONN_HELD_ACROSS_NETWORK_CALL loopback only", true, Ignore, ""},
		{"//bhlint:ignore ERR_CONN_HELD_ACROSS_NETWORK_CALL", true, Ignore, "needs a reason"},
		{"//bhlint:ignore ERR_X reason // trailing comment", true, Ignore, ""},
		{"//bhlint:ignore ERR_X // only a trailing comment", true, Ignore, "needs a reason"},
		{"//bhlint:lane card_auth", true, Lane, ""},
		{"//bhlint:lane card_auth tax", true, Lane, "malformed //bhlint:lane"},
		{"//bhlint:lane", true, Lane, "malformed //bhlint:lane"},
		{"//bhlint:", true, "", "verb is missing"},
		{"//bhlint:ingore ERR_X why", true, "ingore", "unknown directive"},
		{"//bhlint:verified-compensation checked by TestTaxTable", true, VerifiedCompensation, ""},
	} {
		d, ok, err := Parse(&ast.Comment{Text: tc.text})
		if ok != tc.ok {
			t.Errorf("%q: ok = %v, want %v", tc.text, ok, tc.ok)
			continue
		}
		if ok && d.Verb != tc.verb {
			t.Errorf("%q: verb %q, want %q", tc.text, d.Verb, tc.verb)
		}
		switch {
		case tc.errPart == "" && err != nil:
			t.Errorf("%q: unexpected error %v", tc.text, err)
		case tc.errPart != "" && (err == nil || !strings.Contains(err.Error(), tc.errPart)):
			t.Errorf("%q: error %v, want one containing %q", tc.text, err, tc.errPart)
		}
	}
}

// FuzzParse: any comment text parses without panicking; a directive that
// parses cleanly has a known verb and, re-parsed, gives the same result.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"//bhlint:ignore ERR_CONN_HELD_ACROSS_NETWORK_CALL reason",
		"//bhlint:lane tax", "//bhlint:", "//bhlint:verified-compensation x", "//bhlint:ignore  \t",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		d, ok, err := Parse(&ast.Comment{Text: text})
		if !ok || err != nil {
			return
		}
		switch d.Verb {
		case Ignore, Lane, VerifiedCompensation:
		default:
			t.Fatalf("%q parsed cleanly with unknown verb %q", text, d.Verb)
		}
		again, ok2, err2 := Parse(&ast.Comment{Text: text})
		if !ok2 || err2 != nil || again.Verb != d.Verb || strings.Join(again.Args, " ") != strings.Join(d.Args, " ") {
			t.Fatalf("%q: re-parse differs", text)
		}
	})
}
