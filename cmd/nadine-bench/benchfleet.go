package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/nadine-robot/nadine/internal/syncbuf"

	"github.com/jackc/pgx/v5"
	"go.yaml.in/yaml/v3"
)

// fleetTopology is one fleet run: processes `nadine serve` processes of
// robots robots each, on one broker and one store.
type fleetTopology struct {
	Processes int
	Robots    int // per process
	Engine    string
	// Mosquitto runs the robots on one Mosquitto broker; otherwise on the
	// embedded broker of the (one) process.
	Mosquitto bool
	// StoreURL is a PostgreSQL URL all processes share; empty, the (one)
	// process keeps SQLite in its data directory.
	StoreURL string
	// Schema is the PostgreSQL schema of the run; empty, the run makes a
	// new one and drops it afterwards.
	Schema string
	// MaxConns is store.max_conns of each process (0: the default).
	MaxConns int
}

// fleetResult is one fleet run: every robot of every process holds its own
// conversation at the same time.
type fleetResult struct {
	Engine      string        `json:"engine"`
	Processes   int           `json:"processes"`
	Robots      int           `json:"robots"` // in all
	Broker      string        `json:"broker"`
	Store       string        `json:"store"`
	Turns       int           `json:"turns"`   // answered
	Missing     int           `json:"missing"` // transcripts never answered
	Twice       int           `json:"twice"`   // transcripts answered more than once
	Crossed     int           `json:"crossed"` // speak messages on another robot's topics than the turn's
	Elapsed     time.Duration `json:"elapsed_ns"`
	TurnsPerSec float64       `json:"turns_per_second"`
	FirstP50    time.Duration `json:"first_speak_p50_ns"`
	FirstP95    time.Duration `json:"first_speak_p95_ns"`
	TotalP95    time.Duration `json:"total_p95_ns"`
	// CPUPerTurn is the CPU time (user and system) the nadine processes
	// spent during the conversations, divided by the turns answered.
	CPUPerTurn time.Duration `json:"cpu_per_turn_ns"`
	RSS        int64         `json:"rss_bytes"` // the largest process's, after the conversations
}

// fleetChild is one `nadine serve` process of a fleet run.
type fleetChild struct {
	proc    *serveProcess
	stopped bool
	base    string   // its monitor's URL
	robots  []string // its robots' prefixes
}

