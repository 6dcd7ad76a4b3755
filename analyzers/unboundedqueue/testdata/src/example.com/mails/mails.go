// Package mails is shaped as pocketbase's mails: it hands the send to a
// hook as a function literal, through the Mailer interface, so no static
// call path reaches net/smtp.
package mails

import (
	"example.com/hook"
	"example.com/mailer"
)

type Event struct {
	Mailer  mailer.Mailer
	Message *mailer.Message
}

type App struct {
	OnSend *hook.Hook[*Event]
	Client mailer.Mailer
	Render mailer.Renderer
}

// SendOTP waits on the SMTP server through the hook's last handler.
func SendOTP(app *App, to string) error { // want SendOTP:"waitsOnNetwork"
	e := &Event{Mailer: app.Client, Message: &mailer.Message{To: to}}
	return app.OnSend.Trigger(e, func(e *Event) error {
		return e.Mailer.Send(e.Message)
	})
}

// Preview only renders: no fact.
func Preview(app *App, to string) error {
	return app.Render.Render(&mailer.Message{To: to})
}
