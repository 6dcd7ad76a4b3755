// Package cron mirrors pocketbase's tools/cron scheduler.
package cron

type Cron struct{}

func New() *Cron                                                   { return &Cron{} }
func (c *Cron) Add(jobId string, cronExpr string, fn func()) error { return nil }
func (c *Cron) MustAdd(jobId string, cronExpr string, fn func())   {}
func (c *Cron) Remove(jobId string)                                {}
