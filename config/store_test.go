package config

import (
	"strings"
	"testing"
)

func TestConfigStore(t *testing.T) {
	tests := []struct {
		name      string
		file      string
		env       map[string]string
		wantURL   string
		wantConns int
		wantErr   string // a field the error names; "" for none
	}{
		{name: "default is SQLite", wantURL: ""},
		{name: "file", file: "store: {url: 'postgres://nadine@db.lab:5432/nadine', max_conns: 8, vector: on}\n",
			wantURL: "postgres://nadine@db.lab:5432/nadine", wantConns: 8},
		{name: "environment wins", file: "store: {url: 'postgres://a@x/db'}\n",
			env:     map[string]string{"NADINE_STORE_URL": "postgresql://b@y:5433/db?sslmode=require", "NADINE_STORE_MAX_CONNS": "3"},
			wantURL: "postgresql://b@y:5433/db?sslmode=require", wantConns: 3},
		{name: "not postgres", file: "store: {url: 'mysql://a@x/db'}\n", wantErr: "store.url"},
		{name: "no host", file: "store: {url: 'postgres:///db'}\n", wantErr: "store.url"},
		{name: "a file path", env: map[string]string{"NADINE_STORE_URL": "/var/lib/nadine.db"}, wantErr: "store.url"},
		{name: "negative pool", file: "store: {url: 'postgres://a@x/db', max_conns: -1}\n", wantErr: "store.max_conns"},
		{name: "vector", file: "store: {vector: maybe}\n", wantErr: "store.vector"},
		{name: "schema", file: "store: {schema: 'a; DROP TABLE users'}\n", wantErr: "store.schema"},
		{name: "env pool", env: map[string]string{"NADINE_STORE_MAX_CONNS": "lots"}, wantErr: "NADINE_STORE_MAX_CONNS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := ""
			if tt.file != "" {
				path = writeConfig(t, tt.file)
			}
			env := map[string]string{"HOME": t.TempDir()}
			for k, v := range tt.env {
				env[k] = v
			}
			cfg, err := Load(path, envMap(env))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to name %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Store.URL != tt.wantURL || cfg.Store.MaxConns != tt.wantConns {
				t.Errorf("store = %+v, want url %q and max_conns %d", cfg.Store, tt.wantURL, tt.wantConns)
			}
		})
	}
}
