package stream // want package:`implementedInBuild\(\(example.com/idp/logs.Logger\).Log by \(stream.Stream\).Log does not wait\)`

import (
	"example.com/idp/logs"
	"fmt"
	"io"
)

type Stream struct{ W io.Writer }

func (s Stream) Log(msg string) { fmt.Fprintln(s.W, msg) }

var _ logs.Logger = Stream{}
