module example.com/test

go 1.26
