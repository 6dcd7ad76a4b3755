module example.com/modmetrics

go 1.22

require example.com/promlike v0.0.0

replace example.com/promlike => ./promlike
