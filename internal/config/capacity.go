package config

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// The capacity keys: how many copies of the binary run, and how much the
// databases and dependencies they share can take. poolbudget multiplies the
// per-process budgets it finds by the replicas and compares the sum with
// these.
//
//	deploy:
//	  replicas: 30
//	  commands: [cmd/api]      # the main packages' directories that run replicated (default: all)
//	databases:
//	  main:
//	    max-connections: 100   # the server's max_connections
//	    reserved: 3            # kept for superusers, replication, migrations
//	    dsn-env: DATABASE_URL  # which pools connect to it (needed with several)
//	dependencies:
//	  tax-api:
//	    capacity: 100          # concurrent calls it can take
//	    lanes: [tax]           # the lanes whose outbound limits call it

// Deploy is how the binary is deployed.
type Deploy struct {
	// Replicas is how many processes run at once (pods, instances). 0: not
	// declared.
	Replicas int `yaml:"replicas"`
	// Commands are the directories of the main packages that run
	// replicated, relative to the .bhlint.yml ("cmd/api"; "cmd/..." for
	// every one below cmd): the others (migrations, one-shot tools) are not
	// checked. Empty: every main package is.
	Commands []string `yaml:"commands"`
}

// Replicated reports whether the main package in directory pkgDir runs as
// deploy.replicas processes: its directory is one of deploy.commands, or
// none are listed.
func (c *Config) Replicated(pkgDir string) bool {
	if len(c.Deploy.Commands) == 0 {
		return true
	}
	rel, err := filepath.Rel(filepath.Dir(c.Path), pkgDir)
	if err != nil {
		return false
	}
	rel = filepath.ToSlash(rel)
	for _, pattern := range c.Deploy.Commands {
		if dir, ok := strings.CutSuffix(pattern, "/..."); ok {
			if dir == "." || rel == dir || strings.HasPrefix(rel, dir+"/") {
				return true
			}
		} else if rel == path.Clean(pattern) {
			return true
		}
	}
	return false
}

// Database is one database the binary's pools connect to.
type Database struct {
	MaxConnections int `yaml:"max-connections"`
	Reserved       int `yaml:"reserved"`
	// DSNEnv is the environment variable holding its connection string: a
	// pool opened with os.Getenv(DSNEnv) connects to it.
	DSNEnv string `yaml:"dsn-env"`
}

// Allowed is how many connections the application may open: the maximum
// less the reserved ones.
func (d Database) Allowed() int { return d.MaxConnections - d.Reserved }

// Dependency is an outbound dependency with a known capacity.
type Dependency struct {
	Capacity int `yaml:"capacity"`
	// Lanes are the lanes (as directives spell them: card_auth) whose
	// outbound limits, multiplied by the replicas, count against Capacity.
	Lanes []string `yaml:"lanes"`
}

// DeclaresCapacity reports whether any database or dependency is declared:
// without one, there is nothing to compare a budget with.
func (c *Config) DeclaresCapacity() bool {
	return len(c.Databases) > 0 || len(c.Dependencies) > 0
}

// ReplicaCount is deploy.replicas, or 1 when it is not declared: a single
// process can exceed a database by itself.
func (c *Config) ReplicaCount() int {
	if c.Deploy.Replicas < 1 {
		return 1
	}
	return c.Deploy.Replicas
}

