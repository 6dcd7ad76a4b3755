// Package builder is a stub of xorm.io/builder with the declarations the tests use.
package builder

type Cond interface{ IsValid() bool }

type Eq map[string]interface{}

func (Eq) IsValid() bool { return true }

type cond struct{}

func (cond) IsValid() bool { return false }

func NewCond() Cond                             { return cond{} }
func In(col string, values ...interface{}) Cond { return cond{} }
