module github.com/bhlint/bhlint/examples/payment-core

go 1.26.0

require github.com/jackc/pgx/v5 v5.12.0

require (
	github.com/bits-and-blooms/bitset v1.24.4 // indirect
	github.com/failsafe-go/failsafe-go v0.9.8 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/influxdata/tdigest v0.0.1 // indirect
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/jackc/puddle/v2 v2.2.3 // indirect
	github.com/josharian/intern v1.0.0 // indirect
	github.com/mailru/easyjson v0.7.7 // indirect
	github.com/rs/dnscache v0.0.0-20230804202142-fc85eb664529 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	golang.org/x/net v0.59.0 // indirect
	golang.org/x/sync v0.25.0 // indirect
	golang.org/x/text v0.44.0 // indirect
	golang.org/x/time v0.16.0 // indirect
)

require (
	github.com/bhlint/bhlint/bulkhead v0.0.0
	github.com/tsenart/vegeta/v12 v12.13.0
	golang.org/x/image v0.48.0
)

replace github.com/bhlint/bhlint/bulkhead => ../../bulkhead
