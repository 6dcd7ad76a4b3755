module example.com/robust

go 1.26
