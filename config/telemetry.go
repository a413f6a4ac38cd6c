package config

import "github.com/nadine-robot/nadine/otelexport"

// TelemetryConfig sets what serve tells operations tools: metrics, turn
// records and traces (docs/observability.md).
type TelemetryConfig struct {
	// Metrics serves /metrics (Prometheus text format) on http.addr, with
	// the API's access rules (true).
	Metrics bool `yaml:"metrics"`
	// Stats keeps a record per turn and interaction, without text or user id,
	// for the Today view and `nadine report` (true).
	Stats bool `yaml:"stats"`
	// StatsDays is how many days of records are kept (400).
	StatsDays int `yaml:"stats_days"`
	// OTLPEndpoint is the OTLP/HTTP traces URL (".../v1/traces"); the OTEL_
	// endpoint variables win over it.
	OTLPEndpoint string `yaml:"otlp_endpoint"`
}

func defaultTelemetry() TelemetryConfig {
	return TelemetryConfig{Metrics: true, Stats: true, StatsDays: 400}
}

// validateTelemetry: OTEL_* variables are checked when serve starts exporting.
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
