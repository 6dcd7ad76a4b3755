// Package logs declares a logger whose implementations disagree: one
// writes to a syslog server, one to a stream.
package logs

type Logger interface {
	Log(msg string)
}
