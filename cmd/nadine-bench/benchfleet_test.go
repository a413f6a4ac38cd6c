package main

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/postgres"
)

// TestFleetProcesses runs the fleet bench's topology small: two `nadine
// serve` processes of three robots each on one PostgreSQL and one
// Mosquitto, every robot in its own conversation at once. Nothing is lost,
// nothing answered twice, no reply on another robot's topics, and each
// robot's session is its own in the shared store.
func TestFleetProcesses(t *testing.T) {
	url := os.Getenv("NADINE_TEST_POSTGRES_URL")
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("NADINE_TEST_POSTGRES_URL is not set: CI must run the PostgreSQL tests")
		}
		t.Skip("NADINE_TEST_POSTGRES_URL is not set: no PostgreSQL server to test against")
	}
	if _, err := mosquittoPath(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	for _, engine := range []string{"react", "graph"} {
		t.Run(engine, func(t *testing.T) {
			schema := "fleet_bench_" + randomSuffix()
			t.Cleanup(func() { dropSchema(url, schema) })
			set := benchSettings{TTFT: 20 * time.Millisecond}
			srv, serper := startBenchServers(set)
			defer srv.Close()
			defer serper.Close()
			s := benchSetup{modelURL: srv.URL(), serperURL: serper.URL, dir: t.TempDir(), engine: engine}
			top := fleetTopology{Processes: 2, Robots: 3, Engine: engine, Mosquitto: true, StoreURL: url, Schema: schema}
			r, err := runFleet(context.Background(), s, top, 3, 50*time.Millisecond)
			if err != nil {
				t.Fatal(err)
			}
			if r.Robots != 6 || r.Turns != 18 || r.Missing != 0 || r.Twice != 0 || r.Crossed != 0 || r.TurnsPerSec <= 0 || r.CPUPerTurn <= 0 {
				t.Errorf("fleet run %+v: want 18 turns of 6 robots, none missing, answered twice or crossed", r)
			}
			st, err := postgres.Open(context.Background(), url, postgres.Options{Schema: schema})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			for p := range 2 {
				for i := range 3 {
					robot := fleetPrefix(p, i)
					b, err := st.LoadCheckpoint(context.Background(), "robot/"+robot+"/session")
					if err != nil || !strings.Contains(string(b), `"user_id":"visitor-`+robot+`"`) {
						t.Errorf("robot/%s/session = %s, %v; want its own visitor", robot, b, err)
					}
				}
			}
		})
	}
}
