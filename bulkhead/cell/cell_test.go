package cell_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead/cell"
	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// placement is 100 tenants spread over three cells, the rest in "a".
func placement(version int64) cell.Map {
	m := cell.Map{Version: version, Cells: []string{"a", "b", "c"}, Default: "a", Tenants: map[string]string{}}
	for i := range 100 {
		m.Tenants[fmt.Sprint("tenant-", i)] = m.Cells[i%3]
	}
	return m
}

// TestMapChangeMovesOneTenant: a new map that moves one tenant changes the
// routing of that tenant and of no other of 10,000.
func TestMapChangeMovesOneTenant(t *testing.T) {
	next := placement(1)
	r, err := cell.New(context.Background(), cell.SourceFunc(func(context.Context) (cell.Map, error) { return next, nil }), cell.Config{})
	if err != nil {
		t.Fatal(err)
	}
	before := route(r, 10_000)
	next = placement(2)
	next.Tenants["tenant-7"] = "c" // was b
	if err := r.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	after := route(r, 10_000)
	var moved []string
	for i := range before {
		if before[i] != after[i] {
			moved = append(moved, fmt.Sprintf("tenant-%d %s→%s", i, before[i], after[i]))
		}
	}
	if fmt.Sprint(moved) != "[tenant-7 b→c]" {
		t.Errorf("moved %v, want [tenant-7 b→c]", moved)
	}
}

func route(r *cell.Router, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = r.Cell(fmt.Sprint("tenant-", i))
	}
	return out
}

// TestRefusesBadMaps: a map with an unknown cell, an older version or a
// failed load is refused, and routing stays on the map in use.
func TestRefusesBadMaps(t *testing.T) {
	var next cell.Map
	var loadErr error
	src := cell.SourceFunc(func(context.Context) (cell.Map, error) { return next, loadErr })
	next = placement(5)
	r, err := cell.New(context.Background(), src, cell.Config{})
	if err != nil {
		t.Fatal(err)
	}
	unknown := placement(6)
	unknown.Tenants["tenant-1"] = "z"
	older := placement(4)
	older.Tenants["tenant-1"] = "c"
	noDefault := placement(6)
	noDefault.Default = ""
	for name, m := range map[string]cell.Map{"unknown cell": unknown, "older version": older, "no default": noDefault, "no cells": {Version: 7}} {
		next = m
		if err := r.Refresh(context.Background()); err == nil {
			t.Errorf("%s: the map was accepted", name)
		}
	}
	next, loadErr = placement(8), errors.New("source down")
	if err := r.Refresh(context.Background()); err == nil {
		t.Error("a failed load returned no error")
	}
	if got := r.Cell("tenant-1"); got != "b" {
		t.Errorf("tenant-1 routed to %q after refused maps, want b (version 5)", got)
	}
	if st := r.Status(); st.Version != 5 || st.LastError == nil || st.FailingSince.IsZero() {
		t.Errorf("status %+v: want version 5 and the last error", st)
	}
}

// TestPostgresSourceDown: the map lives in a table on the real PostgreSQL,
// reached through a proxy. Cut the proxy: refreshes fail and routing goes
// on with the last good map (one tenant moved in the table meanwhile is
// not seen); heal it: the next refresh moves that tenant.
func TestPostgresSourceDown(t *testing.T) {
	ctx := context.Background()
	direct, err := pgxpool.New(ctx, testsvc.PostgresDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	table := "cell_map_" + testsvc.Suffix
	if _, err := direct.Exec(ctx, `create table `+table+` (tenant text primary key, cell text not null);
		insert into `+table+` values ('*', 'eu-1'), ('acme', 'eu-2'), ('globex', 'us-1')`); err != nil {
		t.Fatal(err)
	}
	defer direct.Exec(ctx, "drop table "+table)
	dsn, proxy := testsvc.PostgresProxy(t)
	viaProxy, err := pgxpool.New(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer viaProxy.Close()
	r, err := cell.New(ctx, cell.PostgresSource(viaProxy, table), cell.Config{LoadTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	want := func(tenant, c string) {
		t.Helper()
		if got := r.Cell(tenant); got != c {
			t.Errorf("Cell(%s) = %s, want %s", tenant, got, c)
		}
	}
	want("acme", "eu-2")
	want("initech", "eu-1")

	proxy.Cut()
	if _, err := direct.Exec(ctx, "update "+table+" set cell = 'us-1' where tenant = 'acme'"); err != nil {
		t.Fatal(err)
	}
	if err := r.Refresh(ctx); err == nil {
		t.Fatal("refresh through a cut proxy succeeded")
	}
	want("acme", "eu-2")
	want("globex", "us-1")
	want("initech", "eu-1")

	proxy.Heal()
	testsvc.WaitFor(t, "a refresh after the proxy healed", func() bool { return r.Refresh(ctx) == nil })
	want("acme", "us-1")
	want("globex", "us-1")
	if st := r.Status(); st.LastError != nil {
		t.Errorf("status after a good refresh: %+v", st)
	}
}

// TestRunRefreshes: Run reloads the map in the background and stops with
// its context.
func TestRunRefreshes(t *testing.T) {
	var version atomic.Int64
	version.Store(1)
	src := cell.SourceFunc(func(context.Context) (cell.Map, error) {
		m := placement(version.Load())
		if version.Load() > 1 {
			m.Tenants["tenant-7"] = "c"
		}
		return m, nil
	})
	r, err := cell.New(context.Background(), src, cell.Config{Refresh: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Run(ctx)
	}()
	version.Store(2)
	testsvc.WaitFor(t, "Run to load version 2", func() bool { return r.Cell("tenant-7") == "c" })
	cancel()
	<-done
	if st := r.Status(); st.Version != 2 {
		t.Errorf("status version %d, want 2", st.Version)
	}
}
