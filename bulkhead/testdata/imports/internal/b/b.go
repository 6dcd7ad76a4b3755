package b

import _ "github.com/third/party"
