package config

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// Every configuration field can be set by an environment variable named
// after its YAML path: NADINE_ plus the keys joined by "_", upper-cased
// (NADINE_MQTT_PREFIX). Map keys are part of the name and are discovered
// from the environment, so a profile that only the environment names
// exists: NADINE_MODELS_PROFILES_LOCAL_BASE_URL and
// NADINE_MODELS_PROFILES_LOCAL_MODEL make a profile "local". Lists are
// comma-separated, or split at the separator the field's `envsep` tag
// names (filler.lines: "|").

// otherVariables are NADINE_ variables that are not configuration fields
// but are read by the program or its tests.
var otherVariables = map[string]bool{
	"NADINE_CONFIG":                true, // the configuration file
	"NADINE_BENCH_NADINE":          true, // the nadine that nadine-bench measures
	"NADINE_SQLITE_CRASH_CHILD_DB": true, // sqlite's crash test child
	"NADINE_WEB_SCREENSHOTS":       true, // the browser test's screenshots
}

// environment is what the overrides read: the variables by name and, when
// known, the list of those that are set (to discover map keys and to
// report unknown NADINE_ variables).
type environment struct {
	getenv  func(string) string
	environ []string // KEY=value, as os.Environ
}

// names returns the names of the set variables that start with prefix,
// sorted.
func (ev environment) names(prefix string) []string {
	var out []string
	for _, kv := range ev.environ {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, prefix) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

func (ev environment) lookup(name string) (string, bool) {
	s := ev.getenv(name)
	return s, s != ""
}

// envOverrides applies the environment to a configuration and remembers
// every variable name it knows, to report the others.
type envOverrides struct {
	ev    environment
	known map[string]bool
	// origin records the variable that set each path; errs, the
	// variables that could not be read (all of them, in one pass).
	origin map[string]string
	errs   []error
}

// apply overrides the fields of v, at path, from the variables named
// prefix_FIELD.
func (o *envOverrides) apply(v reflect.Value, prefix, path string) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		tag := yamlName(t.Field(i))
		if tag == "" {
			continue
		}
		name := prefix + "_" + strings.ToUpper(tag)
		o.field(v.Field(i), name, join(path, tag), t.Field(i).Tag.Get("envsep"))
	}
}

// set records that the variable name set the field at path, or why it
// could not.
func (o *envOverrides) set(name, path string, err error) {
	if err != nil {
		o.errs = append(o.errs, &fieldError{path: path, where: "$" + name, msg: err.Error()})
		return
	}
	if o.origin != nil {
		o.origin[path] = "$" + name
	}
}

// field overrides one field (of any kind) from the variable name.
func (o *envOverrides) field(fv reflect.Value, name, path, sep string) {
	switch {
	case fv.Kind() == reflect.Struct && fv.Type() != durationType:
		// A block with a scalar shorthand (language: fr) takes
		// NADINE_LANGUAGE=fr too.
		if sv, ok := fv.Addr().Interface().(interface{ SetEnvScalar(string) error }); ok {
			o.known[name] = true
			if s, ok := o.ev.lookup(name); ok {
				o.set(name, path, sv.SetEnvScalar(s))
			}
		}
		o.apply(fv, name, path)
		return
	case fv.Kind() == reflect.Map:
		o.mapField(fv, name, path, sep)
		return
	}
	o.known[name] = true
	if s, ok := o.ev.lookup(name); ok {
		o.set(name, path, setScalar(fv, s, sep))
	}
}

// mapField overrides the entries of a map: those it holds, and those the
// environment names (NAME_<KEY> for a map of values, NAME_<KEY>_<FIELD>
// for a map of structs).
func (o *envOverrides) mapField(fv reflect.Value, name, path, sep string) {
	elem := fv.Type().Elem()
	keys := map[string]string{} // upper-cased → key as written
	for _, k := range fv.MapKeys() {
		keys[strings.ToUpper(k.String())] = k.String()
	}
	var suffixes []string
	if elem.Kind() == reflect.Struct {
		suffixes = envSuffixes(elem, "")
		// Longest first: "API_KEY_ENV" before "API_KEY".
		sort.Slice(suffixes, func(i, j int) bool { return len(suffixes[i]) > len(suffixes[j]) })
	}
	for _, v := range o.ev.names(name + "_") {
		rest := strings.TrimPrefix(v, name+"_")
		key := rest
		if elem.Kind() == reflect.Struct {
			key = ""
			for _, s := range suffixes {
				if strings.HasSuffix(rest, "_"+s) && len(rest) > len(s)+1 {
					key = strings.TrimSuffix(rest, "_"+s)
					break
				}
			}
		}
		if key == "" {
			continue
		}
		if _, ok := keys[key]; !ok {
			keys[key] = strings.ToLower(key)
		}
	}
	upper := make([]string, 0, len(keys))
	for k := range keys {
		upper = append(upper, k)
	}
	sort.Strings(upper)
	for _, u := range upper {
		k := keys[u]
		cur := reflect.New(elem).Elem()
		existing := fv.MapIndex(reflect.ValueOf(k))
		if existing.IsValid() {
			cur.Set(existing)
		}
		before := fmt.Sprint(cur.Interface())
		o.field(cur, name+"_"+u, join(path, k), sep)
		if existing.IsValid() || fmt.Sprint(cur.Interface()) != before {
			if fv.IsNil() {
				fv.Set(reflect.MakeMap(fv.Type()))
			}
			fv.SetMapIndex(reflect.ValueOf(k), cur)
		}
	}
}

// envSuffixes lists the variable suffixes of a struct's fields
// ("BASE_URL", "MODEL", ...).
func envSuffixes(t reflect.Type, prefix string) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		tag := yamlName(t.Field(i))
		if tag == "" {
			continue
		}
		name := strings.ToUpper(tag)
		if prefix != "" {
			name = prefix + "_" + name
		}
		ft := t.Field(i).Type
		if ft.Kind() == reflect.Struct && ft != durationType {
			out = append(out, envSuffixes(ft, name)...)
			continue
		}
		out = append(out, name)
	}
	return out
}

// unknownVariables returns a warning for each NADINE_ variable that is set
// but is not a configuration field, not one of otherVariables and not
// named by a *_env field (a key, password or token variable), with the
// closest known name.
func (o *envOverrides) unknownVariables(cfg *Config) []string {
	named := map[string]bool{}
	collectEnvNames(reflect.ValueOf(*cfg), "", named)
	var known []string
	for k := range o.known {
		known = append(known, k)
	}
	sort.Strings(known)
	var out []string
	for _, v := range o.ev.names("NADINE_") {
		if o.known[v] || otherVariables[v] || named[v] {
			continue
		}
		out = append(out, fmt.Sprintf("config: %s is not a configuration variable and is ignored%s", v, DidYouMean(v, known)))
	}
	return out
}

// collectEnvNames gathers the values of the fields whose YAML key ends in
// "_env": the names of the variables that hold secrets.
func collectEnvNames(v reflect.Value, tag string, into map[string]bool) {
	switch v.Kind() {
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			if name := yamlName(t.Field(i)); name != "" {
				collectEnvNames(v.Field(i), name, into)
			}
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			collectEnvNames(v.MapIndex(k), tag, into)
		}
	case reflect.String:
		if strings.HasSuffix(tag, "_env") && v.String() != "" {
			into[v.String()] = true
		}
	}
}
