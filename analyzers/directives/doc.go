/*
Package directives defines an Analyzer that reports malformed //bhlint:
directives.

# Analyzer directives

directives: report //bhlint: comments that are malformed, lack a reason, or name an unknown code

ERR_MALFORMED_DIRECTIVE. A directive that does not parse is worse than none:
the author believes a finding is suppressed, or a lane declared, and it is
not. This analyzer reports every //bhlint: comment whose verb is unknown
(want ignore, lane or verified-compensation), an ignore without a code or
without a reason, an ignore naming a code no bhlint analyzer reports, and a
lane directive without exactly one lower-case name.

Whether a lane directive is attached to something that can carry a lane is
checked by sharedpool; whether an ignore suppresses anything is checked by
the analyzer that owns its code.

Fix: correct the directive, e.g.
//bhlint:ignore ERR_CONN_HELD_ACROSS_NETWORK_CALL webhook is loopback-only.
*/
package directives
