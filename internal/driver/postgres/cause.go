package postgres

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"
)

// Cause returns a connect error whose message leads with the real reason.
// pgx tries TLS first (sslmode=prefer) and then plain text, and joins the
// errors of both attempts, so a wrong password reads "tls error: server
// refused TLS connection; … password authentication failed". When the
// server answered with an error (authentication failed, no such database)
// that answer is the message: `FATAL: password authentication failed for
// user "bench" (SQLSTATE 28P01)`. Other errors are returned unchanged.
// errors.Is and errors.As still see the whole chain.
func Cause(err error) error {
	var pe *pgconn.PgError
	if err == nil || !errors.As(err, &pe) {
		return err
	}
	return &causeFirst{msg: fmt.Sprintf("%s: %s (SQLSTATE %s)", pe.Severity, pe.Message, pe.Code), err: err}
}

// causeFirst shows msg and unwraps to the original error.
type causeFirst struct {
	msg string
	err error
}

func (c *causeFirst) Error() string { return c.msg }
func (c *causeFirst) Unwrap() error { return c.err }
