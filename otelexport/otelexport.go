// Package otelexport exports each finished turn's built-in trace as an
// OpenTelemetry trace over OTLP/HTTP. Spans are made from the trace once the
// turn is over, so the turn pays nothing for them; conversation text is
// exported only when Options.Content allows it.
// See docs/architecture.md#otelexport.
package otelexport

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"
)

// Scope is the instrumentation scope of the spans.
const Scope = "github.com/nadine-robot/nadine"

// Options configures an Exporter. Endpoint is required.
type Options struct {
	// Endpoint is the OTLP/HTTP traces URL (".../v1/traces").
	Endpoint string
	// Headers are sent with every request (an API key).
	Headers map[string]string
	// Timeout bounds one export request (10 s).
	Timeout time.Duration
	// Resource describes the process: service.name (nadine),
	// service.version, and any OTEL_RESOURCE_ATTRIBUTES.
	Resource []attribute.KeyValue
	// Content exports what people said and Nadine answered; off, spans carry
	// only ids, names, times, counts and error codes.
	Content bool
	// Batch is how long spans wait before they are sent (1 s); Queue how
	// many may wait (4096), beyond which spans are dropped and counted.
	Batch  time.Duration
	Queue  int
	Client *http.Client
	Logger *slog.Logger
}

// Exporter turns finished turns into spans and sends them in batches,
// off the turn's path.
type Exporter struct {
	opts     Options
	provider *sdktrace.TracerProvider
	tracer   trace.Tracer
	log      *slog.Logger
	failed   atomic.Uint64
}

// CheckEndpoint wants an http or https URL with a host.
func CheckEndpoint(endpoint string) error {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("otelexport: endpoint %q: an http or https URL is needed", endpoint)
	}
	return nil
}

// New starts an exporter; Close flushes and stops it.
func New(opts Options) (*Exporter, error) {
	if err := CheckEndpoint(opts.Endpoint); err != nil {
		return nil, err
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.Batch <= 0 {
		opts.Batch = time.Second
	}
	if opts.Queue <= 0 {
		opts.Queue = 4096
	}
	if opts.Client == nil {
		opts.Client = &http.Client{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	client := *opts.Client
	client.Timeout = opts.Timeout
	e := &Exporter{opts: opts, log: opts.Logger}
	exp := &countingExporter{SpanExporter: &httpExporter{url: opts.Endpoint, headers: opts.Headers, client: &client, retries: 1}, e: e}
	res := resource.NewWithAttributes(semconv.SchemaURL, append([]attribute.KeyValue{semconv.ServiceName("nadine")}, opts.Resource...)...)
	e.provider = sdktrace.NewTracerProvider(
		sdktrace.WithResource(res),
		sdktrace.WithSampler(sdktrace.AlwaysSample()),
		sdktrace.WithBatcher(exp, sdktrace.WithBatchTimeout(opts.Batch), sdktrace.WithMaxQueueSize(opts.Queue),
			sdktrace.WithExportTimeout(2*opts.Timeout)),
	)
	e.tracer = e.provider.Tracer(Scope)
	return e, nil
}

// countingExporter counts the spans of failed batches.
type countingExporter struct {
	sdktrace.SpanExporter
	e *Exporter
}

func (c *countingExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	err := c.SpanExporter.ExportSpans(ctx, spans)
	if err != nil {
		c.e.failed.Add(uint64(len(spans)))
		c.e.log.Warn("otelexport: spans not exported", "spans", len(spans), "err", err)
	}
	return err
}

// Failed returns how many spans could not be sent.
func (e *Exporter) Failed() uint64 { return e.failed.Load() }

// Flush sends what waits, until ctx is done.
func (e *Exporter) Flush(ctx context.Context) error { return e.provider.ForceFlush(ctx) }

// Close sends what waits (until ctx is done) and stops the exporter.
func (e *Exporter) Close(ctx context.Context) error {
	if err := e.provider.Shutdown(ctx); err != nil {
		return fmt.Errorf("otelexport: shutdown: %w", err)
	}
	return nil
}

// FromEnv follows the standard OTEL_ variables over the endpoint config key;
// tracing is off without an endpoint or when disabled (docs/architecture.md#otelexport).
func FromEnv(getenv func(string) string, endpoint string) (opts Options, ok bool, err error) {
	if strings.EqualFold(getenv("OTEL_SDK_DISABLED"), "true") || strings.EqualFold(getenv("OTEL_TRACES_EXPORTER"), "none") {
		return Options{}, false, nil
	}
	switch {
	case getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "":
		opts.Endpoint = getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
	case getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "":
		opts.Endpoint = strings.TrimRight(getenv("OTEL_EXPORTER_OTLP_ENDPOINT"), "/") + "/v1/traces"
	default:
		opts.Endpoint = endpoint
	}
	if opts.Endpoint == "" {
		return Options{}, false, nil
	}
	proto := first(getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"), getenv("OTEL_EXPORTER_OTLP_PROTOCOL"))
	if proto != "" && proto != "http/protobuf" {
		return Options{}, false, fmt.Errorf("otelexport: OTEL_EXPORTER_OTLP_PROTOCOL %q: only http/protobuf is supported", proto)
	}
	if opts.Headers, err = pairs(first(getenv("OTEL_EXPORTER_OTLP_TRACES_HEADERS"), getenv("OTEL_EXPORTER_OTLP_HEADERS"))); err != nil {
		return Options{}, false, fmt.Errorf("otelexport: OTEL_EXPORTER_OTLP_HEADERS: %w", err)
	}
	if ms := first(getenv("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT"), getenv("OTEL_EXPORTER_OTLP_TIMEOUT")); ms != "" {
		d, perr := time.ParseDuration(ms + "ms")
		if perr != nil || d <= 0 {
			return Options{}, false, fmt.Errorf("otelexport: OTEL_EXPORTER_OTLP_TIMEOUT %q: milliseconds expected", ms)
		}
		opts.Timeout = d
	}
	res, err := pairs(getenv("OTEL_RESOURCE_ATTRIBUTES"))
	if err != nil {
		return Options{}, false, fmt.Errorf("otelexport: OTEL_RESOURCE_ATTRIBUTES: %w", err)
	}
	if n := getenv("OTEL_SERVICE_NAME"); n != "" {
		res[string(semconv.ServiceNameKey)] = n
	}
	for k, v := range res {
		opts.Resource = append(opts.Resource, attribute.String(k, v))
	}
	return opts, true, nil
}

// pairs reads "k1=v1,k2=v2" with URL-encoded values (the OTel format of
// headers and resource attributes).
func pairs(s string) (map[string]string, error) {
	out := map[string]string{}
	for _, kv := range strings.Split(s, ",") {
		if strings.TrimSpace(kv) == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("%q is not key=value", kv)
		}
		dv, err := url.QueryUnescape(strings.TrimSpace(v))
		if err != nil {
			return nil, fmt.Errorf("%q: %w", kv, err)
		}
		out[strings.TrimSpace(k)] = dv
	}
	return out, nil
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
