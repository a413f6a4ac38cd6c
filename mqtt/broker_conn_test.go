package mqtt

import (
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"testing/synctest"
	"time"
)

// TestBoundedConnSlowNotStalled: a write to a client that reads slowly
// goes on as long as it makes progress, even when the whole write takes
// many times the timeout (a large packet on a slow link); a write to a
// client that stopped reading fails after the timeout, and closes the
// connection. The timeout used to bound each whole write.
func TestBoundedConnSlowNotStalled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		server, client := net.Pipe()
		c := &boundedConn{Conn: server, timeout: 100 * time.Millisecond}
		stop := make(chan struct{})
		read := make(chan int64, 1)
		go func() {
			var n int64
			buf := make([]byte, 1<<10)
			for {
				select {
				case <-stop:
					read <- n
					return
				default:
				}
				k, err := client.Read(buf)
				n += int64(k)
				if err != nil {
					read <- n
					return
				}
				time.Sleep(20 * time.Millisecond) // 1 KiB per 20 ms: 64 KiB in 1.3 s
			}
		}()
		start := time.Now()
		if n, err := c.Write(make([]byte, 64<<10)); n != 64<<10 || err != nil {
			close(stop)
			client.Close()
			<-read // the reader is done before the bubble ends
			t.Fatalf("slow reader: wrote %d, %v", n, err)
		}
		if took := time.Since(start); took < 10*c.timeout {
			t.Errorf("the write took %v: the reader was not slow", took)
		}
		close(stop)
		if n := <-read; n != 64<<10 {
			t.Fatalf("the reader got %d bytes", n)
		}
		// Nobody reads now.
		n, err := c.Write(make([]byte, 64<<10))
		if !errors.Is(err, os.ErrDeadlineExceeded) || n != 0 {
			t.Fatalf("stalled reader: wrote %d, %v; want a timeout", n, err)
		}
		if _, err := client.Read(make([]byte, 1)); err != io.EOF {
			t.Errorf("after the stall: %v, want the connection closed", err)
		}
	})
}
