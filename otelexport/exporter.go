package otelexport

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// httpExporter writes TracesData, the same wire message as the endpoint's
// request, to avoid linking otlptracehttp's gRPC code (2.3 MB).
type httpExporter struct {
	url     string
	headers map[string]string
	client  *http.Client
	retries int
}

var _ sdktrace.SpanExporter = (*httpExporter)(nil)

// ExportSpans retries a 429, 5xx or failed connection once, after Retry-After
// (at most 5 s) or 1 s.
func (e *httpExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	if len(spans) == 0 {
		return nil
	}
	body, err := proto.Marshal(encode(spans))
	if err != nil {
		return fmt.Errorf("otelexport: encode %d spans: %w", len(spans), err)
	}
	for attempt := 0; ; attempt++ {
		wait, err := e.post(ctx, body)
		if err == nil {
			return nil
		}
		if wait < 0 || attempt >= e.retries {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("otelexport: %w (then %w)", err, ctx.Err())
		case <-time.After(wait):
		}
	}
}

// post sends the body once; wait >= 0 says the error is worth a retry
// after wait.
func (e *httpExporter) post(ctx context.Context, body []byte) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.url, bytes.NewReader(body))
	if err != nil {
		return -1, fmt.Errorf("otelexport: request: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	req.Header.Set("User-Agent", "nadine-otlp")
	for k, v := range e.headers {
		req.Header.Set(k, v)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return time.Second, fmt.Errorf("otelexport: post %s: %w", e.url, err)
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode/100 == 2 {
		return 0, nil
	}
	err = fmt.Errorf("otelexport: post %s: %s: %q", e.url, resp.Status, msg)
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
		wait := time.Second
		if s, perr := strconv.Atoi(resp.Header.Get("Retry-After")); perr == nil && s >= 0 {
			wait = min(time.Duration(s)*time.Second, 5*time.Second)
		}
		return wait, err
	}
	return -1, err
}

// Shutdown has nothing to release: the client's connections are the caller's.
func (e *httpExporter) Shutdown(context.Context) error { return nil }

// encode groups spans by resource and scope into a TracesData message.
func encode(spans []sdktrace.ReadOnlySpan) *tracepb.TracesData {
	out := &tracepb.TracesData{}
	type key struct {
		res   attribute.Distinct
		scope string
	}
	rs := map[attribute.Distinct]*tracepb.ResourceSpans{}
	ss := map[key]*tracepb.ScopeSpans{}
	for _, s := range spans {
		res := s.Resource()
		rk := res.Equivalent()
		r, ok := rs[rk]
		if !ok {
			r = &tracepb.ResourceSpans{Resource: &resourcepb.Resource{Attributes: attrs(res.Attributes())}, SchemaUrl: res.SchemaURL()}
			rs[rk] = r
			out.ResourceSpans = append(out.ResourceSpans, r)
		}
		sc := s.InstrumentationScope()
		sk := key{rk, sc.Name + "\x00" + sc.Version}
		g, ok := ss[sk]
		if !ok {
			g = &tracepb.ScopeSpans{Scope: &commonpb.InstrumentationScope{Name: sc.Name, Version: sc.Version}, SchemaUrl: sc.SchemaURL}
			ss[sk] = g
			r.ScopeSpans = append(r.ScopeSpans, g)
		}
		g.Spans = append(g.Spans, span(s))
	}
	return out
}

func span(s sdktrace.ReadOnlySpan) *tracepb.Span {
	sc := s.SpanContext()
	tid, sid := sc.TraceID(), sc.SpanID()
	p := &tracepb.Span{
		TraceId: tid[:], SpanId: sid[:], Name: s.Name(), Kind: kind(s.SpanKind()),
		StartTimeUnixNano: uint64(s.StartTime().UnixNano()), EndTimeUnixNano: uint64(s.EndTime().UnixNano()),
		Attributes: attrs(s.Attributes()), DroppedAttributesCount: uint32(s.DroppedAttributes()),
		Flags: uint32(sc.TraceFlags()) | 0x100, // the parent's remoteness is known (not remote)
	}
	if parent := s.Parent(); parent.IsValid() {
		psid := parent.SpanID()
		p.ParentSpanId = psid[:]
	}
	for _, ev := range s.Events() {
		p.Events = append(p.Events, &tracepb.Span_Event{Name: ev.Name, TimeUnixNano: uint64(ev.Time.UnixNano()), Attributes: attrs(ev.Attributes)})
	}
	switch st := s.Status(); st.Code {
	case codes.Error:
		p.Status = &tracepb.Status{Code: tracepb.Status_STATUS_CODE_ERROR, Message: st.Description}
	case codes.Ok:
		p.Status = &tracepb.Status{Code: tracepb.Status_STATUS_CODE_OK}
	}
	return p
}

func kind(k trace.SpanKind) tracepb.Span_SpanKind {
	switch k {
	case trace.SpanKindServer:
		return tracepb.Span_SPAN_KIND_SERVER
	case trace.SpanKindClient:
		return tracepb.Span_SPAN_KIND_CLIENT
	case trace.SpanKindProducer:
		return tracepb.Span_SPAN_KIND_PRODUCER
	case trace.SpanKindConsumer:
		return tracepb.Span_SPAN_KIND_CONSUMER
	case trace.SpanKindInternal:
		return tracepb.Span_SPAN_KIND_INTERNAL
	}
	return tracepb.Span_SPAN_KIND_UNSPECIFIED
}

func attrs(kvs []attribute.KeyValue) []*commonpb.KeyValue {
	out := make([]*commonpb.KeyValue, 0, len(kvs))
	for _, kv := range kvs {
		out = append(out, &commonpb.KeyValue{Key: string(kv.Key), Value: value(kv.Value)})
	}
	return out
}

func value(v attribute.Value) *commonpb.AnyValue {
	switch v.Type() {
	case attribute.BOOL:
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_BoolValue{BoolValue: v.AsBool()}}
	case attribute.INT64:
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_IntValue{IntValue: v.AsInt64()}}
	case attribute.FLOAT64:
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_DoubleValue{DoubleValue: v.AsFloat64()}}
	case attribute.STRINGSLICE:
		var vs []*commonpb.AnyValue
		for _, s := range v.AsStringSlice() {
			vs = append(vs, &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: s}})
		}
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_ArrayValue{ArrayValue: &commonpb.ArrayValue{Values: vs}}}
	}
	return &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: v.String()}}
}
