module example.com/apiclient

go 1.26.0
