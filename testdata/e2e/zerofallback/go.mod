module example.com/e2e/zerofallback

go 1.26

require (
	github.com/failsafe-go/failsafe-go v0.9.8
	github.com/shopspring/decimal v1.6.0
	github.com/sony/gobreaker/v2 v2.4.0
)

require github.com/bits-and-blooms/bitset v1.24.4 // indirect
