package postgres_test

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/storetest"
	"github.com/nadine-robot/nadine/postgres"
)

// The servers the tests run against, as URLs in the environment; .ci/run
// starts both and sets them.
const (
	// stockEnv names a stock PostgreSQL (13 or later) without pgvector.
	stockEnv = "NADINE_TEST_POSTGRES_URL"
	// vectorEnv names a PostgreSQL with the pgvector extension (PGlite's
	// server in CI).
	vectorEnv = "NADINE_TEST_PGVECTOR_URL"
)

// serverURL returns the URL in env, skips the test when it is unset, and
// fails it instead when CI is set: CI must run every store.
func serverURL(t testing.TB, env string) string {
	t.Helper()
	url := os.Getenv(env)
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not set: CI must run the PostgreSQL tests (.ci/run starts the servers)", env)
		}
		t.Skipf("%s is not set: no PostgreSQL server to test against (see .ci/run)", env)
	}
	return url
}

// oneConn reports whether url limits its pool to one connection, as PGlite's
// server (which serves one connection at a time) needs.
func oneConn(t testing.TB, url string) bool {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	return cfg.MaxConns == 1
}

var schemas atomic.Int64

// newSchema returns a schema name no other test of this process uses.
func newSchema() string {
	return fmt.Sprintf("nadine_test_%d_%d", os.Getpid(), schemas.Add(1))
}

// open opens a store on url in opts.Schema (a new schema when empty),
// dropped and closed at the end of the test.
func open(t testing.TB, url string, opts postgres.Options) *postgres.Store {
	t.Helper()
	if opts.Schema == "" {
		opts.Schema = newSchema()
	}
	s, err := postgres.Open(t.Context(), url, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := postgres.DropSchema(ctx, s, opts.Schema); err != nil {
			t.Errorf("drop schema %s: %v", opts.Schema, err)
		}
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

// TestContractStock runs the contract suite on stock PostgreSQL: no
// pgvector, so the store ranks vectors itself.
func TestContractStock(t *testing.T) {
	url := serverURL(t, stockEnv)
	storetest.Run(t, func(t *testing.T) nadine.Store {
		s := open(t, url, postgres.Options{})
		if s.Vector() {
			t.Fatalf("%s has pgvector: it must name a stock server", stockEnv)
		}
		return s
	})
}

// TestContractPgvector runs the contract suite with pgvector.
func TestContractPgvector(t *testing.T) {
	url := serverURL(t, vectorEnv)
	storetest.Run(t, func(t *testing.T) nadine.Store {
		return open(t, url, postgres.Options{Vector: postgres.VectorRequired})
	})
}

// TestContractPgvectorServerOff runs the suite on the pgvector server with
// pgvector turned off: the stock code path on another server version.
func TestContractPgvectorServerOff(t *testing.T) {
	url := serverURL(t, vectorEnv)
	storetest.Run(t, func(t *testing.T) nadine.Store {
		s := open(t, url, postgres.Options{Vector: postgres.VectorOff})
		if s.Vector() {
			t.Fatal("Vector() with VectorOff on a new schema, want false")
		}
		return s
	})
}
