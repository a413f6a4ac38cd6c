package config

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/nadine-robot/nadine/names"
)

// Fields are found by reflection over their yaml tags, so that a field added
// anywhere gets the same errors, named by its full YAML path.

var (
	durationType    = reflect.TypeOf(Duration(0))
	unmarshalerType = reflect.TypeOf((*yaml.Unmarshaler)(nil)).Elem()
)

// yamlName is a struct field's YAML key, "" for fields YAML skips. As in
// yaml.v3, a field without a tag is known by its lower-cased name.
func yamlName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	name := strings.Split(f.Tag.Get("yaml"), ",")[0]
	switch name {
	case "-":
		return ""
	case "":
		return strings.ToLower(f.Name)
	}
	return name
}

// join appends a key to a YAML path.
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// decodeFile reports each field it refuses and decodes the rest over the
// defaults, so validation reports in the same pass; err is "not YAML".
func decodeFile(name string, b []byte, cfg *Config) (fieldErrs []error, err error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("config: %s: %w", name, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, nil // empty, or only comments
	}
	root := doc.Content[0]
	nodeLines(root, "", func(path string, line int) { cfg.origin[path] = fmt.Sprintf("%s:%d", name, line) })
	refused := map[*yaml.Node]bool{}
	checkNode(root, reflect.TypeOf(*cfg), "", func(n *yaml.Node, path, msg string) {
		refused[n] = true
		fieldErrs = append(fieldErrs, &fieldError{path: path, where: fmt.Sprintf("%s:%d", name, n.Line), msg: msg})
	})
	if refused[root] {
		return fieldErrs, nil
	}
	prune(root, refused)
	if err := root.Decode(cfg); err != nil {
		return fieldErrs, fmt.Errorf("config: %s: %w", name, err)
	}
	return fieldErrs, nil
}

// nodeLines calls at with the path and line of every key and list element.
func nodeLines(n *yaml.Node, path string, at func(path string, line int)) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			at(join(path, k.Value), k.Line)
			nodeLines(n.Content[i+1], join(path, k.Value), at)
		}
	case yaml.SequenceNode:
		for i, v := range n.Content {
			p := fmt.Sprintf("%s[%d]", path, i)
			at(p, v.Line)
			nodeLines(v, p, at)
		}
	}
}

// prune removes the refused nodes and their keys, so that the rest decodes.
func prune(n *yaml.Node, refused map[*yaml.Node]bool) {
	target := func(v *yaml.Node) *yaml.Node {
		if v.Kind == yaml.AliasNode && v.Alias != nil {
			return v.Alias
		}
		return v
	}
	n = target(n)
	switch n.Kind {
	case yaml.MappingNode:
		kept := n.Content[:0]
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if refused[k] || refused[target(v)] {
				continue
			}
			prune(v, refused)
			kept = append(kept, k, v)
		}
		n.Content = kept
	case yaml.SequenceNode:
		kept := n.Content[:0]
		for _, v := range n.Content {
			if !refused[target(v)] {
				prune(v, refused)
				kept = append(kept, v)
			}
		}
		n.Content = kept
	}
}

