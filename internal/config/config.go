// Package config reads .bhlint.yml, the project's bhlint configuration,
// found upward from a package's directory:
//
//	analyzers:            # on/off by analyzer name (all on by default)
//	  unboundedqueue: false
//	catalog:              # extends the shared catalogue, by full function name
//	  network-calls: ["(*example.com/rpc.Client).Call"]
//	  pool-acquires: ["(*example.com/db.Pool).Get"]
//	money:                # zerofallback's money patterns
//	  words: [premium]    # names that hold money whatever their numeric type
//	  weak-words: [cost]  # names that hold money unless an integer count
//	  not-money: [score]  # words that veto the rest
//	  types: [example.com/money.Amount]
//	lanes:                # lanes for code that cannot carry //bhlint:lane
//	  - package: example.com/legacy/tax
//	    lane: tax
//	deploy:               # poolbudget's capacity keys (capacity.go)
//	  replicas: 30
//	databases:
//	  main: {max-connections: 100, reserved: 3, dsn-env: DATABASE_URL}
//	dependencies:
//	  tax-api: {capacity: 100, lanes: [tax]}
//
// lanes may also be a mapping, to turn off the inference of workload
// classes (interactive handlers, background loops) for code that declares
// no lanes:
//
//	lanes:
//	  infer: false        # default true
//	  declare:            # the list above
//	    - package: example.com/legacy/tax
//	      lane: tax
//
// An unknown key or a bad value is an error naming the file, the line and
// the key: a misspelt key must never silently turn a check off.
package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// FileName is the configuration file bhlint looks for.
const FileName = ".bhlint.yml"

// Config is a parsed .bhlint.yml. The zero value is the default: every
// analyzer on, nothing added.
type Config struct {
	Analyzers map[string]bool `yaml:"analyzers"`
	Catalog   Catalog         `yaml:"catalog"`
	Money     Money           `yaml:"money"`
	Lanes     Lanes           `yaml:"lanes"`
	// Deploy, Databases and Dependencies are the capacity keys
	// (capacity.go): replicas, and what the shared databases and
	// dependencies can take.
	Deploy       Deploy                `yaml:"deploy"`
	Databases    map[string]Database   `yaml:"databases"`
	Dependencies map[string]Dependency `yaml:"dependencies"`

	// Path is the file it was read from, "" for the default.
	Path string `yaml:"-"`
	// Hash identifies the content, so caches keyed on it notice changes.
	Hash string `yaml:"-"`

	// lines: where each key and list item is, by its path as errors name
	// it ("analyzers.heldconn", "catalog.network-calls[0]").
	lines map[string]int
}

// Catalog extends internal/catalog's tables.
type Catalog struct {
	NetworkCalls []string `yaml:"network-calls"`
	PoolAcquires []string `yaml:"pool-acquires"`
}

// Money extends zerofallback's money patterns.
type Money struct {
	Words     []string `yaml:"words"`
	WeakWords []string `yaml:"weak-words"`
	NotMoney  []string `yaml:"not-money"`
	Types     []string `yaml:"types"`
}

// Lanes is the lanes key: the lanes declared by package, and whether
// sharedpool infers workload classes where none are declared.
type Lanes struct {
	Declare []LaneDecl
	Infer   *bool // nil: the default, on
}

// UnmarshalYAML accepts the list form (lanes: [- package: …]) and the
// mapping form (lanes: {infer: false, declare: […]}).
func (l *Lanes) UnmarshalYAML(node *yaml.Node) error {
	if node.Kind != yaml.MappingNode {
		return decodeLanes(node, &l.Declare)
	}
	for i := 0; i+1 < len(node.Content); i += 2 {
		key, val := node.Content[i], node.Content[i+1]
		switch key.Value {
		case "infer":
			var on bool
			if err := val.Decode(&on); err != nil {
				return fmt.Errorf("line %d: lanes.infer: %q is not true or false", val.Line, val.Value)
			}
			l.Infer = &on
		case "declare":
			if err := decodeLanes(val, &l.Declare); err != nil {
				return err
			}
		default:
			return fmt.Errorf("line %d: unknown key %q in lanes (known: infer, declare)", key.Line, key.Value)
		}
	}
	return nil
}

// InferLanes reports whether workload classes are inferred where no lanes
// are declared (lanes.infer, on by default).
func (c *Config) InferLanes() bool { return c.Lanes.Infer == nil || *c.Lanes.Infer }

// LaneDecl puts every function of a package (or one function) in a lane.
type LaneDecl struct {
	Package string `yaml:"package"`
	Func    string `yaml:"func"` // optional: one function or method name in the package
	Lane    string `yaml:"lane"`

	Line int `yaml:"-"` // where the entry starts in the file, for errors
}

// decodeLanes decodes a list of lane declarations, rejecting unknown keys
// in each: yaml's KnownFields does not reach a custom unmarshaler's
// Decode, and a misspelt func: would widen the lane to every exported
// function of the package.
func decodeLanes(node *yaml.Node, out *[]LaneDecl) error {
	if node.Kind != yaml.SequenceNode {
		return fmt.Errorf("line %d: lanes: want a list of {package, func, lane} entries, or a mapping of infer and declare", node.Line)
	}
	for i, item := range node.Content {
		decl, err := decodeLane(item)
		if err != nil {
			return fmt.Errorf("line %d: lanes[%d]: %v", decl.Line, i, err)
		}
		*out = append(*out, decl)
	}
	return nil
}

