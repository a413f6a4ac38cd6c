package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nadine-robot/nadine"
)

func TestCode(t *testing.T) {
	pg := func(code string) error { return fmt.Errorf("exec: %w", &pgconn.PgError{Code: code, Message: "m"}) }
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"admin shutdown", pg("57P01"), nadine.EUNAVAILABLE},
		{"cannot connect now", pg("57P03"), nadine.EUNAVAILABLE},
		{"connection failure", pg("08006"), nadine.EUNAVAILABLE},
		{"too many connections", pg("53300"), nadine.EUNAVAILABLE},
		{"disk full", pg("53100"), nadine.EUNAVAILABLE},
		{"statement timeout", pg("57014"), nadine.EUNAVAILABLE},
		{"serialization failure", pg("40001"), nadine.EUNAVAILABLE},
		{"deadlock", pg("40P01"), nadine.EUNAVAILABLE},
		{"bad UTF-8", pg("22021"), nadine.EINVALID},
		{"value too long", pg("22001"), nadine.EINVALID},
		{"unique violation", pg("23505"), nadine.EINVALID},
		{"check violation", pg("23514"), nadine.EINVALID},
		{"undefined table", pg("42P01"), nadine.EINTERNAL},
		{"syntax", pg("42601"), nadine.EINTERNAL},
		{"connection reset", fmt.Errorf("read: %w", &net.OpError{Op: "read", Err: errors.New("connection reset by peer")}), nadine.EUNAVAILABLE},
		{"unexpected EOF", fmt.Errorf("receive: %w", io.ErrUnexpectedEOF), nadine.EUNAVAILABLE},
		{"deadline", fmt.Errorf("query: %w", context.DeadlineExceeded), nadine.EUNAVAILABLE},
		{"canceled", fmt.Errorf("query: %w", context.Canceled), nadine.EINTERNAL},
		{"anything else", errors.New("scan: cannot scan"), nadine.EINTERNAL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := code(tt.err); got != tt.want {
				t.Errorf("code(%v) = %q, want %q", tt.err, got, tt.want)
			}
			s := &Store{log: discard()}
			err := s.wrap("op", tt.err)
			if nadine.ErrorCode(err) != tt.want || !errors.Is(err, tt.err) || err.Error()[:14] != "postgres: op: " {
				t.Errorf("wrap = %v (code %q), want code %q, the cause kept and the prefix", err, nadine.ErrorCode(err), tt.want)
			}
		})
	}
}
