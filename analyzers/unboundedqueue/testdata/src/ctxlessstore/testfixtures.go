package ctxlessstore

import (
	"testing"

	"gorm.io/gorm"
)

// Fixture is test support kept beside the store (openfga's test
// containers): handed a *testing.T, its WaitForJob waits on the shared
// handle with no context, under the test binary's timeout (a testing.TB
// carries the test's context). Trap: no request reaches it, so the main
// package that reports the store's waits does not report it.
type Fixture struct{ DB *gorm.DB }

func (f *Fixture) WaitForJob(t testing.TB, id int) { // want WaitForJob:"waitsOnNetwork" WaitForJob:`waitsNoContext\(\(\*gorm.DB\).First in \(Fixture\).WaitForJob\)`
	var j Job
	f.DB.Where("id = ?", id).First(&j)
	if j.ID != id {
		t.Fatalf("job %d not found", id)
	}
}
