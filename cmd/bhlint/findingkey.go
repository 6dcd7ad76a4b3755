package main

import (
	"crypto/sha256"
	"encoding/hex"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
)

// findingKey identifies a finding across edits that do not touch it: lines
// moved, code added above, the file reformatted. It is what a baseline
// records and what SARIF's partialFingerprints hash, so that both survive the
// same edits. Two findings with the same key in one function are told apart
// only by how many there are: a baseline counts them.
type findingKey struct {
	Code     string `json:"code"`
	Package  string `json:"package"`
	Function string `json:"function"` // receiver-qualified, "" at package level
	Message  string `json:"message"`  // normalised: no line numbers or positions
}

// positionInMessage matches what messages say about places: "store.go:12:3",
// "store.go:12", "line 12". Their numbers change when code above moves.
var positionInMessage = regexp.MustCompile(`(\.go):\d+(?::\d+)?|\b(lines?) \d+(?:-\d+)?`)

// normaliseMessage drops the line and column numbers from a message, keeping
// the file names and the words around them.
func normaliseMessage(msg string) string {
	return positionInMessage.ReplaceAllString(msg, "$1$2")
}

// fingerprint is the key as one opaque string, with the finding's ordinal
// among those sharing the key (0 for the first, in position order), so that
// each result of a run has its own.
func (k findingKey) fingerprint(ordinal int) string {
	h := sha256.New()
	for _, part := range []string{k.Code, k.Package, k.Function, k.Message, strings.Repeat("+", ordinal)} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// keyer computes findings' keys, parsing each file once for its functions.
type keyer struct {
	fset  *token.FileSet
	files map[string]*ast.File // nil when the file does not parse
}

func newKeyer() *keyer { return &keyer{fset: token.NewFileSet(), files: map[string]*ast.File{}} }

func (k *keyer) key(f finding) findingKey {
	return findingKey{
		Code:     f.Code,
		Package:  f.Package,
		Function: k.enclosingFunction(f.Location),
		Message:  normaliseMessage(f.Message),
	}
}

// keys are the findings' keys, in order, and each one's ordinal among the
// findings before it with the same key.
func (k *keyer) keys(fs []finding) ([]findingKey, []int) {
	keys := make([]findingKey, len(fs))
	ordinals := make([]int, len(fs))
	seen := map[findingKey]int{}
	for i, f := range fs {
		keys[i] = k.key(f)
		ordinals[i] = seen[keys[i]]
		seen[keys[i]]++
	}
	return keys, ordinals
}

// enclosingFunction names the function declaration around a position as
// (*T).M, T.M or F; a function literal belongs to the declaration it is in.
func (k *keyer) enclosingFunction(loc location) string {
	file := k.parse(loc.File)
	if file == nil || loc.Line < 1 {
		return ""
	}
	tf := k.fset.File(file.Pos())
	if loc.Line > tf.LineCount() {
		return ""
	}
	pos := tf.LineStart(loc.Line) + token.Pos(max(loc.Column-1, 0))
	for _, decl := range file.Decls {
		if fd, ok := decl.(*ast.FuncDecl); ok && fd.Pos() <= pos && pos <= fd.End() {
			return funcName(fd)
		}
	}
	return ""
}

func (k *keyer) parse(name string) *ast.File {
	if f, ok := k.files[name]; ok {
		return f
	}
	f, err := parser.ParseFile(k.fset, name, nil, parser.SkipObjectResolution)
	if err != nil {
		f = nil
	}
	k.files[name] = f
	return f
}

// funcName is a declaration's name with its receiver's type, without type
// parameters: (*Cache).Get for func (c *Cache[K, V]) Get.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	recv := fd.Recv.List[0].Type
	star := ""
	if p, ok := recv.(*ast.StarExpr); ok {
		star, recv = "*", p.X
	}
	switch t := recv.(type) {
	case *ast.IndexExpr:
		recv = t.X
	case *ast.IndexListExpr:
		recv = t.X
	}
	name := "?"
	if id, ok := recv.(*ast.Ident); ok {
		name = id.Name
	}
	if star != "" {
		return "(*" + name + ")." + fd.Name.Name
	}
	return name + "." + fd.Name.Name
}
