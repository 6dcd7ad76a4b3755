module example.com/retrymod

go 1.26.0

require (
	github.com/redis/go-redis/v9 v9.23.0
	google.golang.org/grpc v1.72.2
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/net v0.35.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/text v0.22.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20250218202821-56aae31c358a // indirect
	google.golang.org/protobuf v1.36.5 // indirect
)
