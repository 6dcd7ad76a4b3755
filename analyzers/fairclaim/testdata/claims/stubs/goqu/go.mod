module github.com/doug-martin/goqu/v9

go 1.22
