// Package gormq claims jobs with gorm.
package gormq

import (
	"context"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

type Job struct {
	ID        int64
	TenantID  string
	Status    string
	CreatedAt int64
}

type Mailing struct {
	ID     int64
	Sender string `gorm:"column:sender"`
}

type Export struct {
	ID   int64
	Team string `gorm:"column:team_id"`
}

func claim(ctx context.Context, db *gorm.DB) (Job, error) {
	var job Job
	err := db.WithContext(ctx).
		Clauses(clause.Locking{Strength: "UPDATE", Options: "SKIP LOCKED"}). // want `this claim takes the next row of jobs in ORDER BY created_at only, .*\(tenant_id, seen in the field TenantID of the model Job\)`
		Where("status = ?", "queued").
		Order("created_at").
		First(&job).Error
	return job, err
}

func claimExports(db *gorm.DB) ([]Export, error) {
	var exports []Export
	err := db.Model(&Export{}).Clauses(clause.Locking{Strength: clause.LockingStrengthUpdate, Options: clause.LockingOptionsSkipLocked}).Order("id").Limit(10).Find(&exports).Error // want `of exports in ORDER BY .*\(team_id, seen in the field Team of the model Export\)`
	return exports, err
}

// A handle with a context, in a variable.
func claimWithContext(ctx context.Context, db *gorm.DB) (Job, error) {
	var job Job
	tx := db.WithContext(ctx)
	err := tx.Clauses(clause.Locking{Strength: "UPDATE", Options: "SKIP LOCKED"}).Order("created_at").First(&job).Error // want `this claim takes the next row of jobs in ORDER BY created_at only`
	return job, err
}

// In a transaction's callback.
func claimInTransaction(db *gorm.DB) (Job, error) {
	var job Job
	err := db.Transaction(func(tx *gorm.DB) error {
		return tx.Clauses(clause.Locking{Strength: "UPDATE", Options: "SKIP LOCKED"}).Order("id").First(&job).Error // want `this claim takes the next row of jobs in ORDER BY id only`
	})
	return job, err
}

// Read in order of age, then taken by a compare-and-set on its status.
func claimByCAS(db *gorm.DB) (Job, error) {
	var job Job
	if err := db.Where("status = ?", "queued").Order("created_at").First(&job).Error; err != nil { // want `this claim takes the next row of jobs in ORDER BY created_at only, read and then taken with a compare-and-set update that requires status unclaimed \(gormq.go:\d+\), without a lock: .*\(tenant_id, seen in the field TenantID of the model Job\)`
		return job, err
	}
	res := db.Model(&Job{}).Where("id = ? AND status = ?", job.ID, "queued").Update("status", "running")
	return job, res.Error
}

// ---- traps ----

// A compare-and-set on a job the caller names: no ordered read.
func startJob(db *gorm.DB, id int64) error {
	return db.Model(&Job{}).Where("id = ? AND status = ?", id, "queued").Update("status", "running").Error
}

// The handle was scoped to one tenant before the claim.
func claimOnScopedHandle(db *gorm.DB, tenant string) (Job, error) {
	var job Job
	tx := db.Where("tenant_id = ?", tenant)
	err := tx.Clauses(clause.Locking{Strength: "UPDATE", Options: "SKIP LOCKED"}).Order("created_at").First(&job).Error
	return job, err
}

func byTenant(tenant string) func(*gorm.DB) *gorm.DB {
	return func(db *gorm.DB) *gorm.DB { return db.Where("tenant_id = ?", tenant) }
}

// A scope may bind the tenant.
func claimInScope(db *gorm.DB, tenant string) (Job, error) {
	var job Job
	err := db.Scopes(byTenant(tenant)).Clauses(clause.Locking{Strength: "UPDATE", Options: "SKIP LOCKED"}).Order("created_at").First(&job).Error
	return job, err
}

// Bound to one tenant.
func claimForTenant(db *gorm.DB, tenant string) (Job, error) {
	var job Job
	err := db.Clauses(clause.Locking{Strength: "UPDATE", Options: "SKIP LOCKED"}).
		Where("tenant_id = ? AND status = ?", tenant, "queued").
		Order("created_at").First(&job).Error
	return job, err
}

// A model with no tenant column.
func claimMailing(db *gorm.DB) (Mailing, error) {
	var m Mailing
	err := db.Clauses(clause.Locking{Strength: "UPDATE", Options: "SKIP LOCKED"}).Order("id").First(&m).Error
	return m, err
}

// Locking without SKIP LOCKED: waits for the row, not a claim.
func lockJob(db *gorm.DB) (Job, error) {
	var job Job
	err := db.Clauses(clause.Locking{Strength: "UPDATE"}).Order("id").First(&job).Error
	return job, err
}
