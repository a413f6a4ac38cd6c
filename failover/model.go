package failover

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"time"

	"github.com/nadine-robot/nadine"
)

// chatModel is the chat model of one role: its chain of profiles.
type chatModel struct {
	pool  *Pool
	role  string
	t     Timeouts
	chain []*profile
}

var _ nadine.ChatModel = (*chatModel)(nil)

// Chat asks the chain's profiles in order until one answers.
func (m *chatModel) Chat(ctx context.Context, req nadine.ChatRequest) (nadine.ChatResponse, error) {
	return m.run(ctx, req, false, nil)
}

// ChatStream asks the chain's profiles in order. Once a piece reached
// onDelta a failure is returned as is: what was said cannot be taken back.
func (m *chatModel) ChatStream(ctx context.Context, req nadine.ChatRequest, onDelta func(string)) (nadine.ChatResponse, error) {
	if onDelta == nil {
		onDelta = func(string) {}
	}
	return m.run(ctx, req, true, onDelta)
}

func (m *chatModel) run(ctx context.Context, req nadine.ChatRequest, stream bool, onDelta func(string)) (nadine.ChatResponse, error) {
	var errs []error
	for i, pr := range m.chain {
		var resp nadine.ChatResponse
		delivered, err := m.pool.call(ctx, m.role, m.t, pr, stream, func(ctx context.Context, first func()) error {
			var err error
			if stream {
				resp, err = pr.Chat.ChatStream(ctx, req, func(d string) {
					first()
					onDelta(d)
				})
			} else {
				resp, err = pr.Chat.Chat(ctx, req)
			}
			return err
		})
		if err == nil {
			return resp, nil
		}
		errs = append(errs, err)
		if delivered || ctx.Err() != nil || i == len(m.chain)-1 {
			return resp, chainError(m.role, errs)
		}
		next := m.chain[i+1]
		m.pool.step(ctx, m.role, m.pool.clock.Now(), nil, "profile %s failed (%s); asking profile %s",
			pr.Name, nadine.ErrorCode(err), next.Name)
	}
	return nadine.ChatResponse{}, chainError(m.role, errs) // an empty chain is never built
}

// chainError is the error of a call that no profile answered: the one
// error, or all of them with the code of the last.
func chainError(role string, errs []error) error {
	switch len(errs) {
	case 0:
		return nadine.Errorf(nadine.EUNAVAILABLE, "failover: %s: no profile", role)
	case 1:
		return errs[0]
	}
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	last := errs[len(errs)-1]
	return &nadine.Error{Code: nadine.ErrorCode(last), Err: last,
		Message: "failover: " + role + ": every profile failed: " + strings.Join(msgs, "; ")}
}

// embedder is a profile's embedder guarded by its breaker.
type embedder struct {
	pool *Pool
	role string
	t    Timeouts
	pr   *profile
}

var _ nadine.Embedder = (*embedder)(nil)

// Name is the wrapped embedder's vector space.
func (e *embedder) Name() string { return e.pr.Embedder.Name() }

// Embed bounds each text by the attempt timeout, since a query embedding is
// on the reply's path; a batch gets it once per text.
func (e *embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	var out [][]float32
	t := e.t
	t.Attempt = e.t.limit() * time.Duration(max(len(texts), 1))
	_, err := e.pool.call(ctx, e.role, t, e.pr, false, func(ctx context.Context, _ func()) error {
		var err error
		out, err = e.pr.Embedder.Embed(ctx, texts)
		return err
	})
	return out, err
}

// noRetry says why a failed attempt is not retried on its profile, or "": a
// refused connection or a timeout is not, except a stream cut at first token.
func noRetry(err error) string {
	var cr *cutRetry
	switch {
	case errors.As(err, &cr):
		return ""
	case errors.Is(err, syscall.ECONNREFUSED):
		return "the connection was refused"
	case errors.Is(err, context.DeadlineExceeded):
		return "it timed out"
	}
	switch nadine.ErrorCode(err) {
	case nadine.EUNAVAILABLE, nadine.ERATELIMIT:
		return ""
	case nadine.EBADOUTPUT:
		return "the answer was unusable"
	case nadine.EINVALID:
		return "the request was refused"
	}
	return "an internal error"
}
