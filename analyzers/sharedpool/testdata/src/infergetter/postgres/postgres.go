// Package postgres opens one pool and a replica's, and gives each // want package:`lanes\(\)`
// repository its handle through the database.Database getters: a
// repository's field is the pool its getter returns, not a pool of its own.
package postgres

import (
	"database/sql"

	"infergetter/database"
)

type Postgres struct {
	dbx     *sql.DB
	replica *sql.DB
}

func NewDB(dsn string) (*Postgres, error) { // want NewDB:`creates\(postgres\.Postgres\.dbx, postgres\.Postgres\.replica\)`
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, err
	}
	replica, err := sql.Open("postgres", dsn+"&replica")
	if err != nil {
		return nil, err
	}
	return &Postgres{dbx: db, replica: replica}, nil
}

func (p *Postgres) GetDB() *sql.DB { return p.dbx } // want GetDB:`gets\(postgres\.Postgres\.dbx\)` GetDB:`reaches\(postgres\.Postgres\.dbx\(no lane\)\)`

func (p *Postgres) GetReplica() *sql.DB { return p.replica } // want GetReplica:`reaches\(postgres\.Postgres\.replica\(no lane\)\)` GetReplica:`gets\(postgres\.Postgres\.replica\)`

// userRepo and jobRepo hold the primary pool.
type userRepo struct{ db *sql.DB } // want db:`aliases\(postgres\.Postgres\.dbx\)`

func NewUserRepo(d database.Database) *userRepo { return &userRepo{db: d.GetDB()} } // want NewUserRepo:`reaches\(via \(database\.Database\)\.GetDB\)`

func (r *userRepo) Find() { r.db.Query("SELECT 1") } // want Find:`reaches\(postgres\.Postgres\.dbx\(no lane\)\)`

type jobRepo struct{ db *sql.DB } // want db:`aliases\(postgres\.Postgres\.dbx\)`

func NewJobRepo(d database.Database) *jobRepo { return &jobRepo{db: d.GetDB()} } // want NewJobRepo:`reaches\(via \(database\.Database\)\.GetDB\)`

func (r *jobRepo) Claim() { r.db.Exec("UPDATE jobs SET taken = true") } // want Claim:`reaches\(postgres\.Postgres\.dbx\(no lane\)\)`

// reportRepo reads the replica: a pool of its own, whatever the other
// repositories share.
type reportRepo struct{ db *sql.DB } // want db:`aliases\(postgres\.Postgres\.replica\)`

func NewReportRepo(d database.Database) *reportRepo { return &reportRepo{db: d.GetReplica()} } // want NewReportRepo:`reaches\(via \(database\.Database\)\.GetReplica\)`

func (r *reportRepo) Scan() { r.db.Query("SELECT * FROM events") } // want Scan:`reaches\(postgres\.Postgres\.replica\(no lane\)\)`

// auditRepo is filled from the getter in one place and opened on its own in
// another: which pool it holds depends on the caller, so it is a pool of its
// own.
type auditRepo struct{ db *sql.DB }

func NewAuditRepo(d database.Database) *auditRepo { return &auditRepo{db: d.GetDB()} } // want NewAuditRepo:`reaches\(via \(database\.Database\)\.GetDB\)`

func OpenAuditRepo(dsn string) *auditRepo { // want OpenAuditRepo:`creates\(postgres\.auditRepo\.db\)`
	db, _ := sql.Open("postgres", dsn)
	return &auditRepo{db: db}
}

func (r *auditRepo) Write() { r.db.Exec("INSERT INTO audit VALUES (1)") } // want Write:`reaches\(postgres\.auditRepo\.db\(no lane\)\)`
