module example.com/e2e/config

go 1.26
