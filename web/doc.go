// Package web is Nadine's monitor: a small web page and the JSON HTTP API
// behind it, served by `nadine serve` (http://127.0.0.1:8080 by default).
//
// The page, embedded in the binary with no build step and nothing fetched
// from elsewhere, lets an operator type an utterance as a user (a name and
// a facial emotion), see Nadine's reply with her emotion and gestures,
// switch the session language (with English translations of input and
// reply when it is not English), see who is in front of the robot and how
// Nadine feels (a PAD mood plot), open each turn's trace as a timeline of
// steps and model calls, and browse or erase a user's memories. Turns heard
// on the robot bus appear live: the page reads /api/events, a Server-Sent
// Events stream of every robot.Update.
//
// # API
//
// Every response is JSON; errors are {"error": "...", "code": "invalid"}
// with the status of the nadine error code (invalid 400, not_found 404,
// rate_limited 429, unavailable 503, anything else 500).
//
//	GET    /api/health                 liveness, never needs the token: {"status":"ok"}
//	GET    /api/ready                  store reachable, bus connected: 200 or 503
//	GET    /api/info                   engine, models (model and host only), version
//	POST   /api/turns                  {"text","user_name","user_id","user_emotion","language"}
//	POST   /api/turns?stream=1         the same, answered as Server-Sent Events
//	GET    /api/session                who is there, emotion, language, mood
//	POST   /api/session/end            the user left: store the conversation
//	GET    /api/language               the session language and the supported ones
//	PUT    /api/language               {"language":"fr"}
//	GET    /api/users                  known users
//	GET    /api/users/{id}             a user's profile and memories
//	DELETE /api/users/{id}/memories    erase a user's memories, keep the profile
//	DELETE /api/users/{id}             forget a user entirely
//	GET    /api/events                 Server-Sent Events: every robot.Update
//	GET    /api/robots                 the robots of the process, each with its session
//	GET    /api/robots/{robot}         one robot
//
// A process may serve several robots (`robots:` in the configuration).
// The robot-level URLs (turns, session, session/end, language, events)
// act on the first robot, and on any robot under /api/robots/{robot}/:
// GET /api/robots/lobby/session, POST /api/robots/lobby/turns (a "/" in
// a robot's name is written %2F). The page shows a robot picker when there
// are several. People, profiles and memories are the fleet's, shared by
// every robot: /api/users has no robot.
//
// A turn names its user by user_id, or by user_name: a name is matched
// case-insensitively against the known users (or taken as an id) and a new
// profile is created when nobody has it, as `nadine chat --user` does.
// Without either, the turn is the current session user's.
//
// # Security
//
// The server binds to 127.0.0.1 by default. Bound to any address that is not
// loopback it refuses to start without a token. With a token, every /api
// request but /api/health needs "Authorization: Bearer <token>" (compared in
// constant time); the page asks for it once and keeps it in the tab's
// sessionStorage. Event streams are read with fetch, which can send the
// header, so the token never appears in a URL. Requests that change state
// must be JSON (Content-Type: application/json; DELETE carries no body) and
// are refused when the browser says they come from another origin
// (Sec-Fetch-Site, Origin). While bound to loopback, requests whose Host is
// not a loopback name or address are refused, which defeats DNS rebinding.
// Responses carry a strict Content-Security-Policy (no inline script), and
// nothing the server returns or logs holds a secret.
package web
