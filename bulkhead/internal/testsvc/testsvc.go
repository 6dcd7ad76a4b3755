// Package testsvc finds the real servers that the integration tests of the
// bulkhead module run against, and skips (or, with BHLINT_REQUIRE_SERVICES=1,
// fails) a test when one is not there.
//
//	BHLINT_PG_DSN      default postgres://postgres@127.0.0.1:5432/test?sslmode=disable
//	BHLINT_REDIS_ADDR  default 127.0.0.1:6379
package testsvc

import (
	"net"
	"net/url"
	"os"
	"strconv"
	"testing"
	"time"
)

// DefaultPostgresDSN and DefaultRedisAddr are used when the environment sets none.
const (
	DefaultPostgresDSN = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	DefaultRedisAddr   = "127.0.0.1:6379"
)

// PostgresDSN is the DSN of the test PostgreSQL, once it answers on TCP.
func PostgresDSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv("BHLINT_PG_DSN")
	if dsn == "" {
		dsn = DefaultPostgresDSN
	}
	host := "127.0.0.1:5432"
	if u, err := url.Parse(dsn); err == nil && u.Host != "" {
		host = u.Host
		if u.Port() == "" {
			host = net.JoinHostPort(u.Hostname(), "5432")
		}
	}
	reachable(t, "PostgreSQL", host, "BHLINT_PG_DSN", DefaultPostgresDSN)
	return dsn
}

// RedisAddr is the address of the test Redis, once it answers on TCP.
func RedisAddr(t testing.TB) string {
	t.Helper()
	addr := os.Getenv("BHLINT_REDIS_ADDR")
	if addr == "" {
		addr = DefaultRedisAddr
	}
	reachable(t, "Redis", addr, "BHLINT_REDIS_ADDR", DefaultRedisAddr)
	return addr
}

func reachable(t testing.TB, what, addr, env, def string) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err == nil {
		c.Close()
		return
	}
	msg := what + " is not reachable at " + addr + " (" + err.Error() + "). This test runs against a real " + what +
		": start one and set " + env + " (default " + def + "); set BHLINT_REQUIRE_SERVICES=1 to make a missing server fail the test instead of skipping it"
	if os.Getenv("BHLINT_REQUIRE_SERVICES") == "1" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// Suffix is unique to this test process, for lane names, application names
// and Redis keys that must not collide with other test runs on the same server.
var Suffix = "p" + strconv.Itoa(os.Getpid())
