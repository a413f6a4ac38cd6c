package graph

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nadine-robot/nadine"
)

// ErrInterrupted matches (with errors.Is) the *InterruptError of an
// interrupted run.
var ErrInterrupted = errors.New("graph: interrupted")

// InterruptError reports that a run stopped at a node's request. Nodes make
// one with Interrupt or InterruptAfter; the runner fills in the rest.
type InterruptError struct {
	Reason string // why the node stopped ("confirm the user's name")
	// After is false when Resume runs the interrupting node again (with
	// the updated state) and true when it continues with the node's
	// successor.
	After bool
	Node  string // the node that interrupted
	Key   string // the checkpoint's key
	Saved bool   // whether the checkpoint was saved
}

// Error implements error.
func (e *InterruptError) Error() string {
	msg := fmt.Sprintf("graph: interrupted at node %q", e.Node)
	if e.Reason != "" {
		msg += ": " + e.Reason
	}
	if !e.Saved {
		msg += " (no checkpoint saved)"
	}
	return msg
}

// Is reports whether target is ErrInterrupted.
func (e *InterruptError) Is(target error) bool { return target == ErrInterrupted }

// Interrupt stops the run to wait for input: the node's returned state is
// saved and Resume runs the same node again on it.
func Interrupt(reason string) error { return &InterruptError{Reason: reason} }

// InterruptAfter is like Interrupt, but the node is done: Resume continues
// with the node's successor (its router decides on the updated state).
func InterruptAfter(reason string) error { return &InterruptError{Reason: reason, After: true} }

// Checkpointer persists checkpoints across turns and restarts; a missing key
// must give nadine.ENOTFOUND.
type Checkpointer interface {
	SaveCheckpoint(ctx context.Context, key string, data []byte) error
	LoadCheckpoint(ctx context.Context, key string) ([]byte, error)
	DeleteCheckpoint(ctx context.Context, key string) error
}

var _ Checkpointer = nadine.CheckpointStore(nil)

// CheckpointVersion is the version of the checkpoint encoding.
const CheckpointVersion = 1

// Checkpoint is a saved interrupted run, stored as JSON.
type Checkpoint[S any] struct {
	Version int       `json:"version"`
	Node    string    `json:"node"`            // the node that interrupted
	After   bool      `json:"after,omitempty"` // resume after Node, not at it
	Reason  string    `json:"reason,omitempty"`
	Time    time.Time `json:"time"` // when the run stopped
	State   S         `json:"state"`
}

// interrupt saves the checkpoint of an interrupted run and returns ie.
func (r *Runnable[S]) interrupt(ctx context.Context, key string, ie *InterruptError, s S) (S, error) {
	ie.Key = key
	if key == "" || r.opts.Checkpoints == nil {
		return s, ie
	}
	cp := Checkpoint[S]{
		Version: CheckpointVersion,
		Node:    ie.Node,
		After:   ie.After,
		Reason:  ie.Reason,
		Time:    r.opts.Now().UTC(),
		State:   s,
	}
	data, err := json.Marshal(cp)
	if err != nil {
		return s, fmt.Errorf("graph: encode checkpoint of node %q: %w", ie.Node, err)
	}
	if err := r.opts.Checkpoints.SaveCheckpoint(ctx, key, data); err != nil {
		return s, fmt.Errorf("graph: save checkpoint %q: %w", key, err)
	}
	ie.Saved = true
	return s, ie
}

// Pending returns the checkpoint saved under key, and whether there is one.
func (r *Runnable[S]) Pending(ctx context.Context, key string) (Checkpoint[S], bool, error) {
	var cp Checkpoint[S]
	if r.opts.Checkpoints == nil {
		return cp, false, nil
	}
	data, err := r.opts.Checkpoints.LoadCheckpoint(ctx, key)
	if nadine.ErrorCode(err) == nadine.ENOTFOUND {
		return cp, false, nil
	}
	if err != nil {
		return cp, false, fmt.Errorf("graph: load checkpoint %q: %w", key, err)
	}
	if err := json.Unmarshal(data, &cp); err != nil {
		return cp, false, nadine.Errorf(nadine.EINVALID, "graph: decode checkpoint %q: %w", key, err)
	}
	if cp.Version != CheckpointVersion {
		return cp, false, nadine.Errorf(nadine.EINVALID, "graph: checkpoint %q has version %d, want %d", key, cp.Version, CheckpointVersion)
	}
	if _, ok := r.nodes[cp.Node]; !ok {
		return cp, false, nadine.Errorf(nadine.EINVALID, "graph: checkpoint %q stopped at node %q, which the graph does not have", key, cp.Node)
	}
	return cp, true, nil
}

// Resume continues the run interrupted under key, possibly in an earlier
// process. A failed run keeps its checkpoint so the same resume can be retried.
func (r *Runnable[S]) Resume(ctx context.Context, key string, update func(S) S) (S, error) {
	var zero S
	if r.opts.Checkpoints == nil {
		return zero, nadine.Errorf(nadine.EINVALID, "graph: resume %q: no Checkpointer configured", key)
	}
	cp, ok, err := r.Pending(ctx, key)
	if err != nil {
		return zero, err
	}
	if !ok {
		return zero, nadine.Errorf(nadine.ENOTFOUND, "graph: resume %q: no checkpoint", key)
	}
	s := cp.State
	if update != nil {
		s = update(s)
	}
	next := cp.Node
	if cp.After {
		if next, err = r.successor(ctx, cp.Node, s); err != nil {
			return s, err
		}
	}
	out, err := r.loop(ctx, key, next, s)
	if err != nil {
		return out, err
	}
	if err := r.opts.Checkpoints.DeleteCheckpoint(ctx, key); err != nil {
		return out, fmt.Errorf("graph: delete checkpoint %q: %w", key, err)
	}
	return out, nil
}

// Discard deletes the checkpoint saved under key, abandoning the
// interrupted run.
func (r *Runnable[S]) Discard(ctx context.Context, key string) error {
	if r.opts.Checkpoints == nil {
		return nil
	}
	if err := r.opts.Checkpoints.DeleteCheckpoint(ctx, key); err != nil {
		return fmt.Errorf("graph: delete checkpoint %q: %w", key, err)
	}
	return nil
}

// MemoryCheckpointer keeps checkpoints in memory, so a restart forgets them.
// Safe for concurrent use; the zero value is ready.
type MemoryCheckpointer struct {
	mu sync.Mutex
	m  map[string][]byte
}

var _ Checkpointer = (*MemoryCheckpointer)(nil)

// SaveCheckpoint stores a copy of data under key.
func (c *MemoryCheckpointer) SaveCheckpoint(_ context.Context, key string, data []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string][]byte{}
	}
	c.m[key] = append([]byte(nil), data...)
	return nil
}

// LoadCheckpoint returns a copy of the data under key, or an ENOTFOUND error.
func (c *MemoryCheckpointer) LoadCheckpoint(_ context.Context, key string) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	data, ok := c.m[key]
	if !ok {
		return nil, nadine.Errorf(nadine.ENOTFOUND, "graph: no checkpoint %q", key)
	}
	return append([]byte(nil), data...), nil
}

// DeleteCheckpoint deletes the data under key, if any.
func (c *MemoryCheckpointer) DeleteCheckpoint(_ context.Context, key string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, key)
	return nil
}

// WithCheckpoints returns a copy of r that keeps checkpoints in c, for a
// caller that holds each run's checkpoint itself (in a session, say).
func (r *Runnable[S]) WithCheckpoints(c Checkpointer) *Runnable[S] {
	out := *r
	out.opts.Checkpoints = c
	return &out
}
