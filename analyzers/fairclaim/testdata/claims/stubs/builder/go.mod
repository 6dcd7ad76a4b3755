module xorm.io/builder

go 1.22
