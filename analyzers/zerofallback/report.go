package zerofallback

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

const fix = "return the error instead, or serve a value read from a verified compensation table (bulkhead/compensation.Table, checked by its contract test)"

func (c *checker) reportReturn(pos token.Pos, on *entry, what string, res *types.Var, name, subject string) {
	as := ""
	if name != "" {
		as = " as " + name
	}
	c.report(pos, on, fmt.Sprintf("%s: on a fallback path (%s), the value served%s is %s, with a nil error: an invented %s the caller cannot tell from a real one; %s",
		Code, on.why, as, what, noun(res.Type(), name+" "+subject), fix))
}

func (c *checker) report(pos token.Pos, on *entry, msg string) {
	if !pos.IsValid() || c.reported[pos] {
		return
	}
	c.reported[pos] = true
	d := analysis.Diagnostic{Pos: pos, Message: msg}
	if on.pos.IsValid() && on.pos != pos {
		d.Related = []analysis.RelatedInformation{{Pos: on.pos, Message: "fallback path starts here: " + on.why}}
	}
	c.pass.Report(d)
}
