package guard

import (
	"fmt"
	"go/types"
	"path/filepath"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/internal/config"
)

// Config returns the .bhlint.yml in effect for the pass's package: the
// nearest one above the package's directory, or the default. Every driver
// runs the analyzers in processes of its own, so each pass reads the file
// itself; it is small. The analyzers of one package ask for it in turn, and
// the last package's answer is kept for them: a type-checked package is one
// analysis of one version of its files, so its configuration cannot change
// under it, and a long-lived driver keeps no more than one.
func Config(pass *analysis.Pass) (*config.Config, error) {
	if len(pass.Files) == 0 {
		return &config.Config{}, nil
	}
	file := pass.Fset.File(pass.Files[0].Pos())
	if file == nil {
		return &config.Config{}, nil
	}
	lastConfig.Lock()
	defer lastConfig.Unlock()
	if lastConfig.pkg == pass.Pkg {
		return lastConfig.cfg, lastConfig.err
	}
	cfg, err := config.ForDir(filepath.Dir(file.Name()))
	if err != nil {
		cfg, err = nil, fmt.Errorf("bhlint configuration: %w", err)
	}
	lastConfig.pkg, lastConfig.cfg, lastConfig.err = pass.Pkg, cfg, err
	return cfg, err
}

var lastConfig struct {
	sync.Mutex
	pkg *types.Package
	cfg *config.Config
	err error
}
