module example.com/sharedpool

go 1.26.0

require (
	github.com/bhlint/bhlint/bulkhead v0.0.0
	github.com/jackc/pgx/v5 v5.12.0
)

require (
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/jackc/puddle/v2 v2.2.3 // indirect
	golang.org/x/sync v0.25.0 // indirect
	golang.org/x/text v0.42.0 // indirect
)

replace github.com/bhlint/bhlint/bulkhead => ../../../bulkhead
