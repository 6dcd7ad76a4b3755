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

// ---- traps ----

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
