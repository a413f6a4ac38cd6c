// Package orderlog is an ordered record that the concurrent parts of a test
// (an emit function, a fake tool, a wrapped store or body, a fake server)
// write to, so the test can check what happened before what.
package orderlog

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Log is safe for concurrent use; its zero value is empty and ready.
type Log struct {
	mu    sync.Mutex
	lines []string
}

// Add appends a line.
func (l *Log) Add(line string) {
	l.mu.Lock()
	l.lines = append(l.lines, line)
	l.mu.Unlock()
}

// Addf appends a formatted line.
func (l *Log) Addf(format string, args ...any) { l.Add(fmt.Sprintf(format, args...)) }

// Lines returns a copy of the lines so far, in order.
func (l *Log) Lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.lines)
}

// Index returns the position of the first line with prefix, or -1.
func (l *Log) Index(prefix string) int {
	return slices.IndexFunc(l.Lines(), func(s string) bool { return strings.HasPrefix(s, prefix) })
}

// Count returns how many lines start with prefix.
func (l *Log) Count(prefix string) int {
	n := 0
	for _, s := range l.Lines() {
		if strings.HasPrefix(s, prefix) {
			n++
		}
	}
	return n
}
