package config

import (
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/mqtt"
)

// A rule blames its path ("*" every map key, "[*]" every list element) when
// check fails; a nil pointer is unset. TestConfigRules breaks every rule.
type rule struct {
	path  string
	check check
}

// check returns what is wrong with a field, or "" when it is fine.
type check func(f field) string

// field is a rule's field: path, map key (for "*"), value, and the whole config.
type field struct {
	path string
	key  string
	v    reflect.Value
	cfg  *Config
}

// configRules are the range and reference rules; each blames its path.
var configRules = []rule{
	{"engine", oneOf("react", "graph", "offline")},
	{"data_dir", notEmpty},
	{"language.default", languageCode},
	{"language.follow", oneOf("input", "session")},
	{"models.profiles.*.model", notEmpty},
	{"models.profiles.*.base_url", httpURL},
	{"models.profiles.*.temperature", between(0, 2)},
	{"models.profiles.*.max_tokens", atLeast(0)},
	{"models.profiles.*.max_retries", atLeast(0)},
	{"models.profiles.*.structured", structuredMode},
	{"models.roles.*", knownRole},
	{"models.roles.*", profileName},
	{"models.fallback[*]", profileName},
	{"models.timeouts.*", knownRole},
	{"models.breaker.failures", atLeast(0)},
	{"models.breaker.server_failures", atLeast(0)},
	{"embeddings.provider", oneOf("auto", "lexical", "openai")},
	{"embeddings.dimensions", atLeast(0)},
	{"limits.max_input_chars", atLeast(1)},
	{"limits.max_steps", atLeast(1)},
	{"limits.max_tool_calls", atLeast(1)},
	{"limits.parse_retries", atLeast(0)},
	{"turns.preemptive_attempts", atLeast(1)},
	{"speech.max_sentences", atLeast(1)},
	{"speech.max_words", atLeast(1)},
	{"memory.window", atLeast(2)},
	{"memory.stride", atLeast(1)},
	{"memory.stride", atMostField("memory.window")},
	{"memory.top_k", atLeast(0)},
	{"memory.name_high", between(0, 1)},
	{"memory.name_low", between(0, 1)},
	{"memory.name_low", atMostField("memory.name_high")},
	{"memory.conversation_limit", atLeast(0)},
	{"knowledge.top_k", atLeast(0)},
	{"visual.similarity_threshold", between(-1, 1)},
	{"visual.retrieval_alpha", between(0, 1)},
	{"mqtt.url", brokerURL},
	{"mqtt.prefix", topicPrefix},
	{"log.level", oneOf("debug", "info", "warn", "error")},
	{"log.format", oneOf("text", "json")},
}

// Validate checks the configuration once; each error names its field.
func (c *Config) Validate() error {
	var errs []error
	bad := c.blame(&errs)
	checkDurations(reflect.ValueOf(*c), "", bad)
	for _, r := range configRules {
		for _, f := range fieldsAt(c, r.path) {
			if msg := r.check(f); msg != "" {
				bad(f.path, "%s", msg)
			}
		}
	}
	c.validateFiller(bad)
	c.validateFailover(bad)
	c.validatePrivacy(bad)
	c.validateBroker(bad)
	c.validateInbound(bad)
	c.validateTurns(bad)
	c.validatePersona(bad)
	c.validateStore(bad)
	c.validateRobots(bad)
	c.validateTelemetry(bad)
	return errors.Join(errs...)
}

// fieldsAt returns the fields of c at a rule's path, map keys sorted; it
// panics on a path that names no field (TestConfigRules runs every rule).
func fieldsAt(c *Config, path string) []field {
	cur := []field{{v: reflect.ValueOf(c).Elem(), cfg: c}}
	for _, seg := range strings.Split(path, ".") {
		list := strings.HasSuffix(seg, "[*]")
		seg = strings.TrimSuffix(seg, "[*]")
		var next []field
		for _, f := range cur {
			next = append(next, step(f, seg)...)
		}
		if list {
			var elems []field
			for _, f := range next {
				for i := 0; i < f.v.Len(); i++ {
					elems = append(elems, field{path: fmt.Sprintf("%s[%d]", f.path, i), key: f.key, v: f.v.Index(i), cfg: c})
				}
			}
			next = elems
		}
		cur = next
	}
	out := cur[:0]
	for _, f := range cur {
		if f.v.Kind() == reflect.Pointer {
			if f.v.IsNil() {
				continue
			}
			f.v = f.v.Elem()
		}
		out = append(out, f)
	}
	return out
}

// step goes one segment down: a struct field, or every map entry for "*".
func step(f field, seg string) []field {
	v := f.v
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	if seg == "*" {
		if v.Kind() != reflect.Map {
			panic("config rule: * on a " + v.Type().String() + " at " + f.path)
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		out := make([]field, 0, len(keys))
		for _, k := range keys {
			out = append(out, field{path: join(f.path, k.String()), key: k.String(), v: v.MapIndex(k), cfg: f.cfg})
		}
		return out
	}
	if v.Kind() == reflect.Struct {
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			if yamlName(t.Field(i)) == seg {
				return []field{{path: join(f.path, seg), key: f.key, v: v.Field(i), cfg: f.cfg}}
			}
		}
	}
	panic("config rule: no field " + seg + " under " + f.path)
}

