module example.com/promlike

go 1.22
