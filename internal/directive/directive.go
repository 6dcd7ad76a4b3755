// Package directive parses bhlint's //bhlint: comments, in one place, for
// every analyzer:
//
//	//bhlint:ignore CODE reason…            suppress CODE on this line or function
//	//bhlint:lane NAME                      lane of a func, var or struct field
//	//bhlint:verified-compensation reason…  a fallback that serves verified values
package directive

import (
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"strings"
)

const prefix = "//bhlint:"

// Verbs bhlint understands.
const (
	Ignore               = "ignore"
	Lane                 = "lane"
	VerifiedCompensation = "verified-compensation"
)

// Directive is one parsed //bhlint: comment.
type Directive struct {
	Verb string
	Args []string // the words after the verb
	Pos  token.Pos
	End  token.Pos
}

// Reason is the free text after the first argument (ignore) or after the
// verb (verified-compensation).
func (d Directive) Reason() string {
	switch d.Verb {
	case Ignore:
		if len(d.Args) > 1 {
			return strings.Join(d.Args[1:], " ")
		}
	case VerifiedCompensation:
		return strings.Join(d.Args, " ")
	}
	return ""
}

// Error is a malformed directive, with the position to report it at.
type Error struct {
	Pos token.Pos
	Msg string
}

func (e *Error) Error() string { return e.Msg }

var (
	codePattern = regexp.MustCompile(`^ERR_[A-Z0-9_]+$`)
	lanePattern = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
)

// Parse parses one comment. It returns ok=false for comments that are not
// bhlint directives, and an *Error for ones that are but are malformed.
func Parse(c *ast.Comment) (d Directive, ok bool, err error) {
	text, found := strings.CutPrefix(c.Text, prefix)
	if !found {
		return Directive{}, false, nil
	}
	// A trailing "// …" is a comment on the directive, not part of it.
	if i := strings.Index(text, " //"); i >= 0 {
		text = text[:i]
	}
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return Directive{}, true, &Error{c.Pos(), "malformed //bhlint: directive: the verb is missing (want ignore, lane or verified-compensation)"}
	}
	d = Directive{Verb: fields[0], Args: fields[1:], Pos: c.Pos(), End: c.End()}
	return d, true, d.validate()
}

func (d Directive) validate() error {
	switch d.Verb {
	case Ignore:
		if len(d.Args) == 0 || !codePattern.MatchString(d.Args[0]) {
			return &Error{d.Pos, "malformed //bhlint:ignore: want //bhlint:ignore ERR_CODE reason"}
		}
		if d.Reason() == "" {
			return &Error{d.Pos, fmt.Sprintf("//bhlint:ignore %s needs a reason after the code, saying why the finding does not apply", d.Args[0])}
		}
	case Lane:
		if len(d.Args) != 1 || !lanePattern.MatchString(d.Args[0]) {
			return &Error{d.Pos, "malformed //bhlint:lane: want //bhlint:lane NAME, one lower-case name such as card_auth"}
		}
	case VerifiedCompensation:
		if d.Reason() == "" {
			return &Error{d.Pos, "//bhlint:verified-compensation needs a reason naming the verification (table, contract test)"}
		}
	default:
		return &Error{d.Pos, fmt.Sprintf("unknown directive //bhlint:%s (want ignore, lane or verified-compensation)", d.Verb)}
	}
	return nil
}

// InFile returns the well-formed directives of a file with the given verb.
func InFile(f *ast.File, verb string) []Directive {
	var out []Directive
	for _, group := range f.Comments {
		for _, c := range group.List {
			d, ok, err := Parse(c)
			if ok && err == nil && d.Verb == verb {
				out = append(out, d)
			}
		}
	}
	return out
}

// InGroup returns the well-formed directives with the given verb in one
// comment group (a doc comment or a line comment); nil is allowed.
func InGroup(g *ast.CommentGroup, verb string) []Directive {
	if g == nil {
		return nil
	}
	var out []Directive
	for _, c := range g.List {
		d, ok, err := Parse(c)
		if ok && err == nil && d.Verb == verb {
			out = append(out, d)
		}
	}
	return out
}

// KnownCodes are the diagnostic codes bhlint's analyzers report, the only
// ones an ignore may name.
var KnownCodes = []string{
	"ERR_SHARED_FAILURE_DOMAIN_DETECTED",
	"ERR_CONN_HELD_ACROSS_NETWORK_CALL",
	"ERR_UNBOUNDED_QUEUE_DETECTED",
	"ERR_UNTESTED_COMPENSATION_REJECTED",
	"ERR_UNBOUNDED_RETRY_DETECTED",
	"ERR_MISSING_RETRY_AFTER",
	"ERR_HEALTH_PROBE_SHARES_FAILURE_DOMAIN",
	"ERR_POOL_BUDGETS_EXCEED_DATABASE",
	"ERR_FIFO_CLAIM_ACROSS_TENANTS",
	"ERR_MALFORMED_DIRECTIVE",
}
