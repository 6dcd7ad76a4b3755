module example.com/modstore

go 1.22
