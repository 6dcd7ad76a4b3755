module xorm.io/xorm

go 1.22
