// Package config is nadine's configuration: one YAML file whose every field
// a NADINE_* variable can override, its defaults (the owning packages'), the
// rules that refuse a bad value naming its field, and the pre-flight that
// `nadine serve` and `nadine config` share. It opens, binds and starts
// nothing; the commands do. See docs/architecture.md#config.
package config
