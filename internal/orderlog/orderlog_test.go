package orderlog_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/nadine-robot/nadine/internal/orderlog"
)

func TestLog(t *testing.T) {
	var l orderlog.Log
	l.Add("filler:one")
	l.Addf("search:%d", 1)
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() { l.Add("speech:x") })
	}
	wg.Wait()
	if got := l.Lines()[:2]; !slices.Equal(got, []string{"filler:one", "search:1"}) {
		t.Errorf("first lines %q", got)
	}
	if l.Index("search:") != 1 || l.Index("none") != -1 || l.Count("speech:") != 10 {
		t.Errorf("index %d, %d, count %d", l.Index("search:"), l.Index("none"), l.Count("speech:"))
	}
}
