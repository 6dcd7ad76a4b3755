package fairclaim

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/bhlint/bhlint/internal/catalog"
)

// tenantColumn is a tenant column of a table, and where its definition was
// read ("migrations/001_jobs.sql:4", "the constant schema at store.go:12").
type tenantColumn struct {
	column, where string
}

// schema maps a table (lower case, without a schema) to its tenant column.
type schema map[string]tenantColumn

// addDefinitions reads CREATE TABLE and ALTER TABLE … ADD COLUMN in text
// and records the tables that have a tenant column. where names a line of
// the text's source, given the byte offset of the definition.
func (s schema) addDefinitions(text string, where func(off int) string) {
	if !mayContainSchema(text) {
		return
	}
	for _, st := range tokenize(text).statements() {
		table, cols := tableColumns(st)
		if table == "" {
			continue
		}
		if col, ok := tenantOf(cols); ok {
			if _, known := s[table]; !known {
				s[table] = tenantColumn{column: col.text, where: where(col.off)}
			}
		}
	}
}

// tenantOf is the tenant column among a table's columns: the first of
// catalog.TenantColumns, or else an owner column (owner_id), the widest
// party rows without a tenant column are divided by.
func tenantOf(cols []lexeme) (lexeme, bool) {
	var owner lexeme
	for _, col := range cols {
		if catalog.TenantColumns[col.text] {
			return col, true
		}
		if catalog.OwnerColumns[col.text] && owner.text == "" {
			owner = col
		}
	}
	return owner, owner.text != ""
}

// tableColumns reads "CREATE [TEMP|UNLOGGED] TABLE [IF NOT EXISTS] name (
// col type, …)" and "ALTER TABLE [IF EXISTS] [ONLY] name ADD [COLUMN] [IF
// NOT EXISTS] col …", returning the table and the first word of each
// column definition.
func tableColumns(st []lexeme) (string, []lexeme) {
	i := 0
	switch {
	case is(st, 0, "create"):
		for i = 1; i < len(st) && !is(st, i, "table") && i < 4; i++ {
		}
	case is(st, 0, "alter"):
		i = 1
	default:
		return "", nil
	}
	if !is(st, i, "table") {
		return "", nil
	}
	i++
	for is(st, i, "if") || is(st, i, "not") || is(st, i, "exists") || is(st, i, "only") {
		i++
	}
	if i >= len(st) || st[i].kind != word {
		return "", nil
	}
	table := st[i].text
	if i+2 < len(st) && st[i+1].text == "." && st[i+2].kind == word {
		table, i = st[i+2].text, i+2
	}
	i++
	if is(st, 0, "alter") {
		return table, addedColumns(st[i:])
	}
	if i >= len(st) || st[i].text != "(" {
		return "", nil
	}
	return table, definedColumns(st[i:])
}

// definedColumns is the first word of each item of the parenthesised list
// at st[0], constraints left out.
func definedColumns(st []lexeme) []lexeme {
	d := st[0].depth + 1
	var cols []lexeme
	for k := 1; k < len(st); k++ {
		if st[k].depth < d {
			break
		}
		first := k == 1 || st[k-1].text == "," && st[k-1].depth == d
		if first && st[k].depth == d && st[k].kind == word {
			switch st[k].text {
			case "constraint", "primary", "foreign", "unique", "check", "exclude", "key", "index", "like":
				continue
			}
			cols = append(cols, st[k])
		}
	}
	return cols
}

// addedColumns is the column of each ADD [COLUMN] [IF NOT EXISTS] col.
func addedColumns(st []lexeme) []lexeme {
	var cols []lexeme
	for k := 0; k < len(st); k++ {
		if !is(st, k, "add") || st[k].depth != 0 {
			continue
		}
		j := k + 1
		for is(st, j, "column") || is(st, j, "if") || is(st, j, "not") || is(st, j, "exists") {
			j++
		}
		if j < len(st) && st[j].kind == word && !is(st, j, "constraint") {
			cols = append(cols, st[j])
		}
	}
	return cols
}

// Bounds on reading a module's SQL files: a module with more is read up to
// them, and a table defined past them is not known.
const (
	maxSQLFiles = 2000
	maxSQLBytes = 16 << 20
)

// addModuleFiles reads the .sql files of the module holding dir: from the
// directory of its go.mod down, leaving out vendor, node_modules, testdata,
// hidden directories and nested modules. Paths in where are relative to the
// module's root.
func (s schema) addModuleFiles(dir string) error {
	root := moduleRoot(dir)
	if root == "" {
		return nil
	}
	files, total := 0, 0
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable directory holds no schema we can use
		}
		if d.IsDir() {
			if path != root && skipDir(path, d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(d.Name(), ".sql") || files >= maxSQLFiles || total >= maxSQLBytes {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		files, total = files+1, total+len(data)
		rel, _ := filepath.Rel(root, path)
		text := string(data)
		s.addDefinitions(text, func(off int) string {
			return fmt.Sprintf("%s:%d", filepath.ToSlash(rel), 1+strings.Count(text[:off], "\n"))
		})
		return nil
	})
}

func skipDir(path, name string) bool {
	switch name {
	case "vendor", "node_modules", "testdata":
		return true
	}
	if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
		return true
	}
	_, err := os.Stat(filepath.Join(path, "go.mod"))
	return err == nil
}

// moduleRoot is the nearest directory at or above dir holding a go.mod, or
// "" if there is none.
func moduleRoot(dir string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
