module example.com/claims

go 1.22

require (
	github.com/doug-martin/goqu/v9 v9.19.0
	github.com/Masterminds/squirrel v1.5.4
	entgo.io/ent v0.13.1
	gorm.io/gorm v1.25.12
	xorm.io/builder v0.3.13
	xorm.io/xorm v1.3.9
)

replace github.com/Masterminds/squirrel => ./stubs/squirrel

replace gorm.io/gorm => ./stubs/gorm

replace entgo.io/ent => ./stubs/ent

replace github.com/doug-martin/goqu/v9 => ./stubs/goqu

replace xorm.io/xorm => ./stubs/xorm

replace xorm.io/builder => ./stubs/builder
