package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/nadine-robot/nadine/internal/syncbuf"
)

// serveProcess's exit is a closed channel, not a value, so every wait on it
// (health check, kill, stop) sees it however many there are.
type serveProcess struct {
	cmd  *exec.Cmd
	logs *syncbuf.Buffer // what it wrote on its standard output and error
	done chan struct{}   // closed once it has exited
	err  error           // how it exited; set before done is closed
}

// startServeChild starts `nadine serve` on cfg (dir/bench.yaml) in a bare
// environment: HOME=dir, PATH, the bench's model key, its cache, plus env.
func startServeChild(dir string, cfg []byte, logs *syncbuf.Buffer, env ...string) (*serveProcess, error) {
	path := filepath.Join(dir, "bench.yaml")
	if err := os.WriteFile(path, cfg, 0o600); err != nil {
		return nil, err
	}
	exe, err := nadineBinary()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, "serve", "--config", path)
	cmd.Env = append(append([]string{"HOME=" + dir, "PATH=" + os.Getenv("PATH"), benchKeyEnv + "=bench"}, cacheEnv()...), env...)
	return startProcess(cmd, logs)
}

// cacheEnv gives a child the bench's cache directory, though its HOME is its
// own, so that the children share the trained models rather than each train.
func cacheEnv() []string {
	if dir, err := os.UserCacheDir(); err == nil {
		return []string{"XDG_CACHE_HOME=" + dir}
	}
	return nil
}

// startProcess starts cmd, its output going to logs.
func startProcess(cmd *exec.Cmd, logs *syncbuf.Buffer) (*serveProcess, error) {
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("bench: start nadine serve: %w", err)
	}
	p := &serveProcess{cmd: cmd, logs: logs, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// pid is the process's id.
func (p *serveProcess) pid() int { return p.cmd.Process.Pid }

// exited reports whether the process has exited, and how.
func (p *serveProcess) exited() (bool, error) {
	select {
	case <-p.done:
		return true, p.err
	default:
		return false, nil
	}
}

// kill kills the process with SIGKILL and waits until it is gone; it may
// be called on a process that has already exited.
func (p *serveProcess) kill() {
	_ = p.cmd.Process.Kill()
	<-p.done
}

// exitErr is how the process exited (nil: with status 0); it waits until
// it has.
func (p *serveProcess) exitErr() error {
	<-p.done
	return p.err
}

// stop sends sig; a process still running after grace gets SIGQUIT, so the
// error carries its goroutines' stacks: what kept it from stopping.
func (p *serveProcess) stop(sig os.Signal, grace time.Duration) error {
	_ = p.cmd.Process.Signal(sig)
	select {
	case <-p.done:
		return nil
	case <-time.After(grace):
	}
	_ = p.cmd.Process.Signal(syscall.SIGQUIT)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		p.kill()
	}
	return fmt.Errorf("bench: nadine serve did not stop within %s of %v; its goroutines follow\nnadine serve said:\n%s", grace, sig, p.logs.String())
}
