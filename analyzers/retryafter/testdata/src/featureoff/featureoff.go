// Package featureoff answers 503 where configuration switches a feature
// off (no shed: traps) and where a shed that configuration switches on
// refuses for load (positives).
package featureoff

import (
	"context"
	"net/http"
	"sync/atomic"
)

type AlertsConfig struct{ Enabled bool }

type AIConfig struct {
	Enabled bool
	APIKey  string
}

type LimitsConfig struct {
	Enabled bool
	Max     int64
}

type Config struct {
	Alerts    AlertsConfig
	AI        AIConfig
	Limits    LimitsConfig
	Upstreams []string
	Mail      struct{ Enable bool }
}

type state struct{ Maintenance bool }

type Server struct {
	config   *Config
	opts     Config
	state    state
	inflight int64
}

var appConfig Config

func configFrom(ctx context.Context) *Config { return &appConfig }

// Trap: alerting switched off in configuration (after logchef's
// requireAlertsEnabled).
func (s *Server) alerts(w http.ResponseWriter, r *http.Request) {
	if !s.config.Alerts.Enabled {
		http.Error(w, "alerting is disabled on this server", http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// Trap: a factory that returns a refusing handler when the feature is off
// or its key is unset (after logchef's validateAIConfig).
func (s *Server) aiGate() http.HandlerFunc {
	if !s.config.AI.Enabled {
		return func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "AI is not enabled", http.StatusServiceUnavailable)
		}
	}
	if s.config.AI.APIKey == "" {
		return func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "AI is not configured", http.StatusServiceUnavailable)
		}
	}
	return nil
}

// Traps: the configuration read from the request's context, a package
// variable, a list left empty.
func mailIngress(w http.ResponseWriter, r *http.Request) {
	cfg := configFrom(r.Context())
	if !cfg.AI.Enabled {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	if !appConfig.Alerts.Enabled {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

// Trap: a configuration value whose address is taken (goalert's
// config.FromContext(ctx) held in a local the handler also passes on).
func mailgunIngress(w http.ResponseWriter, r *http.Request) {
	cfg := *configFrom(r.Context())
	use(&cfg)
	if !cfg.Mail.Enable {
		http.Error(w, "not enabled", http.StatusServiceUnavailable)
	}
}

func use(*Config) {}

func (s *Server) proxy(w http.ResponseWriter, r *http.Request) {
	if len(s.opts.Upstreams) == 0 {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

// Positive: configuration switches the limit on, the count decides the 503.
func (s *Server) limited(w http.ResponseWriter, r *http.Request) {
	if s.config.Limits.Enabled {
		if atomic.LoadInt64(&s.inflight) > s.config.Limits.Max {
			w.WriteHeader(http.StatusServiceUnavailable) // want `handler \(\*featureoff.Server\).limited writes 503 Service Unavailable on a path where Retry-After was not set`
			return
		}
	}
	w.WriteHeader(http.StatusOK)
}

// Positives: a maintenance switch held in the server's state, and a
// refusal joined with a test of load.
func (s *Server) maintenance(w http.ResponseWriter, r *http.Request) {
	if s.state.Maintenance {
		w.WriteHeader(http.StatusServiceUnavailable) // want `handler \(\*featureoff.Server\).maintenance writes 503 Service Unavailable`
	}
}

func (s *Server) either(w http.ResponseWriter, r *http.Request) {
	if !s.config.Alerts.Enabled || atomic.LoadInt64(&s.inflight) > 100 {
		w.WriteHeader(http.StatusServiceUnavailable) // want `handler \(\*featureoff.Server\).either writes 503 Service Unavailable`
	}
}

// Positive: a refusal for load after a configuration test that answered
// something else.
func (s *Server) afterCheck(w http.ResponseWriter, r *http.Request) {
	if !s.config.Alerts.Enabled {
		http.NotFound(w, r)
		return
	}
	if atomic.LoadInt64(&s.inflight) > s.config.Limits.Max {
		http.Error(w, "busy", http.StatusTooManyRequests) // want `handler \(\*featureoff.Server\).afterCheck writes 429 Too Many Requests`
	}
}

func Routes(s *Server, mux *http.ServeMux) {
	mux.HandleFunc("/alerts", s.alerts)
	mux.Handle("/ai", s.aiGate())
	mux.HandleFunc("/mail", mailIngress)
	mux.HandleFunc("/proxy", s.proxy)
	mux.HandleFunc("/mailgun", mailgunIngress)
	mux.HandleFunc("/limited", s.limited)
	mux.HandleFunc("/maintenance", s.maintenance)
	mux.HandleFunc("/either", s.either)
	mux.HandleFunc("/after", s.afterCheck)
}
