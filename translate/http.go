package translate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/redact"
)

// DefaultHTTPTimeout bounds one HTTP translation when HTTPClient is nil.
const DefaultHTTPTimeout = 15 * time.Second

// maxResponse bounds the response body read from the service.
const maxResponse = 1 << 20

// HTTP is safe for concurrent use; only BaseURL is required. The API key never
// appears in errors, logs or traces.
type HTTP struct {
	// BaseURL is the service's root, such as "http://localhost:5000".
	BaseURL string
	// APIKey is sent as api_key when set. It never appears in errors, logs
	// or traces.
	APIKey string
	// HTTPClient sends the requests; nil means a client with
	// DefaultHTTPTimeout.
	HTTPClient *http.Client
	// Codes overrides a language's code for services that differ (some call
	// Chinese "zh-Hans").
	Codes map[nadine.Language]string
	// Logger receives one debug line per call; nil discards.
	Logger *slog.Logger
	// Now timestamps the trace record; nil means time.Now.
	Now func() time.Time
}

var _ nadine.Translator = (*HTTP)(nil)

// libreRequest is the body of POST /translate.
type libreRequest struct {
	Q      string `json:"q"`
	Source string `json:"source"`
	Target string `json:"target"`
	Format string `json:"format"`
	APIKey string `json:"api_key,omitempty"`
}

// libreResponse is the body of a /translate answer.
type libreResponse struct {
	TranslatedText   *string `json:"translatedText"`
	DetectedLanguage *struct {
		Language   string  `json:"language"`
		Confidence float64 `json:"confidence"`
	} `json:"detectedLanguage"`
	Error string `json:"error"`
}

// Translate records the call as a tool call "translate", which carries the
// request and error as a Step could not; from == to makes no call.
func (h *HTTP) Translate(ctx context.Context, text string, from, to nadine.Language) (out string, err error) {
	if h == nil || h.BaseURL == "" {
		return "", nadine.Errorf(nadine.EINVALID, "translate: no translation service URL configured")
	}
	if err := checkLanguages(from, to); err != nil {
		return "", err
	}
	if strings.TrimSpace(text) == "" || from == to {
		return text, nil
	}
	body := libreRequest{Q: text, Source: "auto", Target: h.code(to), Format: "text"}
	if from != "" {
		body.Source = h.code(from)
	}
	traced, _ := json.Marshal(body) // before the key is set: for the trace
	body.APIKey = h.APIKey

	now := h.Now
	if now == nil {
		now = time.Now
	}
	start := now()
	var status int
	defer func() {
		rec := nadine.ToolCallRecord{Tool: "translate", Input: string(traced), Output: out, Start: start, Duration: now().Sub(start),
			Step: nadine.StepOf(ctx).ID}
		if err != nil {
			rec.Error = err.Error()
		}
		nadine.TraceFrom(ctx).AddToolCall(rec)
		logger(h.Logger).DebugContext(ctx, "translate: http", "source", body.Source, "target", body.Target,
			"status", status, "duration", rec.Duration, "error", rec.Error)
	}()

	out, status, err = h.do(ctx, body)
	return out, err
}

func (h *HTTP) do(ctx context.Context, body libreRequest) (string, int, error) {
	payload, err := json.Marshal(body)
	if err != nil {
		return "", 0, fmt.Errorf("translate: encode request: %w", err)
	}
	url := strings.TrimSuffix(h.BaseURL, "/") + "/translate"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(payload))
	if err != nil {
		return "", 0, nadine.Errorf(nadine.EINVALID, "translate: bad service URL: %s", h.redact(err.Error()))
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	client := h.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: DefaultHTTPTimeout}
	}
	resp, err := client.Do(req)
	if err != nil {
		cause := ctx.Err()
		if cause == nil {
			cause = errors.New(h.redact(err.Error()))
		}
		return "", 0, &nadine.Error{Code: nadine.EUNAVAILABLE, Message: "translate: service unreachable: " + h.redact(err.Error()), Err: cause}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return "", resp.StatusCode, nadine.Errorf(nadine.EUNAVAILABLE, "translate: read response (HTTP %d): %s", resp.StatusCode, h.redact(err.Error()))
	}
	var r libreResponse
	decodeErr := json.Unmarshal(raw, &r)
	if resp.StatusCode != http.StatusOK {
		msg := r.Error
		if decodeErr != nil || msg == "" {
			msg = strings.TrimSpace(string(raw))
		}
		msg = nadine.Shorten(h.redact(msg), 200)
		return "", resp.StatusCode, nadine.Errorf(nadine.HTTPStatusCode(resp.StatusCode), "translate: service answered HTTP %d: %s", resp.StatusCode, msg)
	}
	if decodeErr != nil {
		return "", resp.StatusCode, nadine.Errorf(nadine.EBADOUTPUT, "translate: decode response: %s", h.redact(decodeErr.Error()))
	}
	if r.TranslatedText == nil || strings.TrimSpace(*r.TranslatedText) == "" {
		return "", resp.StatusCode, nadine.Errorf(nadine.EBADOUTPUT, "translate: service returned no translatedText")
	}
	return strings.TrimSpace(*r.TranslatedText), resp.StatusCode, nil
}

// code returns the service's code for l.
func (h *HTTP) code(l nadine.Language) string {
	if c, ok := h.Codes[l]; ok && c != "" {
		return c
	}
	return string(l)
}

// redact removes the API key, and anything like a key, from s.
func (h *HTTP) redact(s string) string { return redact.Secrets(s, h.APIKey) }
