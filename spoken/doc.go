// Package spoken turns what a model wrote into the plain sentences the
// robot says, and refuses text that is no reply (JSON, markup, code, an
// echo of the prompt), whole or streamed.
package spoken
