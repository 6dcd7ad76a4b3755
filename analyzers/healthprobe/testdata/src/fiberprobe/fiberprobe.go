// Package fiberprobe registers its probes with gofiber: a probe that pings
// the pool the API uses is reported; one that answers from the process is
// not.
package fiberprobe

import (
	"database/sql"

	"github.com/gofiber/fiber/v2"
)

type App struct{ db *sql.DB }

func (a *App) Routes() {
	f := fiber.New()
	f.Get("/healthz", func(c *fiber.Ctx) error {
		if err := a.db.Ping(); err != nil { // want `health probe .* \(route "/healthz"\) reaches the database pool App.db that request traffic also uses`
			return err
		}
		return c.SendString("ok")
	})
	f.Get("/livez", func(c *fiber.Ctx) error { return c.SendString("ok") })
	f.Get("/users", func(c *fiber.Ctx) error {
		var n int
		a.db.QueryRow("SELECT count(*) FROM users").Scan(&n)
		return c.SendString("users")
	})
}
