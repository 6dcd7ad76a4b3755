package core

import (
	_ "example.com/m/internal/a"
	_ "example.com/m/internal/ok"
	_ "example.com/m/sibling"
	_ "example.com/mm/internal/x"
	_ "strings"
)
