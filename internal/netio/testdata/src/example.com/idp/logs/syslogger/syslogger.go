package syslogger // want package:`implementedInBuild\(\(example.com/idp/logs.Logger\).Log by \(syslogger.Syslog\).Log waits\)`

import (
	"net"

	"example.com/idp/logs"
)

type Syslog struct{ Addr string }

func (s Syslog) Log(msg string) { // want Log:`mayNetwork\(net.Dial\)`
	c, err := net.Dial("udp", s.Addr)
	if err != nil {
		return
	}
	c.Write([]byte(msg))
	c.Close()
}

var _ logs.Logger = Syslog{}
