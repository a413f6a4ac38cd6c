package config

import "github.com/nadine-robot/nadine/otelexport"

// TelemetryConfig sets what `nadine serve` tells operations tools: the
// Prometheus metrics on the web server, the turn records of the Today view
// and `nadine report`, and OpenTelemetry traces (see docs/observability.md).
type TelemetryConfig struct {
	// Metrics serves /metrics (Prometheus text format) on http.addr, with
	// the API's access rules (true).
	Metrics bool `yaml:"metrics"`
	// Stats keeps one record per turn and per interaction, without text or
	// user id, in data_dir/stats.db, for the monitor's Today view and
	// `nadine report` (true).
	Stats bool `yaml:"stats"`
	// StatsDays is how many days of records are kept (400).
	StatsDays int `yaml:"stats_days"`
	// OTLPEndpoint is the OTLP/HTTP traces URL (".../v1/traces") each turn's
	// trace is exported to; none: off, unless OTEL_EXPORTER_OTLP_ENDPOINT
	// (or _TRACES_ENDPOINT) is set, which wins.
	OTLPEndpoint string `yaml:"otlp_endpoint"`
}

func defaultTelemetry() TelemetryConfig {
	return TelemetryConfig{Metrics: true, Stats: true, StatsDays: 400}
}

// validateTelemetry checks the telemetry block (the OTEL_* variables are
// checked when serve starts its exporter).
func (c *Config) validateTelemetry(bad func(field, format string, args ...any)) {
	if c.Telemetry.StatsDays < 0 {
		bad("telemetry.stats_days", "must be positive or 0 (the default), not %d", c.Telemetry.StatsDays)
	}
	if e := c.Telemetry.OTLPEndpoint; e != "" {
		if err := otelexport.CheckEndpoint(e); err != nil {
			bad("telemetry.otlp_endpoint", "%v", err)
		}
	}
}
