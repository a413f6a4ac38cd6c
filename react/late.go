package react

import (
	"context"
	"sync"
)

// Ownership of the agent's streamed calls. A call is bound to its turn's
// context until its final answer's reply text is complete and the turn
// replies early (replyEarly): from then on it is detached, because the
// turn's context ends as soon as the engine returns while the model still
// writes the fields after the text (category, causing_person), which the
// turn's deferred work reads. A detached call belongs to the engine's
// calls until it ends, and is cancelled:
//   - never while its turn's deferred reading has claimed it (that reading
//     waits for it, bounded by the role's attempt timeout);
//   - when the next turn starts on the engine while it is still unclaimed:
//     a turn's deferred work runs before the next turn starts
//     (nadine.Request.AfterReply), so an unclaimed call is that of a turn
//     that was cancelled after it replied (an early turn whose final
//     transcript differed), whose deferred work was dropped;
//   - by Close, which waits for every call.
//
// The engine answers one turn at a time per conversation, as the dialogue
// manager asks it (its turn lock): an engine shared by two managers would
// see each one's turns cut the other's unclaimed calls.

// calls tracks the engine's agent calls.
type calls struct {
	mu     sync.Mutex
	closed bool
	live   map[*pendingCall]struct{}
	wg     sync.WaitGroup
}

// add registers p before its call starts; false once the engine is closed,
// and the call must not start.
func (c *calls) add(p *pendingCall, cancel context.CancelFunc) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return false
	}
	if c.live == nil {
		c.live = make(map[*pendingCall]struct{})
	}
	p.cancel = cancel
	c.live[p] = struct{}{}
	c.wg.Add(1)
	return true
}

// remove unregisters p once its call has ended.
func (c *calls) remove(p *pendingCall) {
	c.mu.Lock()
	delete(c.live, p)
	c.mu.Unlock()
	c.wg.Done()
}

// detach lets p's call outlive its turn's context, unclaimed until claim.
func (c *calls) detach(p *pendingCall) {
	c.mu.Lock()
	p.detached = true
	c.mu.Unlock()
}

// claim marks p's call as read by its turn's deferred work; false when it was
// cancelled first (another turn began, or Close).
func (c *calls) claim(p *pendingCall) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p.orphaned {
		return false
	}
	p.claimed = true
	return true
}

// isDetached reports whether p's call no longer ends with its turn's
// context.
func (c *calls) isDetached(p *pendingCall) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return p.detached
}

// cancelUnclaimed cancels the detached calls of turns cancelled after they
// replied, and returns how many.
func (c *calls) cancelUnclaimed() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for p := range c.live {
		if p.detached && !p.claimed && !p.orphaned {
			p.orphaned = true
			p.cancel()
			n++
		}
	}
	return n
}

// close refuses new calls, cancels every call in flight and waits until
// they have all ended.
func (c *calls) close() {
	c.mu.Lock()
	c.closed = true
	for p := range c.live {
		p.orphaned = true
		p.cancel()
	}
	c.mu.Unlock()
	c.wg.Wait()
}

// Close cancels the streams that outlived their turns, waits for them and
// refuses new turns; it returns nil.
func (e *Engine) Close() error {
	e.calls.close()
	return nil
}
