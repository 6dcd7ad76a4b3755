module example.com/queuelite

go 1.22
