module example.com/e2e/tenancy

go 1.26
