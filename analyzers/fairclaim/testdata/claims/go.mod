module example.com/claims

go 1.22

require (
	github.com/Masterminds/squirrel v1.5.4
	gorm.io/gorm v1.25.12
)

replace github.com/Masterminds/squirrel => ./stubs/squirrel

replace gorm.io/gorm => ./stubs/gorm