// checkNode reports, by path, what of n cannot decode into a t.
func checkNode(n *yaml.Node, t reflect.Type, path string, bad func(n *yaml.Node, path, msg string)) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return // an empty value keeps the default
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		// A type that parses itself (Duration): its own message.
		if err := n.Decode(reflect.New(t).Interface()); err != nil {
			bad(n, path, err.Error())
		}
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			bad(n, path, "must be a mapping of fields, not "+nodeKind(n))
			return
		}
		fields := map[string]reflect.StructField{}
		var known []string
		for i := 0; i < t.NumField(); i++ {
			if name := yamlName(t.Field(i)); name != "" {
				fields[name] = t.Field(i)
				known = append(known, name)
			}
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			f, ok := fields[k.Value]
			if !ok {
				bad(k, join(path, k.Value), "unknown field"+suggestField(path, k.Value, known))
				continue
			}
			checkNode(v, f.Type, join(path, k.Value), bad)
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			bad(n, path, "must be a mapping, not "+nodeKind(n))
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode || strings.TrimSpace(k.Value) == "" {
				bad(k, path, "keys must be names")
				continue
			}
			checkNode(v, t.Elem(), join(path, k.Value), bad)
		}
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			bad(n, path, "must be a list, not "+nodeKind(n))
			return
		}
		for i, v := range n.Content {
			checkNode(v, t.Elem(), fmt.Sprintf("%s[%d]", path, i), bad)
		}
	default:
		if n.Kind != yaml.ScalarNode {
			bad(n, path, "must be "+kindName(t)+", not "+nodeKind(n))
			return
		}
		// YAML would truncate 2.5 into an integer field: only an integer
		// is one.
		isInt := strings.HasPrefix(kindName(t), "an integer")
		if err := n.Decode(reflect.New(t).Interface()); err != nil || (isInt && n.ShortTag() != "!!int") {
			bad(n, path, fmt.Sprintf("%q is not %s", n.Value, kindName(t)))
		}
	}
}

// nodeKind names what a YAML node holds, for messages.
func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	return fmt.Sprintf("%q", n.Value)
}

// kindName names a scalar type, for messages.
func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "a boolean (true or false)"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a text"
	}
	return "a " + t.String()
}

// suggestField names a sibling with a close name, else a field of that name
// elsewhere: a key put under the wrong block.
func suggestField(path, key string, siblings []string) string {
	if best := closest(key, siblings); best != "" {
		return " (did you mean " + join(path, best) + "?)"
	}
	var elsewhere []string
	for _, p := range configPaths(reflect.TypeOf(Config{}), "") {
		if p == key || strings.HasSuffix(p, "."+key) {
			elsewhere = append(elsewhere, p)
		}
	}
	if len(elsewhere) > 0 {
		return " (did you mean " + strings.Join(elsewhere, " or ") + "?)"
	}
	return ""
}

// DidYouMean is " (did you mean X?)" for a close candidate, else "".
func DidYouMean(s string, candidates []string) string {
	if best := closest(s, candidates); best != "" {
		return " (did you mean " + best + "?)"
	}
	return ""
}

// closest is the candidate most like s (python-Levenshtein ratio), or "".
func closest(s string, candidates []string) string {
	const enough = 0.75
	best, score := "", enough
	for _, c := range candidates {
		if r := names.Ratio(strings.ToLower(s), strings.ToLower(c)); r >= score && c != s {
			best, score = c, r
		}
	}
	return best
}

// configPaths lists every field's YAML path, maps and lists written "*".
func configPaths(t reflect.Type, path string) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == durationType {
		return []string{path}
	}
	switch t.Kind() {
	case reflect.Struct:
		var out []string
		for i := 0; i < t.NumField(); i++ {
			if name := yamlName(t.Field(i)); name != "" {
				out = append(out, configPaths(t.Field(i).Type, join(path, name))...)
			}
		}
		return out
	case reflect.Map:
		return configPaths(t.Elem(), join(path, "*"))
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Struct || t.Elem().Kind() == reflect.Map {
			return configPaths(t.Elem(), path+"[*]")
		}
	}
	return []string{path}
}

// checkDurations refuses negative durations in any field: they mean nothing.
func checkDurations(v reflect.Value, path string, bad func(path, format string, args ...any)) {
	switch {
	case v.Type() == durationType:
		if d := time.Duration(v.Int()); d < 0 {
			bad(path, "%v is negative: durations must be zero (the default) or positive", d)
		}
	case v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface:
		if !v.IsNil() {
			checkDurations(v.Elem(), path, bad)
		}
	case v.Kind() == reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			if name := yamlName(t.Field(i)); name != "" {
				checkDurations(v.Field(i), join(path, name), bad)
			}
		}
	case v.Kind() == reflect.Map:
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		for _, k := range keys {
			checkDurations(v.MapIndex(k), join(path, k.String()), bad)
		}
	case v.Kind() == reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			checkDurations(v.Index(i), fmt.Sprintf("%s[%d]", path, i), bad)
		}
	}
}
