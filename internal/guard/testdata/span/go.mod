module example.com/span

go 1.26
