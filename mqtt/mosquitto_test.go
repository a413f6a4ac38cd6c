package mqtt_test

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// mosquitto runs Debian's mosquitto broker on a port of its own.
type mosquitto struct {
	t       *testing.T
	bin     string
	conf    string
	addr    string
	cmd     *exec.Cmd
	cmdDone chan struct{}
	stderr  bytes.Buffer
}

func startMosquitto(t *testing.T) *mosquitto {
	t.Helper()
	bin, err := exec.LookPath("mosquitto")
	if err != nil {
		t.Skip("mosquitto is not on PATH (Debian: apt-get install mosquitto); skipping the Mosquitto conversation")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	_, port, _ := net.SplitHostPort(addr)
	conf := filepath.Join(t.TempDir(), "mosquitto.conf")
	cfg := fmt.Sprintf("listener %s 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest stderr\nlog_type error\nlog_type warning\n", port)
	if err := os.WriteFile(conf, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	m := &mosquitto{t: t, bin: bin, conf: conf, addr: addr}
	m.start()
	t.Cleanup(m.stop)
	return m
}

func (m *mosquitto) start() {
	m.t.Helper()
	m.cmd = exec.Command(m.bin, "-c", m.conf)
	m.cmd.Stderr = &m.stderr
	if err := m.cmd.Start(); err != nil {
		m.t.Fatalf("start mosquitto: %v", err)
	}
	exited := make(chan struct{})
	go func(cmd *exec.Cmd) { _ = cmd.Wait(); close(exited) }(m.cmd)
	m.cmdDone = exited
	eventually(m.t, "mosquitto to listen on "+m.addr, func() bool {
		select {
		case <-exited:
			m.t.Fatalf("mosquitto exited: %s", m.stderr.String())
		default:
		}
		c, err := net.DialTimeout("tcp", m.addr, time.Second)
		if err != nil {
			return false
		}
		_ = c.Close()
		return true
	})
}

func (m *mosquitto) stop() {
	if m.cmd == nil {
		return
	}
	_ = m.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-m.cmdDone:
	case <-time.After(failsafe):
		_ = m.cmd.Process.Kill()
		<-m.cmdDone
	}
	m.cmd = nil
}

func TestConversation_Mosquitto(t *testing.T) {
	m := startMosquitto(t)
	conversation(t, brokerEnv{url: "mqtt://" + m.addr, stop: m.stop, start: m.start, queueOrder: true})
}