// runFleet has every robot of the topology converse at once; a speak message
// on another robot's topics than its turn's counts as crossed.
func runFleet(ctx context.Context, s benchSetup, top fleetTopology, turns int, pause time.Duration) (fleetResult, error) {
	res := fleetResult{Engine: s.engine, Processes: top.Processes, Robots: top.Processes * top.Robots, Broker: "embedded", Store: "SQLite"}
	if top.Processes > 1 && (top.StoreURL == "" || !top.Mosquitto) {
		return res, errors.New("bench: several processes need one PostgreSQL store and one Mosquitto broker")
	}
	if err := os.MkdirAll(s.dir, 0o750); err != nil {
		return res, err
	}
	brokerAddr, err := freeAddr()
	if err != nil {
		return res, err
	}
	if top.Mosquitto {
		res.Broker = "Mosquitto"
		m, err := startMosquitto(filepath.Join(s.dir, "mosquitto"))
		if err != nil {
			return res, err
		}
		defer m.stop()
		brokerAddr = m.addr
	}
	if top.StoreURL != "" {
		res.Store = "PostgreSQL"
		if top.Schema == "" {
			top.Schema = "nadine_fleet_" + randomSuffix()
			defer dropSchema(top.StoreURL, top.Schema)
		}
	}
	var children []*fleetChild
	defer func() {
		for _, c := range children {
			c.stop()
		}
	}()
	for p := range top.Processes {
		for attempt := 1; ; attempt++ {
			c, err := startFleetChild(s, top, p, brokerAddr)
			if err != nil {
				return res, err
			}
			children = append(children, c)
			// The first process creates the schema; the others start on it.
			err = waitHealthy(ctx, c.base, c.proc)
			if err == nil {
				break
			}
			err = c.failed(err)
			// A port found free may be taken by another process before the
			// child listens on it: new ports, twice at most.
			if attempt == 3 || !strings.Contains(err.Error(), "address already in use") {
				return res, err
			}
			children = children[:len(children)-1]
			c.stop()
			if !top.Mosquitto {
				if brokerAddr, err = freeAddr(); err != nil {
					return res, err
				}
			}
		}
	}
	peer, err := dialPeer(ctx, brokerAddr)
	if err != nil {
		return res, err
	}
	defer peer.close()

	var (
		mu            sync.Mutex
		first, totals []time.Duration
		errs          []error
		wg            sync.WaitGroup
	)
	cpu0 := fleetCPU(children)
	start := time.Now()
	for _, c := range children {
		for _, prefix := range c.robots {
			wg.Go(func() {
				if err := peer.publish(ctx, prefix+"/graph/user_detected", map[string]any{
					"user_name": "Visitor " + prefix, "user_id": "visitor-" + prefix, "confidence": 0.9}); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
					return
				}
				for t := range turns {
					text, _ := benchTurn(t)
					w, err := peer.say(ctx, prefix, fmt.Sprintf("%s-%d", prefix, t), text)
					if err == nil {
						err = peer.wait(ctx, w, 5*time.Minute)
					}
					mu.Lock()
					if err != nil {
						res.Missing++
						mu.Unlock()
						continue
					}
					got := peer.result(w)
					res.Turns++
					if !got.first.IsZero() {
						first = append(first, got.first.Sub(got.sent))
					}
					totals = append(totals, got.finalAt.Sub(got.sent))
					mu.Unlock()
					if t < turns-1 {
						time.Sleep(pause)
					}
				}
			})
		}
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	if len(errs) > 0 {
		return res, errs[0]
	}
	if res.Turns > 0 {
		res.CPUPerTurn = (fleetCPU(children) - cpu0) / time.Duration(res.Turns)
	}
	// Turns per second counts the time robots were answering, not the
	// pauses in which their users "listened".
	if busy := res.Elapsed - time.Duration(max(turns-1, 0))*pause; busy > 0 {
		res.TurnsPerSec = float64(res.Turns) / busy.Seconds()
	}
	res.FirstP50, res.FirstP95 = percentile(first, 50), percentile(first, 95)
	res.TotalP95 = percentile(totals, 95)
	res.Twice, _ = peer.duplicates()
	res.Crossed = peer.crossings()
	for _, c := range children {
		rss, _ := procRSS(c.proc.pid())
		res.RSS = max(res.RSS, rss)
	}
	for _, c := range children {
		if err := c.stop(); err != nil {
			return res, err
		}
	}
	return res, nil
}

// startFleetChild starts the p-th `nadine serve` on the broker at brokerAddr,
// its own embedded one there when the topology has no Mosquitto.
func startFleetChild(s benchSetup, top fleetTopology, p int, brokerAddr string) (*fleetChild, error) {
	dir := filepath.Join(s.dir, fmt.Sprintf("process-%d", p))
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, err
	}
	httpAddr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	own := s
	own.dir = dir
	cfg, err := benchConfigMap(own, brokerAddr, httpAddr)
	if err != nil {
		return nil, err
	}
	c := &fleetChild{base: "http://" + httpAddr}
	robots := make([]map[string]any, top.Robots)
	for r := range robots {
		prefix := fleetPrefix(p, r)
		robots[r] = map[string]any{"prefix": prefix}
		c.robots = append(c.robots, prefix)
	}
	cfg["robots"] = robots
	if top.Mosquitto {
		cfg["mqtt"] = map[string]any{"url": "mqtt://" + brokerAddr}
	}
	if top.StoreURL != "" {
		cfg["store"] = map[string]any{"url": top.StoreURL, "schema": top.Schema, "max_conns": top.MaxConns}
	}
	b, err := yaml.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	var env []string
	for _, v := range []string{"PGPASSWORD", "PGPASSFILE", "PGSSLROOTCERT"} {
		if x := os.Getenv(v); x != "" {
			env = append(env, v+"="+x)
		}
	}
	if c.proc, err = startServeChild(dir, b, &syncbuf.Buffer{}, env...); err != nil {
		return nil, err
	}
	return c, nil
}

