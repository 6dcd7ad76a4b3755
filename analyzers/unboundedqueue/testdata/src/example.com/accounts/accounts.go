// Package accounts is a service layer: its methods send mail through a
// mailer container embedded in the service.
package accounts

import "example.com/smtpmail"

type UsingMailer struct{ container *smtpmail.Container }

func (u UsingMailer) SendMail(m *smtpmail.Message) error { // want SendMail:"waitsOnNetwork"
	return u.container.SendMail(m)
}

type Service struct{ UsingMailer }

func New() *Service { return &Service{UsingMailer{container: smtpmail.Default}} }

// SendVerifyEmail renders the message and sends it over SMTP.
func (s *Service) SendVerifyEmail(to string) error { // want SendVerifyEmail:"waitsOnNetwork"
	return s.SendMail(&smtpmail.Message{To: to, Subject: "verify"})
}

// VerifyLink only builds the link: no network.
func (s *Service) VerifyLink(to string) string { return "https://example.com/verify?to=" + to }
