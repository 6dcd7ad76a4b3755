module example.com/moddex

go 1.22
