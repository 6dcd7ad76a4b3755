package ok

import _ "time"
