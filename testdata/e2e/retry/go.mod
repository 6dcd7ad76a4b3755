module example.com/e2e/retry

go 1.26

require github.com/cenkalti/backoff/v4 v4.3.0
