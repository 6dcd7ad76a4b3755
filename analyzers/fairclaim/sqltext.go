package fairclaim

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file reads SQL text as tokens: enough to find a locking SELECT, its
// table, ORDER BY, WHERE and the lists around it, and the columns of CREATE
// TABLE. It is not a parser: what it cannot read (a dynamic ORDER BY, a
// table that is a subquery) makes the claim unreadable, and an unreadable
// claim is not reported.

type tokenKind int

const (
	word   tokenKind = iota + 1 // keyword or identifier, lower case, quotes removed
	param                       // $1, ?, :name, @name
	str                         // 'text'
	number                      // 42
	punct                       // ( ) , . = ; * and other operators
)

type lexeme struct {
	text  string
	kind  tokenKind
	depth int // parentheses around the token; "(" and ")" have the depth outside them
	off   int // byte offset in the text
}

// sqlText is SQL text split into tokens, with the name sqlc gives a query
// (-- name: ClaimJob :one) when it has one.
type sqlText struct {
	toks []lexeme
	name string
}

func tokenize(s string) sqlText {
	var t sqlText
	depth := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case strings.HasPrefix(s[i:], "--"):
			end := lineEnd(s, i)
			if t.name == "" {
				t.name = sqlcName(s[i+2 : end])
			}
			i = end
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return t
			}
			i += end + 4
		case c == '\'':
			end := quoteEnd(s, i, '\'')
			t.toks = append(t.toks, lexeme{text: s[i:end], kind: str, depth: depth, off: i})
			i = end
		case c == '"' || c == '`':
			end := quoteEnd(s, i, c)
			name := strings.ToLower(strings.Trim(s[i:end], string(c)))
			t.toks = append(t.toks, lexeme{text: name, kind: word, depth: depth, off: i})
			i = end
		case c == '(':
			t.toks = append(t.toks, lexeme{text: "(", kind: punct, depth: depth, off: i})
			depth++
			i++
		case c == ')':
			depth = max(depth-1, 0)
			t.toks = append(t.toks, lexeme{text: ")", kind: punct, depth: depth, off: i})
			i++
		case c == '?' || isParamStart(s, i):
			end := i + 1
			for end < len(s) && isWordByte(s[end]) {
				end++
			}
			t.toks = append(t.toks, lexeme{text: s[i:end], kind: param, depth: depth, off: i})
			i = end
		case c >= '0' && c <= '9':
			end := i
			for end < len(s) && (isWordByte(s[end]) || s[end] == '.') {
				end++
			}
			t.toks = append(t.toks, lexeme{text: s[i:end], kind: number, depth: depth, off: i})
			i = end
		case isWordStart(s, i):
			end := i
			for end < len(s) && (isWordByte(s[end]) || s[end] >= utf8.RuneSelf) {
				end++
			}
			t.toks = append(t.toks, lexeme{text: strings.ToLower(s[i:end]), kind: word, depth: depth, off: i})
			i = end
		default:
			end := i + 1
			if end < len(s) && strings.ContainsRune("=<>!:|", rune(s[end])) && strings.ContainsRune("<>!:|", rune(c)) {
				end++ // <>, <=, >=, !=, ::, ||
			}
			t.toks = append(t.toks, lexeme{text: s[i:end], kind: punct, depth: depth, off: i})
			i = end
		}
	}
	return t
}

func lineEnd(s string, i int) int {
	if n := strings.IndexByte(s[i:], '\n'); n >= 0 {
		return i + n
	}
	return len(s)
}

// quoteEnd is the index after the quote closing the one at i; a doubled
// quote is an escaped one.
func quoteEnd(s string, i int, q byte) int {
	for j := i + 1; j < len(s); j++ {
		if s[j] == q {
			if j+1 < len(s) && s[j+1] == q {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(s)
}

// isParamStart tells $1, $name, :name and @name from a cast (::), a
// dollar-quote ($$) or a lone colon.
func isParamStart(s string, i int) bool {
	c := s[i]
	if c != '$' && c != ':' && c != '@' {
		return false
	}
	if i+1 >= len(s) || !isWordByte(s[i+1]) {
		return false
	}
	return c != ':' || i == 0 || s[i-1] != ':'
}

func isWordStart(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r == '_' || unicode.IsLetter(r)
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// sqlcName is the query name of an sqlc header comment: " name: ClaimJob
// :one" is "ClaimJob".
func sqlcName(comment string) string {
	rest, ok := strings.CutPrefix(strings.TrimSpace(comment), "name:")
	if !ok {
		return ""
	}
	if f := strings.Fields(rest); len(f) > 0 {
		return f[0]
	}
	return ""
}

// statements splits the tokens at each ";" outside parentheses.
func (t sqlText) statements() [][]lexeme {
	var out [][]lexeme
	start := 0
	for i, tok := range t.toks {
		if tok.text == ";" && tok.depth == 0 {
			if i > start {
				out = append(out, t.toks[start:i])
			}
			start = i + 1
		}
	}
	if start < len(t.toks) {
		out = append(out, t.toks[start:])
	}
	return out
}

// is reports whether toks[i] is the word w.
func is(toks []lexeme, i int, w string) bool {
	return i >= 0 && i < len(toks) && toks[i].kind == word && toks[i].text == w
}

// mayContainClaim is a cheap test run on every constant string before it is
// tokenized.
func mayContainClaim(s string) bool {
	lower := strings.ToLower(s)
	return strings.Contains(lower, "skip") && strings.Contains(lower, "locked") && strings.Contains(lower, "for")
}

// mayContainSchema is the same for CREATE TABLE and ALTER TABLE … ADD.
func mayContainSchema(s string) bool {
	lower := strings.ToLower(s)
	return strings.Contains(lower, "table") && (strings.Contains(lower, "create") || strings.Contains(lower, "alter"))
}
