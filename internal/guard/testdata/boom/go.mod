module example.com/boom

go 1.26
