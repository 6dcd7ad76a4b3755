package ok

import _ "github.com/only/in/tests"
