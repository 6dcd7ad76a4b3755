// Command orms bounds an ORM's pool through the *sql.DB inside it, and an
// sqlx handle through its embedded *sql.DB.
package main

import (
	"os"

	"github.com/jmoiron/sqlx"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
)

func main() { // want `30 replicas × \(30 db \+ 30 x\) = 1800 connections to database main`
	db, _ := gorm.Open(postgres.Open(os.Getenv("DATABASE_URL")), &gorm.Config{})
	sqlDB, _ := db.DB()
	sqlDB.SetMaxOpenConns(30)
	x := sqlx.MustConnect("pgx", os.Getenv("DATABASE_URL"))
	x.SetMaxOpenConns(30)
}
