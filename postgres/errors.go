package postgres

import (
	"context"
	"errors"
	"io"
	"net"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nadine-robot/nadine"
)

// code: unreachable or gone (08, 53, 57P01-03, 57014, deadline, failed retry)
// is EUNAVAILABLE, refused data (22, 23) EINVALID, anything else EINTERNAL.
func code(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case strings.HasPrefix(pe.Code, "08"), strings.HasPrefix(pe.Code, "53"),
			slices.Contains([]string{"57P01", "57P02", "57P03", "57014", "40001", "40P01"}, pe.Code):
			return nadine.EUNAVAILABLE
		case strings.HasPrefix(pe.Code, "22"), strings.HasPrefix(pe.Code, "23"):
			return nadine.EINVALID
		}
		return nadine.EINTERNAL
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	switch {
	case errors.As(err, &ce), errors.As(err, &ne), pgconn.Timeout(err),
		errors.Is(err, context.DeadlineExceeded), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, net.ErrClosed):
		return nadine.EUNAVAILABLE
	}
	if pgconn.SafeToRetry(err) {
		return nadine.EUNAVAILABLE
	}
	return nadine.EINTERNAL
}

// isCode reports whether err is a server error with one of the SQLSTATE codes.
func isCode(err error, codes ...string) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && slices.Contains(codes, pe.Code)
}
