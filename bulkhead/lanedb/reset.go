package lanedb

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"

	"github.com/bhlint/bhlint/bulkhead/lanepool"
)

// Reset starts the pool over after an incident: it closes the idle
// connections and ends on the server the pool's sessions that have sat in a
// transaction for longer than LeakThreshold (see
// lanepool.EndStuckSessionsSQL; PostgreSQL only). Their holders' next
// statements fail and they give the connections back; nothing is closed
// under a running query.
//
// To end the stuck sessions Reset opens one short session of its own
// through the pool's connector, outside the lane's budget, because the
// budget is typically all held by the stuck work. It renames itself
// "<lane>:reset" with its first statement and is closed before Reset
// returns. With leak detection off (negative LeakThreshold) no session is
// ended.
func (d *DB[L]) Reset(ctx context.Context) (lanepool.ResetReport, error) {
	rep := lanepool.ResetReport{Lane: d.g.Lane, Resource: d.g.Resource, IdleClosed: d.db.Stats().Idle}
	// database/sql closes the idle connections above its new limit at once.
	d.db.SetMaxIdleConns(0)
	d.db.SetMaxIdleConns(d.g.Cfg.MaxIdleConns)
	if d.g.Cfg.LeakThreshold < 0 || d.dial == nil {
		return rep, nil
	}
	own := sql.OpenDB(connectOnly{d.dial}) // own.Close must not close the pool's connector
	defer own.Close()
	own.SetMaxOpenConns(1)
	c, err := own.Conn(ctx)
	if err != nil {
		return rep, fmt.Errorf("%s: reset: opening a session to end the stuck ones: %w", d.g.Resource, err)
	}
	defer c.Close()
	if _, err := c.ExecContext(ctx, "SELECT set_config('application_name', $1, false)", lanepool.ResetSessionName(d.g.Cfg.ApplicationName)); err != nil {
		return rep, fmt.Errorf("%s: reset: naming the reset session (ending stuck sessions needs PostgreSQL): %w", d.g.Resource, err)
	}
	err = c.QueryRowContext(ctx, lanepool.EndStuckSessionsSQL, d.g.Cfg.ApplicationName, d.g.Cfg.LeakThreshold.Seconds()).Scan(&rep.Ended)
	if err != nil {
		return rep, fmt.Errorf("%s: reset: ending the sessions stuck in a transaction: %w", d.g.Resource, err)
	}
	d.g.Cfg.Logger.Info("bulkhead: "+rep.String(), "lane", rep.Lane, "resource", rep.Resource)
	return rep, nil
}

// connectOnly hides a connector's Close (if it has one) from database/sql.
type connectOnly struct{ driver.Connector }

// ResetPool is Reset for bulkhead.Executor.ResetOnRecoveryLag.
func (d *DB[L]) ResetPool(ctx context.Context) error {
	_, err := d.Reset(ctx)
	return err
}
