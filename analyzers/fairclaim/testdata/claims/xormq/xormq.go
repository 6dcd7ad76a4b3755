// Package xormq claims jobs with xorm without a lock: it reads the waiting
// rows in order of age, then takes one with a compare-and-set update.
package xormq

import (
	"context"

	"xorm.io/builder"
	"xorm.io/xorm"
)

// Engine is an application's handle over xorm, as gitea's db.Engine: its
// methods return xorm's sessions.
type Engine interface {
	Where(query interface{}, args ...interface{}) *xorm.Session
	Asc(colNames ...string) *xorm.Session
	ID(id interface{}) *xorm.Session
}

// GetEngine returns the transaction's session the context carries, or the
// engine.
func GetEngine(ctx context.Context) Engine { return nil }

// RunJob is a job of an account's repository; the owner (an organisation
// or a user) is the tenant of rows without a tenant column.
type RunJob struct {
	ID      int64
	RepoID  int64 `xorm:"index"`
	OwnerID int64 `xorm:"index"`
	TaskID  int64
	Status  int
	Labels  []string
	Updated int64 `xorm:"updated index"`
}

// Mail is a single-tenant queue: no tenant or owner column.
type Mail struct {
	ID        int64
	SenderID  int64
	Created   int64
	ClaimedBy string
}

type Runner struct {
	ID      int64
	RepoID  int64
	OwnerID int64
	Labels  []string
}

// UpdateRunJob updates one job by id, under the caller's condition.
func UpdateRunJob(ctx context.Context, job *RunJob, cond builder.Cond, cols ...string) (int64, error) {
	sess := GetEngine(ctx).ID(job.ID)
	if len(cols) > 0 {
		sess.Cols(cols...)
	}
	if cond != nil {
		sess.Where(cond)
	}
	return sess.Update(job)
}

// The instance-wide runner's claim: jobCond stays empty when the runner
// belongs to no repository or owner, so every owner's waiting jobs are read
// oldest first, and the first that fits is taken by compare-and-set.
func CreateTaskForRunner(ctx context.Context, runner *Runner) (*RunJob, error) {
	e := GetEngine(ctx)
	jobCond := builder.NewCond()
	if runner.RepoID != 0 {
		jobCond = builder.Eq{"repo_id": runner.RepoID}
	} else if runner.OwnerID != 0 {
		jobCond = builder.In("repo_id", runner.OwnerID)
	}
	if jobCond.IsValid() {
		jobCond = builder.In("run_id", jobCond)
	}
	var jobs []*RunJob
	if err := e.Where("task_id=? AND status=?", 0, 1).And(jobCond).Asc("updated", "id").Find(&jobs); err != nil { // want `this claim takes the next row of run_job in ORDER BY updated, id only, read \(when jobCond stays empty\) and then taken with a compare-and-set update that requires task_id unclaimed \(xormq.go:\d+\), without a lock: .*\(owner_id, seen in the field OwnerID of the model RunJob\)`
		return nil, err
	}
	var job *RunJob
	for _, v := range jobs {
		if len(v.Labels) <= len(runner.Labels) {
			job = v
			break
		}
	}
	if job == nil {
		return nil, nil
	}
	job.TaskID = 42
	if n, err := UpdateRunJob(ctx, job, builder.Eq{"task_id": 0}); err != nil || n != 1 {
		return nil, err
	}
	return job, nil
}

// The compare-and-set written in the chain itself.
func claimInChain(ctx context.Context) (*RunJob, error) {
	var job RunJob
	if _, err := GetEngine(ctx).Where("status = ?", 1).Asc("id").Limit(1).Get(&job); err != nil { // want `this claim takes the next row of run_job in ORDER BY id only, read and then taken with a compare-and-set update that requires task_id unclaimed`
		return nil, err
	}
	job.TaskID = 7
	n, err := GetEngine(ctx).ID(job.ID).Where(builder.Eq{"task_id": 0}).Update(&job)
	if err != nil || n != 1 {
		return nil, err
	}
	return &job, nil
}

// ---- traps ----

// A read for display: the jobs of one run ordered by id, no compare-and-set.
func GetRunJobsByRunID(ctx context.Context, runID int64) ([]*RunJob, error) {
	var jobs []*RunJob
	err := GetEngine(ctx).Where("run_id=?", runID).OrderBy("id").Find(&jobs)
	return jobs, err
}

// The claim of a runner of one owner: bound to one tenant.
func claimForOwner(ctx context.Context, runner *Runner) (*RunJob, error) {
	var jobs []*RunJob
	if err := GetEngine(ctx).Where("owner_id = ? AND task_id = 0", runner.OwnerID).Asc("updated", "id").Find(&jobs); err != nil {
		return nil, err
	}
	if len(jobs) == 0 {
		return nil, nil
	}
	job := jobs[0]
	job.TaskID = runner.ID
	_, err := UpdateRunJob(ctx, job, builder.Eq{"task_id": 0})
	return job, err
}

// The caller names the job: a compare-and-set with no ordered read.
func claimByID(ctx context.Context, job *RunJob, runner *Runner) (bool, error) {
	job.TaskID = runner.ID
	n, err := UpdateRunJob(ctx, job, builder.Eq{"task_id": 0})
	return n == 1, err
}

// A sweep: every row read is updated, none is chosen.
func cancelWaiting(ctx context.Context) error {
	var jobs []*RunJob
	if err := GetEngine(ctx).Where("status = ?", 1).Asc("id").Find(&jobs); err != nil {
		return err
	}
	for _, job := range jobs {
		job.TaskID = -1
		if _, err := UpdateRunJob(ctx, job, builder.Eq{"task_id": 0}); err != nil {
			return err
		}
	}
	return nil
}

// A condition narrowed on every path binds whatever the caller chose.
func claimNarrowed(ctx context.Context, runner *Runner) (*RunJob, error) {
	jobCond := builder.NewCond()
	jobCond = builder.Eq{"owner_id": runner.OwnerID}
	var jobs []*RunJob
	if err := GetEngine(ctx).Where("task_id = 0").And(jobCond).Asc("id").Find(&jobs); err != nil || len(jobs) == 0 {
		return nil, err
	}
	jobs[0].TaskID = runner.ID
	_, err := UpdateRunJob(ctx, jobs[0], builder.Eq{"task_id": 0})
	return jobs[0], err
}

// A single-tenant table: the mail queue's rows carry no tenant or owner.
func claimMail(ctx context.Context, e *xorm.Engine, worker string) (*Mail, error) {
	var m Mail
	if _, err := e.Where("claimed_by = ''").Asc("created").Get(&m); err != nil {
		return nil, err
	}
	m.ClaimedBy = worker
	_, err := e.ID(m.ID).Where(builder.Eq{"claimed_by": ""}).Update(&m)
	return &m, err
}
