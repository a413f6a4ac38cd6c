// Package mqtt is nadine's robot bus: the topic contract between nadine and
// the perception, speech-to-text and control processes of the robot, an MQTT
// 5 client (Bus, over eclipse/paho.golang's autopaho) and an embedded broker
// (Broker, over mochi-mqtt) for machines that have none.
//
// docs/asyncapi.yaml is the machine-readable contract (AsyncAPI 3.0); a test
// keeps it in step with the topic constants of this package.
//
// # Topics
//
// Every topic starts with a prefix, "nadine" by default
// (Options.Prefix), so that several robots can share one broker.
//
// Inbound (nadine subscribes, QoS 1), delivered in arrival order on
// Bus.Inbound as typed, validated Inbound values:
//
//	<prefix>/stt/transcript             {"text","language","final","id"} or plain text
//	<prefix>/user/name                  plain text, or {"user_name","user_id"}
//	<prefix>/user/emotion               plain text, or {"emotion"}; lowercased
//	<prefix>/graph/user_detected        {"user_name","user_id","confidence"}
//	<prefix>/graph/face_stored          {"user_name","user_id","status"}
//	<prefix>/user/left                  {"user_id"}, a plain-text id, or empty
//	<prefix>/agent/feedback/start_speak any payload
//	<prefix>/agent/feedback/end_speak   any payload
//	<prefix>/agent/control/language     {"language"} or plain text (optional)
//
// Outbound (nadine publishes, QoS 1, not retained unless said):
//
//	<prefix>/agent/control/speak        {"text","language","locale","seq","final","turn_id"}
//	<prefix>/agent/control/speak/text   the sentence as plain text, locale in a user property
//	<prefix>/agent/control/animation    the animation name as plain text (smile, wave, anger)
//	<prefix>/agent/control/song         {"title","language","path"}
//	<prefix>/affect/state               {"label","intensity","arousal","pleasure","dominance","mood_arousal","mood_label"}
//	<prefix>/face_recognition/user_info {"user_id","user_name"}
//	<prefix>/perception/capture_current_view  the image path as plain text
//	<prefix>/stt/language               {"language","locale"}, retained
//
// JSON payloads carry the MQTT 5 content type "application/json" and
// plain-text ones "text/plain; charset=utf-8"; both set the UTF-8 payload
// format indicator. Peers need not read these properties.
//
// # Reading inbound payloads
//
// Nadine is generous with its peers but never crashes on them. A payload
// whose first non-space byte is "{" is parsed as a JSON object; on the
// topics that accept plain text, anything else is plain text (a JSON string
// literal such as "\"Alice\"" is unquoted). Unknown JSON fields are ignored.
//
// Transcripts: only final transcripts become turns. "final": false is
// ignored (logged at debug); a missing "final" means true, so that a
// speech-to-text that only ever sends final results need not say so. A
// plain-text payload is a final transcript in the session language. An
// empty "language" means the session language; an unsupported one ("es") is
// logged and the transcript is delivered in the session language rather
// than ignored. "id" may be a string or an integer.
//
// User names: a plain name is also the user id unless "user_id" is
// given. user_detected and face_stored need a user_id or a user_name (the id
// then defaults to the name); a missing confidence means 1, a confidence
// outside 0..1 is malformed. user_left without an id means whoever is in
// front of the robot left. The feedback topics' payload is not read.
//
// A malformed message (payload over Options.MaxPayload, invalid UTF-8, bad
// JSON, a field of the wrong type, empty text or name, an unsupported
// language on agent/control/language) is dropped and logged at warn with
// its topic, the reason and its size in bytes; the payload itself is never
// logged. Other messages and topics are unaffected.
//
// # Delivery
//
// Commands and transcripts use QoS 1. The Bus keeps a persistent session
// (Clean Start false after the first connection, Options.SessionExpiry, 10
// minutes by default), so QoS 1 messages published while nadine was briefly
// disconnected are delivered when it reconnects; give the Bus a stable
// Options.ClientID for this to also hold across restarts of nadine. autopaho
// reconnects with a doubling backoff (Options.ReconnectMin to ReconnectMax);
// the Bus subscribes again after every reconnection, because a broker that
// restarted has lost the session. Connected reports whether the connection
// and the subscriptions are in place.
//
// Outbound methods wait for the broker's acknowledgment. When the
// connection is down they wait for it to come back, up to the context and
// Options.PublishTimeout, and then fail with an EUNAVAILABLE error. The Bus
// never retries a publication by itself; only paho's session retransmits an
// unacknowledged QoS 1 message after a reconnection, as MQTT requires, so a
// consumer may rarely see a command twice (with the DUP flag).
//
// # Acknowledgment and backpressure
//
// paho calls the Bus's handler on its receive goroutine, one message at a
// time; the handler parses the message and hands it to one pump goroutine,
// which takes what has arrived as a batch. With Options.Persist (the robot's
// inbox) the batch's transcripts are kept in one call before anything else;
// then the batch is delivered on the Inbound channel in arrival order and
// acknowledged (manual acknowledgment: paho sends the PUBACKs in the order
// the messages came). So a transcript is acknowledged only once it is kept,
// and while the inbox cannot be written nothing is acknowledged: the broker
// keeps the messages and resends them after a reconnection.
//
// The channel holds Options.InboundBuffer messages (256). When it is full a
// message waits up to Options.InboundTimeout (5 s) and is then dropped with
// an error log, so that a stuck consumer cannot stall the connection
// forever; a transcript already kept waits instead (it is in the inbox, but
// the runtime would not hear it before a restart). While pump waits,
// unacknowledged messages make the broker slow down: the CONNECT packet's
// receive maximum is InboundBuffer (at least 256).
//
// # Deduplication
//
// A transcript must never be answered twice, but QoS 1 may deliver one
// again (with the DUP flag) after a reconnection. The rule (and, with
// Options.Persist, an id already in the inbox is dropped too, across
// restarts):
//
//   - a transcript with an id is dropped when a transcript with the same id
//     was already delivered (the last Options.DedupSize ids are
//     remembered), whatever its DUP flag: ids must be unique, for example
//     UUIDs or a counter prefixed with the STT's start time;
//   - a transcript without id is dropped only when its DUP flag is set and
//     the same text in the same language was delivered within
//     Options.DedupWindow (2 minutes). Without the DUP flag, the same words
//     said twice are two turns.
//
// # Speech payload
//
// Each sentence is published twice: as JSON on agent/control/speak, which
// carries everything text-to-speech and the monitor need (the locale such as
// "fr-FR" so that TTS speaks the language explicitly, the sentence's
// position, whether it ends the turn, the turn id), and as the bare
// sentence on agent/control/speak/text, with the locale, language, seq,
// final and turn_id in MQTT 5 user properties, for a TTS that only takes
// plain text. A consumer subscribes to one of the two. An empty final
// sentence marks the end of a turn on the JSON topic only. A sentence the
// broker acknowledged (same turn_id and seq, per topic) is never published
// again, so consumers may deduplicate by turn_id + seq.
//
// # Embedded broker
//
// StartBroker runs mochi-mqtt on a TCP address (127.0.0.1:1883 by
// default). Without users it allows every client (no authentication, no
// ACL), and then listens on the loopback interface only: it is meant for
// the processes of one robot. Beyond loopback it needs users
// (BrokerOptions.Users); use TLS, or a real broker (Mosquitto), for
// anything crossing a network.
//
// Nobody waits on someone else's bad client: every limit has a default
// (BrokerOptions). A packet larger than MaxPacketSize is refused from its
// header; retained messages are bounded in number and bytes; each client
// has a bounded queue of packets to write, and is disconnected when it is
// full or when a write makes no progress for WriteTimeout (1 s); a
// publisher never waits on a subscriber's write. docs/bus-limits.md gives
// the reasons and the measured figures.
//
// The broker is mochi-mqtt v2.7.9 with a patch carried in
// third_party/mochi-server (see its README): v2.7.9 deadlocked, reordered
// and lost messages once a client's receive quota was used up under a
// burst, and made every publisher wait on a subscriber that stopped
// reading.
package mqtt
