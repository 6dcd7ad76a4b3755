// Package pools holds the lanes' database pools.
package pools

import "database/sql"

//bhlint:lane card_auth
var CardAuth *sql.DB
