// Package failover keeps the robot talking when its models fail. It sits
// below the engines: a Pool holds one circuit Breaker per model profile, and
// the chat models and embedders it hands out (Pool.Chat, Pool.Embedder) are
// nadine.ChatModel and nadine.Embedder values that the engines use as they
// would use the profile's client directly.
//
// Each call of a role goes through its chain of profiles (the role's
// profile, then the configured fallback profiles), with the one state of the
// engine that asked:
//
//   - every attempt is bounded by the role's Timeouts: Attempt for a whole
//     answer, and FirstToken for the first piece of a streamed answer, so a
//     two-token classifier never holds the turn for a minute;
//   - a failed attempt (HTTP 5xx, 429, a reset connection) is retried on
//     the same profile with a jittered backoff, or the server's
//     Retry-After, only while the caller's deadline (the turn's budget)
//     leaves room for the wait and another attempt; a refused connection
//     (nothing listens) and an attempt that timed out are not retried there,
//     except a streamed attempt cut at its first-token deadline;
//   - a call that still failed counts against the profile's breaker: after
//     BreakerConfig.Failures consecutive failed calls the profile is skipped
//     (calls fail at once with EUNAVAILABLE) while a background probe asks
//     it a tiny question every Cooldown, and it is used again as soon as a
//     probe or a call succeeds;
//   - every attempt counts for the profile's server (Profile.Server): after
//     BreakerConfig.ServerFailures failed attempts in a row on its
//     profiles, every profile of the server is skipped and probed the same
//     way, so a server failing everything (a proxy answering 500 for a
//     dead model) is skipped within a turn or two, whatever the number of
//     roles on it, while random failures are almost never so many in a
//     row;
//   - when a profile fails or is skipped, the next profile of the chain is
//     asked; once a streamed answer has delivered text nothing is retried.
//
// This is the pattern of LiveKit Agents' FallbackAdapter. Every attempt
// reaches the profile's client, which records it in the turn's trace as a
// model call; what the failover layer decides (a cut attempt, a retry, a
// skipped profile, a move to the next profile) is recorded as a step named
// "failover:<role>". Errors keep the nadine codes (EUNAVAILABLE,
// ERATELIMIT, EBADOUTPUT, EINVALID) of the last failure. Time comes from
// an injected Clock, so tests drive the breaker without waiting.
package failover
