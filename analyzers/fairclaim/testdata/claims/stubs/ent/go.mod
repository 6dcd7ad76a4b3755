module entgo.io/ent

go 1.22
