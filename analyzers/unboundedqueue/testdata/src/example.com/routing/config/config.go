// Package config stubs a service's configuration package (alertmanager's
// config): the types its configuration file is loaded into.
package config

type InhibitRule struct{ TargetURL string }
