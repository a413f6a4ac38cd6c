// Package mqtt is nadine's robot bus: an MQTT 5 client (Bus) speaking the
// topic contract of docs/mqtt.md, and an embedded broker (Broker) for
// machines that have none. Delivery, deduplication and backpressure are in
// docs/architecture.md (mqtt).
package mqtt
