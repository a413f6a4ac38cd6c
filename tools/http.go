package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/redact"
)

const (
	// defaultTimeout bounds one call of an external service.
	defaultTimeout = 10 * time.Second
	// maxBody bounds the response body read from an external service.
	maxBody = 2 << 20
)

// service describes an external HTTP API for error messages; secret is
// redacted from every message.
type service struct {
	pkg    string // "search", "weather": prefixes errors
	name   string // "Serper", "OpenWeatherMap"
	keyEnv string // the environment variable that holds the key
	secret string
}

// redact removes the secret, and anything like an API key, from msg.
func (s service) redact(msg string) string { return redact.Secrets(msg, s.secret) }

// do sends req; transport failures are EUNAVAILABLE and never carry the
// request URL, which may hold a key.
func (s service) do(ctx context.Context, client *http.Client, req *http.Request) (int, []byte, error) {
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req.WithContext(ctx))
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return 0, nil, nadine.Errorf(nadine.EUNAVAILABLE, "%s: %s did not answer in time: %w", s.pkg, s.name, cerr)
		}
		cause := err
		var uerr *url.Error
		if errors.As(err, &uerr) && uerr.Err != nil {
			cause = uerr.Err // drop the URL, which may carry a key
		}
		return 0, nil, &nadine.Error{
			Code:    nadine.EUNAVAILABLE,
			Message: s.redact(fmt.Sprintf("%s: cannot reach %s at %s: %v", s.pkg, s.name, req.URL.Host, cause)),
			Err:     cause,
		}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return 0, nil, nadine.Errorf(nadine.EUNAVAILABLE, "%s: %s did not answer in time: %w", s.pkg, s.name, cerr)
		}
		return 0, nil, &nadine.Error{Code: nadine.EUNAVAILABLE, Message: s.redact(fmt.Sprintf("%s: read %s response: %v", s.pkg, s.name, err)), Err: err}
	}
	return resp.StatusCode, body, nil
}

// statusError codes a non-2xx status; on 401 and 403 it names the key's
// variable, never the key.
func (s service) statusError(status int, body []byte) error {
	detail := cleanText(string(body))
	detail = nadine.Shorten(s.redact(detail), 160)
	if detail != "" {
		detail = ": " + detail
	}
	code := nadine.HTTPStatusCode(status)
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return nadine.Errorf(code, "%s: %s rejected the API key (HTTP %d); check %s", s.pkg, s.name, status, s.keyEnv)
	case code == nadine.ERATELIMIT:
		return nadine.Errorf(code, "%s: %s is rate limiting (HTTP %d)%s", s.pkg, s.name, status, detail)
	case code == nadine.EUNAVAILABLE:
		return nadine.Errorf(code, "%s: %s failed (HTTP %d)%s", s.pkg, s.name, status, detail)
	default:
		return nadine.Errorf(code, "%s: %s refused the request (HTTP %d)%s", s.pkg, s.name, status, detail)
	}
}

// withTimeout bounds ctx by d, or by defaultTimeout when d is zero; a
// negative d means no bound beyond ctx.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d < 0 {
		return context.WithCancel(ctx)
	}
	if d == 0 {
		d = defaultTimeout
	}
	return context.WithTimeout(ctx, d)
}
