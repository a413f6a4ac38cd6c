// Package robot is the runtime of `nadine serve`, between the robot bus and
// the dialogue manager: turns one at a time in the order heard, durable
// transcripts, and every goroutine ended before Run returns
// (docs/architecture.md, robot).
package robot