func decodeLane(node *yaml.Node) (LaneDecl, error) {
	decl := LaneDecl{Line: node.Line}
	if node.Kind != yaml.MappingNode {
		return decl, errors.New("want a mapping with package, lane and optionally func")
	}
	for i := 0; i+1 < len(node.Content); i += 2 {
		key, val := node.Content[i], node.Content[i+1]
		field := map[string]*string{"package": &decl.Package, "func": &decl.Func, "lane": &decl.Lane}[key.Value]
		if field == nil {
			decl.Line = key.Line
			return decl, fmt.Errorf("unknown key %q (known: package, func, lane)", key.Value)
		}
		if val.Kind != yaml.ScalarNode {
			decl.Line = val.Line
			return decl, fmt.Errorf("%s: want a single name", key.Value)
		}
		*field = val.Value
	}
	return decl, nil
}

// Enabled reports whether the analyzer is on.
func (c *Config) Enabled(analyzer string) bool {
	on, set := c.Analyzers[analyzer]
	return !set || on
}

var (
	lanePattern    = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	funcKeyPattern = regexp.MustCompile(`^(\(\*?[\w./-]+\.\w+\)\.(\w+|\*)|[\w./-]+\.\w+)$`)
	typePattern    = regexp.MustCompile(`^[\w./-]+\.\w+$`)
	wordPattern    = regexp.MustCompile(`^[A-Za-z]+$`)
)

// Parse parses the content of a configuration file; name is used in errors.
func Parse(name string, data []byte) (*Config, error) {
	cfg := &Config{Path: name, lines: keyLines(data)}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(cfg); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %s", name, describeYAMLError(err))
	}
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("%s: %s%w", name, cfg.lineOf(err), err)
	}
	sum := sha256.Sum256(data)
	cfg.Hash = hex.EncodeToString(sum[:8])
	return cfg, nil
}

// describeYAMLError turns yaml's "field x not found in type config.Config"
// into the user's words.
func describeYAMLError(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.ReplaceAll(msg, "unmarshal errors:\n  ", "")
	if i := strings.Index(msg, "field "); i >= 0 && strings.Contains(msg, " not found in type ") {
		key := strings.Fields(msg[i+len("field "):])[0]
		return strings.TrimSpace(msg[:i]) + " unknown key " + fmt.Sprintf("%q", key) + " (known: " + knownKeysOf(msg) + ")"
	}
	return msg
}

// keyLines maps the path of every key and list item to its line. Data
// that does not parse gives none: the decoder reports that error.
func keyLines(data []byte) map[string]int {
	lines := map[string]int{}
	var root yaml.Node
	if yaml.Unmarshal(data, &root) != nil || len(root.Content) == 0 {
		return lines
	}
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				p := joinPath(path, n.Content[i].Value)
				lines[p] = n.Content[i].Line
				walk(n.Content[i+1], p)
			}
		case yaml.SequenceNode:
			for i, item := range n.Content {
				p := fmt.Sprintf("%s[%d]", path, i)
				lines[p] = item.Line
				walk(item, p)
			}
		}
	}
	walk(root.Content[0], "")
	return lines
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// lineOf is "line N: " for a validation error that starts with the path of
// what it is about, or of the nearest key above it that is in the file (a
// required key that is missing: databases.main.max-connections is on the
// line of databases.main); "" when none is.
func (c *Config) lineOf(err error) string {
	path, _, _ := strings.Cut(err.Error(), ": ")
	for path != "" {
		if n, ok := c.lines[path]; ok {
			return fmt.Sprintf("line %d: ", n)
		}
		i := strings.LastIndexByte(path, '.')
		if i < 0 {
			break
		}
		path = path[:i]
	}
	return ""
}

// Line is where a key (by its path: "analyzers.heldconn") is in the file,
// 0 when the file does not have it.
func (c *Config) Line(path string) int { return c.lines[path] }

func (c *Config) validate() error {
	for i, key := range c.Catalog.NetworkCalls {
		if !funcKeyPattern.MatchString(key) {
			return fmt.Errorf("catalog.network-calls[%d]: %q is not a function name such as \"example.com/rpc.Call\" or \"(*example.com/rpc.Client).Call\"", i, key)
		}
	}
	for i, key := range c.Catalog.PoolAcquires {
		if !funcKeyPattern.MatchString(key) {
			return fmt.Errorf("catalog.pool-acquires[%d]: %q is not a function name such as \"(*example.com/db.Pool).Get\"", i, key)
		}
	}
	for _, list := range []struct {
		key   string
		words []string
	}{{"money.words", c.Money.Words}, {"money.weak-words", c.Money.WeakWords}, {"money.not-money", c.Money.NotMoney}} {
		for i, w := range list.words {
			if !wordPattern.MatchString(w) {
				return fmt.Errorf("%s[%d]: %q is not a single word of letters", list.key, i, w)
			}
		}
	}
	for i, t := range c.Money.Types {
		if !typePattern.MatchString(t) {
			return fmt.Errorf("money.types[%d]: %q is not a type name such as \"example.com/money.Amount\"", i, t)
		}
	}
	for i, l := range c.Lanes.Declare {
		if l.Package == "" {
			return fmt.Errorf("line %d: lanes[%d]: package is required", l.Line, i)
		}
		if !lanePattern.MatchString(l.Lane) {
			return fmt.Errorf("line %d: lanes[%d]: lane %q must be one lower-case name such as card_auth", l.Line, i, l.Lane)
		}
	}
	return c.validateCapacity()
}

// Load reads and parses a configuration file.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading bhlint configuration: %w", err)
	}
	return Parse(path, data)
}

// Find returns the nearest .bhlint.yml in dir or above it, or "".
func Find(dir string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		path := filepath.Join(dir, FileName)
		if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() {
			return path
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// ForDir loads the configuration in effect for a package directory: the
// nearest .bhlint.yml, or the default when there is none.
func ForDir(dir string) (*Config, error) {
	path := Find(dir)
	if path == "" {
		return &Config{}, nil
	}
	return Load(path)
}
