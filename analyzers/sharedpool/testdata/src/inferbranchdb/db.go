// Package inferbranchdb keeps the program's pool in a package-level
// variable that the wiring hands it (openlist's internal/db.Init).
package inferbranchdb

import "gorm.io/gorm"

var db *gorm.DB

// Init keeps the pool it is handed.
func Init(d *gorm.DB) { db = d }

func GetUser() { db.Find(nil) }

func SaveProgress() { db.Create("progress") }
