package guard

import (
	"fmt"
	"path/filepath"

	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/internal/config"
)

// Config returns the .bhlint.yml in effect for the pass's package: the
// nearest one above the package's directory, or the default. Every driver
// runs the analyzers in processes of its own, so each pass reads the file
// itself; it is small.
func Config(pass *analysis.Pass) (*config.Config, error) {
	if len(pass.Files) == 0 {
		return &config.Config{}, nil
	}
	file := pass.Fset.File(pass.Files[0].Pos())
	if file == nil {
		return &config.Config{}, nil
	}
	cfg, err := config.ForDir(filepath.Dir(file.Name()))
	if err != nil {
		return nil, fmt.Errorf("bhlint configuration: %w", err)
	}
	return cfg, nil
}
