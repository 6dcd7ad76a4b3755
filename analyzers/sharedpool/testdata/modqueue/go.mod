module example.com/modqueue

go 1.22

require example.com/queuelite v0.0.0

replace example.com/queuelite => ./queuelite
