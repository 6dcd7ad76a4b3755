package lanepgx

import (
	"context"
	"fmt"

	"github.com/bhlint/bhlint/bulkhead/lanepool"
	"github.com/jackc/pgx/v5"
)

// Reset starts the pool over after an incident: it closes the idle
// connections, marks the connections in use to be closed when they are
// given back, and ends on the server the pool's sessions that have sat in a
// transaction for longer than LeakThreshold (see
// lanepool.EndStuckSessionsSQL). Their holders' next statements fail and
// they give the connections back; nothing is closed under a running query.
//
// To end the stuck sessions Reset opens one short session of its own,
// outside the lane's budget (application_name "<lane>:reset"), because the
// budget is typically all held by the stuck work; it is closed before Reset
// returns. With leak detection off (negative LeakThreshold) no session is
// ended.
func (p *Pool[L]) Reset(ctx context.Context) (lanepool.ResetReport, error) {
	rep := lanepool.ResetReport{Lane: p.g.Lane, Resource: p.g.Resource, IdleClosed: int(p.p.Stat().IdleConns())}
	p.p.Reset()
	if p.g.Cfg.LeakThreshold < 0 {
		return rep, nil
	}
	cc := p.p.Config().ConnConfig.Copy()
	cc.RuntimeParams["application_name"] = lanepool.ResetSessionName(p.g.Cfg.ApplicationName)
	conn, err := pgx.ConnectConfig(ctx, cc)
	if err != nil {
		return rep, fmt.Errorf("%s: reset: opening a session to end the stuck ones: %w", p.g.Resource, err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	err = conn.QueryRow(ctx, lanepool.EndStuckSessionsSQL, p.g.Cfg.ApplicationName, p.g.Cfg.LeakThreshold.Seconds()).Scan(&rep.Ended)
	if err != nil {
		return rep, fmt.Errorf("%s: reset: ending the sessions stuck in a transaction: %w", p.g.Resource, err)
	}
	p.g.Cfg.Logger.Info("bulkhead: "+rep.String(), "lane", rep.Lane, "resource", rep.Resource)
	return rep, nil
}

// ResetPool is Reset for bulkhead.Executor.ResetOnRecoveryLag.
func (p *Pool[L]) ResetPool(ctx context.Context) error {
	_, err := p.Reset(ctx)
	return err
}
