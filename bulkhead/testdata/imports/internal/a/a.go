package a

import (
	_ "example.com/m/internal/b"
	_ "example.com/m/internal/ok"
	_ "sync"
)
