package config

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// A field's variable is NADINE_ and its YAML path, upper-cased and "_"-joined;
// map keys are part of it, so variables alone can make a profile.

// otherVariables are NADINE_ variables that are read but are not fields.
var otherVariables = map[string]bool{
	"NADINE_CONFIG":                true, // the configuration file
	"NADINE_BENCH_NADINE":          true, // the nadine that nadine-bench measures
	"NADINE_SQLITE_CRASH_CHILD_DB": true, // sqlite's crash test child
	"NADINE_WEB_SCREENSHOTS":       true, // the browser test's screenshots
}

// environment is the variables by name and, when known, those set: to find
// map keys and report unknown NADINE_ variables.
type environment struct {
	getenv  func(string) string
	environ []string // KEY=value, as os.Environ
}

// names returns the set variables that start with prefix, sorted.
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

// envOverrides remembers every variable name it knows, to report the others.
type envOverrides struct {
	ev    environment
	known map[string]bool
	// origin records the variable that set each path; errs, the
	// variables that could not be read (all of them, in one pass).
	origin map[string]string
	errs   []error
}

// apply overrides v's fields from the variables prefix_FIELD.
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

// set records the variable that set path, or why it could not.
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

// mapField overrides a map's entries and adds those the environment names
// (NAME_<KEY>, or NAME_<KEY>_<FIELD> for a map of structs).
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

// envSuffixes lists a struct's variable suffixes ("BASE_URL", "MODEL", ...).
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

// unknownVariables warns of each set NADINE_ variable nothing reads (not a
// field, otherVariables or a *_env's secret), naming the closest one.
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

// collectEnvNames gathers the values of *_env fields: variables with secrets.
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