// benchConfigMap is benchConfig as a map, for a run to change.
func benchConfigMap(s benchSetup, mqttAddr, httpAddr string) (map[string]any, error) {
	raw, err := benchConfig(s, mqttAddr, httpAddr)
	if err != nil {
		return nil, err
	}
	var cfg map[string]any
	if err := yaml.Unmarshal(raw, &cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// failed adds what the process said to err.
func (c *fleetChild) failed(err error) error {
	return fmt.Errorf("%w\nnadine serve said:\n%s", err, lastLines(c.proc.logs.String(), 40))
}

// stop stops the process gracefully (SIGINT), once.
func (c *fleetChild) stop() error {
	if c.stopped {
		return nil
	}
	c.stopped = true
	if err := c.proc.stop(syscall.SIGINT, 30*time.Second); err != nil {
		return err
	}
	if err := c.proc.exitErr(); err != nil {
		return c.failed(fmt.Errorf("bench: nadine serve: %w", err))
	}
	return nil
}

// fleetCPU is the CPU time the processes used so far.
func fleetCPU(children []*fleetChild) time.Duration {
	var total time.Duration
	for _, c := range children {
		total += procCPU(c.proc.pid())
	}
	return total
}

// procCPU reads a process's user and system CPU time from /proc (clock
// ticks of 10 ms, Linux's USER_HZ).
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name, in parentheses, may hold spaces: count fields
	// after it (utime and stime are fields 14 and 15).
	_, rest, ok := strings.Cut(string(b), ") ")
	if !ok {
		return 0
	}
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// fleetPrefix is the topic prefix of robot r of process p.
func fleetPrefix(p, r int) string { return fmt.Sprintf("fleet-p%d-r%04d", p, r) }

// randomSuffix is 8 random hex digits.
func randomSuffix() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// dropSchema drops a fleet run's schema and everything in it.
func dropSchema(url, schema string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return
	}
	defer conn.Close(ctx)
	_, _ = conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE")
}

// parseFleet reads --fleet: "2x50" or "1x10,2x50", processes × robots per
// process, all on one PostgreSQL (url) and one Mosquitto.
func parseFleet(s, url string, pool int) ([]fleetTopology, error) {
	var out []fleetTopology
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		ps, rs, ok := strings.Cut(strings.ToLower(f), "x")
		p, err1 := strconv.Atoi(strings.TrimSpace(ps))
		r, err2 := strconv.Atoi(strings.TrimSpace(rs))
		if !ok || err1 != nil || err2 != nil || p < 1 || r < 1 {
			return nil, usageError{fmt.Sprintf("--fleet: %q is not PROCESSESxROBOTS, such as 2x50", f)}
		}
		out = append(out, fleetTopology{Processes: p, Robots: r, Mosquitto: true, StoreURL: url, MaxConns: pool})
	}
	if len(out) > 0 && !strings.HasPrefix(url, "postgres://") && !strings.HasPrefix(url, "postgresql://") {
		return nil, usageError{"--fleet needs --postgres postgres://user@host:5432/db: the processes share one memory"}
	}
	if pool < 0 {
		return nil, usageError{"--fleet-pool must not be negative"}
	}
	return out, nil
}

// printFleet prints the fleet runs as a table.
func printFleet(w io.Writer, runs []fleetResult) error {
	if len(runs) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "many robots at once: each holds its own conversation; times from the transcript on MQTT to its speak messages")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROCESSES\tROBOTS\tENGINE\tBROKER\tSTORE\tTURNS\tTURNS/S\tFIRST SPEAK p50\tp95\tWHOLE TURN p95\tCPU/TURN\tMISSING\tTWICE\tCROSSED\tRSS (largest)")
	for _, f := range runs {
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%d\t%.1f\t%v\t%v\t%v\t%v\t%d\t%d\t%d\t%.0f MB\n", f.Processes, f.Robots, f.Engine, f.Broker, f.Store,
			f.Turns, f.TurnsPerSec, round(f.FirstP50), round(f.FirstP95), round(f.TotalP95), round(f.CPUPerTurn),
			f.Missing, f.Twice, f.Crossed, mb(f.RSS))
	}
	return tw.Flush()
}
