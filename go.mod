module github.com/bhlint/bhlint

go 1.26.0

require (
	github.com/golangci/plugin-module-register v0.1.2
	github.com/sourcegraph/jsonrpc2 v0.2.3
	golang.org/x/tools v0.52.0
)

require (
	github.com/google/go-cmp v0.6.0 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)