// DatabaseNames lists the declared databases, sorted.
func (c *Config) DatabaseNames() []string {
	names := make([]string, 0, len(c.Databases))
	for name := range c.Databases {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// DatabaseFor names the database a pool connects to: the only one declared,
// or, with several, the one whose dsn-env is the variable the pool's
// connection string comes from ("" when it is not known).
func (c *Config) DatabaseFor(dsnEnv string) string {
	if len(c.Databases) == 1 {
		return c.DatabaseNames()[0]
	}
	for _, name := range c.DatabaseNames() {
		if dsnEnv != "" && c.Databases[name].DSNEnv == dsnEnv {
			return name
		}
	}
	return ""
}

// DependencyNames lists the declared dependencies, sorted.
func (c *Config) DependencyNames() []string {
	names := make([]string, 0, len(c.Dependencies))
	for name := range c.Dependencies {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

var (
	capacityNamePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)
	envPattern          = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	commandPattern      = regexp.MustCompile(`^[\w.~-]+(/[\w.~-]+)*$`)
)

// validateCapacity checks the capacity keys. Each error starts with the
// path of the key it is about, so Parse can put its line in front.
func (c *Config) validateCapacity() error {
	if c.lines["deploy.replicas"] != 0 && c.Deploy.Replicas < 1 {
		return fmt.Errorf("deploy.replicas: %d is not a number of processes; want 1 or more", c.Deploy.Replicas)
	}
	for i, pattern := range c.Deploy.Commands {
		dir := strings.TrimSuffix(pattern, "/...")
		if !commandPattern.MatchString(dir) || slices.Contains(strings.Split(dir, "/"), "..") {
			return fmt.Errorf("deploy.commands[%d]: %q is not a directory below the configuration's (cmd/api, or cmd/... for all below cmd)", i, pattern)
		}
	}
	for _, name := range c.DatabaseNames() {
		if err := c.validateDatabase(name); err != nil {
			return err
		}
	}
	for _, name := range c.DependencyNames() {
		if err := validateDependency(name, c.Dependencies[name]); err != nil {
			return err
		}
	}
	return nil
}

func (c *Config) validateDatabase(name string) error {
	db, path := c.Databases[name], "databases."+name
	switch {
	case !capacityNamePattern.MatchString(name):
		return fmt.Errorf("%s: %q is not a name of letters, digits, '-', '_' and '.'", path, name)
	case db.MaxConnections < 1:
		return fmt.Errorf("%s.max-connections: want the database's max_connections, 1 or more (got %d)", path, db.MaxConnections)
	case db.Reserved < 0 || db.Reserved >= db.MaxConnections:
		return fmt.Errorf("%s.reserved: %d must be at least 0 and below max-connections %d", path, db.Reserved, db.MaxConnections)
	case db.DSNEnv != "" && !envPattern.MatchString(db.DSNEnv):
		return fmt.Errorf("%s.dsn-env: %q is not an environment variable name such as DATABASE_URL", path, db.DSNEnv)
	case db.DSNEnv == "" && len(c.Databases) > 1:
		return fmt.Errorf("%s: with several databases each needs dsn-env, the environment variable its pools' connection string comes from", path)
	}
	for _, other := range c.DatabaseNames() {
		if other < name && db.DSNEnv != "" && c.Databases[other].DSNEnv == db.DSNEnv {
			return fmt.Errorf("%s.dsn-env: %s is also the dsn-env of database %s", path, db.DSNEnv, other)
		}
	}
	return nil
}

func validateDependency(name string, dep Dependency) error {
	path := "dependencies." + name
	if !capacityNamePattern.MatchString(name) {
		return fmt.Errorf("%s: %q is not a name of letters, digits, '-', '_' and '.'", path, name)
	}
	if dep.Capacity < 1 {
		return fmt.Errorf("%s.capacity: want the concurrent calls it can take, 1 or more (got %d)", path, dep.Capacity)
	}
	for i, lane := range dep.Lanes {
		if !lanePattern.MatchString(lane) {
			return fmt.Errorf("%s.lanes[%d]: lane %q must be one lower-case name such as card_auth", path, i, lane)
		}
	}
	return nil
}

// knownKeys are the keys of each mapping of the schema, by the Go type yaml
// names in its "field x not found in type config.T" errors.
// The rest of the schema's mappings are listed whole, by path.
var knownKeys = map[string]string{
	"config.Deploy":     "replicas, commands",
	"config.Database":   "max-connections, reserved, dsn-env",
	"config.Dependency": "capacity, lanes",
}

// knownKeysOf is the known keys of the type a yaml error names.
func knownKeysOf(msg string) string {
	_, typ, _ := strings.Cut(msg, " not found in type ")
	typ = strings.TrimSpace(strings.SplitN(typ, "\n", 2)[0])
	if keys, ok := knownKeys[typ]; ok {
		return keys
	}
	return "analyzers, catalog.network-calls, catalog.pool-acquires, money.words, money.weak-words, money.not-money, money.types, " +
		"lanes, lanes.infer, lanes.declare, deploy.replicas, databases, dependencies"
}
