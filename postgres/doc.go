// Package postgres implements nadine.Store on PostgreSQL (pgx) for fleets
// sharing one database, with pgvector when present; it passes sqlite's
// contract suite (docs/architecture.md, postgres).
package postgres
