// Package failover keeps the robot talking when its models fail: per-profile
// and per-server circuit breakers, bounded retries within the turn's budget
// and fallback profiles (docs/architecture.md, failover).
package failover
