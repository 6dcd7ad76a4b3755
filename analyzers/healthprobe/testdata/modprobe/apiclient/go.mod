module example.com/apiclient

go 1.22
