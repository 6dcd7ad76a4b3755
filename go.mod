module github.com/bhlint/bhlint

go 1.26.0

require (
	github.com/golangci/plugin-module-register v0.1.2
	github.com/sourcegraph/jsonrpc2 v0.2.3
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/tools v0.49.0 // not v0.50.0-v0.52.0: their unitchecker mis-reads types (docs/UPSTREAM.md)
)

require (
	golang.org/x/mod v0.41.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)
