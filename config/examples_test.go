package config

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// yamlPaths lists the paths a YAML document names, map keys written "*"
// where Config has a map.
func yamlPaths(n *yaml.Node, t reflect.Type, path string, into map[string]bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	into[path] = true
	if n.Kind != yaml.MappingNode || t == durationType {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1]
		switch t.Kind() {
		case reflect.Struct:
			for j := 0; j < t.NumField(); j++ {
				if yamlName(t.Field(j)) == k {
					yamlPaths(v, t.Field(j).Type, join(path, k), into)
				}
			}
		case reflect.Map:
			yamlPaths(v, t.Elem(), join(path, "*"), into)
		}
	}
}

// TestSampleConfig: examples/nadine.yaml names every field of Config (a
// field added without a line there fails here), is valid, and its values
// are the defaults (the systemd unit sets the data directory itself, so
// that the file works for a normal user too).
func TestSampleConfig(t *testing.T) {
	const sample = "../examples/nadine.yaml"
	b, err := os.ReadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	named := map[string]bool{}
	yamlPaths(doc.Content[0], reflect.TypeOf(Config{}), "", named)
	// data_dir is named in a comment only: its default (in the user's home)
	// serves `nadine chat --config`, and the unit sets NADINE_DATA_DIR.
	named["data_dir"] = strings.Contains(string(b), "\n# data_dir: ")
	for _, p := range configPaths(reflect.TypeOf(Config{}), "") {
		// A map of values (roles, filler lines) is named by its own key,
		// a list of blocks (broker users) by its own key too.
		list, _, _ := strings.Cut(p, "[*]")
		if !named[p] && !(strings.HasSuffix(p, ".*") && named[strings.TrimSuffix(p, ".*")]) && !named[list] {
			t.Errorf("%s does not name %s", sample, p)
		}
	}
	home := t.TempDir()
	cfg, err := loadConfigFrom(sample, envOf(map[string]string{"HOME": home}))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range roleNames {
		if _, ok := cfg.Models.Roles[r]; !ok {
			t.Errorf("%s does not list the role %s", sample, r)
		}
	}
	def := Default(envMap(map[string]string{"HOME": home}))
	got, _ := yaml.Marshal(cfg)
	want, _ := yaml.Marshal(def)
	if string(got) != string(want) {
		t.Errorf("%s differs from the defaults:\n%s\nwant:\n%s", sample, got, want)
	}
}