// number returns a numeric field's value.
func number(v reflect.Value) (float64, bool) {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(v.Int()), true
	case reflect.Float32, reflect.Float64:
		return v.Float(), true
	}
	return 0, false
}

func format(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// between wants a number from lo to hi.
func between(lo, hi float64) check {
	return func(f field) string {
		if n, ok := number(f.v); ok && (n < lo || n > hi) {
			return fmt.Sprintf("%s is not between %s and %s", format(n), format(lo), format(hi))
		}
		return ""
	}
}

// atLeast wants a number of lo or more.
func atLeast(lo float64) check {
	return func(f field) string {
		if n, ok := number(f.v); ok && n < lo {
			if lo == 0 {
				return fmt.Sprintf("%s is negative", format(n))
			}
			return fmt.Sprintf("%s is below %s", format(n), format(lo))
		}
		return ""
	}
}

// atMostField wants a number no larger than the field at other.
func atMostField(other string) check {
	return func(f field) string {
		o := fieldsAt(f.cfg, other)
		if len(o) != 1 {
			return ""
		}
		n, ok1 := number(f.v)
		m, ok2 := number(o[0].v)
		if ok1 && ok2 && n > m {
			return fmt.Sprintf("%s is above %s (%s)", format(n), other, format(m))
		}
		return ""
	}
}

// oneOf wants one of the given words.
func oneOf(words ...string) check {
	return func(f field) string {
		s := f.v.String()
		for _, w := range words {
			if s == w {
				return ""
			}
		}
		return fmt.Sprintf("%q is not %s%s", s, orList(words), DidYouMean(s, words))
	}
}

// structuredMode checks a profile's structured mode; unset is auto.
func structuredMode(f field) string {
	if f.v.String() == "" {
		return ""
	}
	return oneOf(string(nadine.StructuredAuto), string(nadine.StructuredJSONSchema), string(nadine.StructuredTools), string(nadine.StructuredText))(f)
}

// orList writes "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

func notEmpty(f field) string {
	if strings.TrimSpace(f.v.String()) == "" {
		return "must not be empty"
	}
	return ""
}

func languageCode(f field) string {
	if _, err := nadine.ParseLanguage(f.v.String()); err != nil {
		return err.Error()
	}
	return ""
}

func httpURL(f field) string {
	s := f.v.String()
	if u, err := url.Parse(s); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Sprintf("must be an http(s) URL, not %q", RedactURL(s))
	}
	return ""
}

// brokerURL wants a URL the bus accepts, or none (the embedded broker).
func brokerURL(f field) string {
	s := f.v.String()
	if s == "" {
		return ""
	}
	if err := mqtt.CheckURL(s); err != nil {
		return fmt.Sprintf("must look like mqtt://host:1883, not %q: %v", RedactURL(s), err)
	}
	return ""
}

// topicPrefix wants a prefix the bus accepts (mqtt.CheckPrefix).
func topicPrefix(f field) string {
	s := f.v.String()
	if err := mqtt.CheckPrefix(s); err != nil {
		return fmt.Sprintf("must be a topic prefix without wildcards or empty levels, not %q: %v", s, err)
	}
	return ""
}

// knownRole wants a map key that is a model role.
func knownRole(f field) string {
	for _, r := range roleNames {
		if f.key == r {
			return ""
		}
	}
	return "unknown role" + DidYouMean(f.key, roleNames) + " (known: " + strings.Join(roleNames, ", ") + ")"
}

// profileName wants the name of a configured profile.
func profileName(f field) string {
	s := f.v.String()
	if _, ok := f.cfg.Models.Profiles[s]; ok {
		return ""
	}
	known := make([]string, 0, len(f.cfg.Models.Profiles))
	for n := range f.cfg.Models.Profiles {
		known = append(known, n)
	}
	sort.Strings(known)
	return fmt.Sprintf("no profile named %q%s (profiles: %s)", s, DidYouMean(s, known), strings.Join(known, ", "))
}

// Field is a field by YAML path, for tests that set each one to hostile values.
type Field struct {
	Path  string
	Value reflect.Value
}

// Paths lists every field's YAML path, maps and lists written "*" and "[*]".
func Paths() []string { return configPaths(reflect.TypeOf(Config{}), "") }

// Fields returns the fields at a path of Paths, one per map key and list
// element, unset pointers left out; it panics on an unknown path.
func (c *Config) Fields(path string) []Field {
	fs := fieldsAt(c, path)
	out := make([]Field, len(fs))
	for i, f := range fs {
		out[i] = Field{Path: f.path, Value: f.v}
	}
	return out
}
