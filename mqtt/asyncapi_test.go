package mqtt_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/mqtt"
)

const specPath = "../docs/asyncapi.yaml"

// spec is the parsed AsyncAPI document.
type spec map[string]any

func loadSpec(t *testing.T) spec {
	t.Helper()
	data, err := os.ReadFile(specPath)
	if err != nil {
		t.Fatalf("read spec: %v", err)
	}
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		t.Fatalf("spec is not valid YAML: %v", err)
	}
	return spec(m)
}

// resolve follows a local "$ref" ("#/components/messages/speech").
func (s spec) resolve(t *testing.T, ref string) map[string]any {
	t.Helper()
	path, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		t.Fatalf("non-local $ref %q", ref)
	}
	var cur any = map[string]any(s)
	for _, part := range strings.Split(path, "/") {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			t.Fatalf("$ref %q: %q is not inside an object", ref, part)
		}
		if cur, ok = m[part]; !ok {
			t.Fatalf("$ref %q: no %q", ref, part)
		}
	}
	m, ok := cur.(map[string]any)
	if !ok {
		t.Fatalf("$ref %q is not an object", ref)
	}
	return s.deref(t, m)
}

// deref returns the object m refers to when m is {"$ref": ...}, else m.
func (s spec) deref(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	if ref, ok := m["$ref"].(string); ok {
		return s.resolve(t, ref)
	}
	return m
}

func obj(t *testing.T, v any, what string) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s: want an object, got %T", what, v)
	}
	return m
}

// channelKey returns the key of the channel whose address is
// "{prefix}/<rel>".
func (s spec) channelKey(t *testing.T, rel string) string {
	t.Helper()
	for key, c := range obj(t, s["channels"], "channels") {
		if obj(t, c, key)["address"] == "{prefix}/"+rel {
			return key
		}
	}
	t.Fatalf("no channel with address {prefix}/%s in %s", rel, specPath)
	return ""
}

// operation is one operation of the document, resolved.
type operation struct {
	name, action, rel string
	messages          []map[string]any
	binding           map[string]any
}

func (s spec) operations(t *testing.T) []operation {
	t.Helper()
	var ops []operation
	for name, v := range obj(t, s["operations"], "operations") {
		o := obj(t, v, name)
		ch := s.deref(t, obj(t, o["channel"], name+".channel"))
		rel, ok := strings.CutPrefix(ch["address"].(string), "{prefix}/")
		if !ok {
			t.Fatalf("operation %s: channel address %v lacks the {prefix} parameter", name, ch["address"])
		}
		op := operation{name: name, action: o["action"].(string), rel: rel}
		bindings := s.deref(t, obj(t, o["bindings"], name+".bindings"))
		op.binding = obj(t, bindings["mqtt"], name+".bindings.mqtt")
		msgs, _ := o["messages"].([]any)
		if len(msgs) == 0 {
			t.Fatalf("operation %s has no messages", name)
		}
		for _, m := range msgs {
			op.messages = append(op.messages, s.deref(t, obj(t, m, name+".messages")))
		}
		ops = append(ops, op)
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].name < ops[j].name })
	return ops
}

// topicConstants returns the values of the package's Topic* constants,
// read from its source so that a new constant cannot be forgotten.
func topicConstants(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]string{}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, sp := range gd.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if !strings.HasPrefix(n.Name, "Topic") || i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						t.Fatalf("%s is not a string literal", n.Name)
					}
					v, _ := strconv.Unquote(lit.Value)
					consts[n.Name] = v
				}
			}
		}
	}
	if len(consts) == 0 {
		t.Fatal("no Topic constants found")
	}
	return consts
}

func TestAsyncAPI_MatchesTopics(t *testing.T) {
	s := loadSpec(t)
	if got, want := s["asyncapi"], "3.0.0"; got != want {
		t.Fatalf("asyncapi = %v, want %v", got, want)
	}
	consts := topicConstants(t)

	// Every constant is in the Inbound or Outbound list, and vice versa.
	listed := append(mqtt.InboundTopics(), mqtt.OutboundTopics()...)
	for name, v := range consts {
		if !slices.Contains(listed, v) {
			t.Errorf("%s = %q is in neither InboundTopics nor OutboundTopics", name, v)
		}
	}
	if got, want := len(listed), len(consts); got != want {
		t.Errorf("InboundTopics+OutboundTopics list %d topics, the package declares %d constants", got, want)
	}

	// Every constant has a channel, and every channel is a constant.
	addresses := map[string]bool{}
	for key, c := range obj(t, s["channels"], "channels") {
		ch := obj(t, c, key)
		addr, _ := ch["address"].(string)
		addresses[addr] = true
		params := obj(t, ch["parameters"], key+".parameters")
		if _, ok := params["prefix"]; !ok {
			t.Errorf("channel %s does not declare the prefix parameter", key)
		}
		if msgs := obj(t, ch["messages"], key+".messages"); len(msgs) == 0 {
			t.Errorf("channel %s has no messages", key)
		}
		for name, m := range obj(t, ch["messages"], key+".messages") {
			msg := s.deref(t, obj(t, m, key+"."+name))
			if _, ok := msg["payload"]; !ok {
				t.Errorf("message %s of channel %s has no payload schema", name, key)
			}
			if ex, _ := msg["examples"].([]any); len(ex) == 0 {
				t.Errorf("message %s of channel %s has no example", name, key)
			}
		}
	}
	for name, v := range consts {
		if !addresses["{prefix}/"+v] {
			t.Errorf("%s = %q has no channel with address {prefix}/%s in %s", name, v, v, specPath)
		}
	}
	if got, want := len(addresses), len(consts); got != want {
		t.Errorf("%s has %d channels, the package declares %d topics", specPath, got, want)
	}

	// Directions and QoS.
	ops := s.operations(t)
	seen := map[string]string{}
	for _, op := range ops {
		want := "send"
		if slices.Contains(mqtt.InboundTopics(), op.rel) {
			want = "receive"
		}
		if op.action != want {
			t.Errorf("operation %s on %s: action %q, want %q", op.name, op.rel, op.action, want)
		}
		if got := op.binding["qos"]; got != 1 {
			t.Errorf("operation %s: qos %v, want 1", op.name, got)
		}
		wantRetain := op.rel == mqtt.TopicSTTLanguage
		if got := op.binding["retain"]; got != wantRetain {
			t.Errorf("operation %s: retain %v, want %v", op.name, got, wantRetain)
		}
		seen[op.rel] = op.action
	}
	for _, v := range listed {
		if _, ok := seen[v]; !ok {
			t.Errorf("topic %q has no operation", v)
		}
	}
}

// inboundExample is an example payload of a receive operation.
type inboundExample struct {
	rel, name string
	payload   []byte
	ignored   bool // nadine drops it on purpose (x-ignored)
}

// inboundExamples returns the examples of every message nadine receives.
func (s spec) inboundExamples(t *testing.T) []inboundExample {
	t.Helper()
	var out []inboundExample
	for _, op := range s.operations(t) {
		if op.action != "receive" {
			continue
		}
		for _, m := range op.messages {
			for _, e := range m["examples"].([]any) {
				ex := obj(t, e, op.name+" example")
				var payload []byte
				switch p := ex["payload"].(type) {
				case string:
					payload = []byte(p)
				default:
					b, err := json.Marshal(p)
					if err != nil {
						t.Fatalf("%s example %v: %v", op.name, ex["name"], err)
					}
					payload = b
				}
				ignored, _ := ex["x-ignored"].(bool)
				out = append(out, inboundExample{rel: op.rel, name: op.name + "/" + ex["name"].(string), payload: payload, ignored: ignored})
			}
		}
	}
	return out
}

// checkOutbound checks that a JSON payload nadine published on rel has
// exactly the fields the document's schema declares: all required ones,
// none undeclared.
func (s spec) checkOutbound(t *testing.T, rel string, payload []byte) {
	t.Helper()
	var got map[string]any
	if err := json.Unmarshal(payload, &got); err != nil {
		t.Errorf("%s: payload is not a JSON object: %v", rel, err)
		return
	}
	ch := obj(t, obj(t, s["channels"], "channels")[s.channelKey(t, rel)], rel)
	for _, m := range obj(t, ch["messages"], rel+".messages") {
		schema := s.deref(t, obj(t, s.deref(t, obj(t, m, rel))["payload"], rel+".payload"))
		props := obj(t, schema["properties"], rel+".properties")
		for k := range got {
			if _, ok := props[k]; !ok {
				t.Errorf("%s: field %q is not in %s", rel, k, specPath)
			}
		}
		req, _ := schema["required"].([]any)
		for _, r := range req {
			if _, ok := got[r.(string)]; !ok {
				t.Errorf("%s: required field %q missing from the payload", rel, r)
			}
		}
	}
}

// TestSpeakFiller publishes a filler line and checks what control receives
// against the document: "filler": true in the JSON (absent on sentences),
// the user property filler=true on the plain-text mirror, the fields of the
// document's filler example; a filler cannot end a turn.
func TestSpeakFiller(t *testing.T) {
	s := loadSpec(t)
	broker := startBroker(t, "127.0.0.1:0")
	b := connect(t, testOptions(broker.URL(), &logs{}))
	control := newPeer(t, hostPort(broker.URL()), controlFilters(b.Prefix())...)
	ctx := t.Context()

	// The document's filler example, published by Speak, gives the same
	// JSON.
	var example map[string]any
	msg := s.resolve(t, "#/components/messages/speech")
	for _, e := range msg["examples"].([]any) {
		if ex := obj(t, e, "speech example"); ex["name"] == "filler" {
			example = obj(t, ex["payload"], "filler example payload")
		}
	}
	if example == nil {
		t.Fatalf("%s has no filler example for the speech message", specPath)
	}
	speech := nadine.Speech{Text: example["text"].(string), Language: nadine.Language(example["language"].(string)),
		Seq: example["seq"].(int), TurnID: example["turn_id"].(string), Filler: true}
	if err := b.Speak(ctx, speech); err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(example)
	if err != nil {
		t.Fatal(err)
	}
	got := control.Next()
	var gotJSON, wantJSON map[string]any
	_ = json.Unmarshal(got.Payload, &gotJSON)
	_ = json.Unmarshal(want, &wantJSON)
	if !reflect.DeepEqual(gotJSON, wantJSON) {
		t.Errorf("filler payload %s, want the document's example %s", got.Payload, want)
	}
	checkReceived(t, s, got, b.Prefix(), outboundWant{mqtt.TopicSpeak,
		`{"text":"Je regarde ça pour toi, un instant.","language":"fr","locale":"fr-FR","seq":0,"final":false,"turn_id":"t-41","filler":true}`,
		mqtt.ContentTypeJSON, nil})
	checkReceived(t, s, control.Next(), b.Prefix(), outboundWant{mqtt.TopicSpeakText, "Je regarde ça pour toi, un instant.",
		mqtt.ContentTypeText, map[string]string{"filler": "true", "seq": "0", "final": "false", "locale": "fr-FR"}})

	// The reply's sentences carry neither the field nor the property.
	if err := b.Speak(ctx, nadine.Speech{Text: "Il fait beau.", Language: nadine.French, Seq: 1, TurnID: "t-41"}); err != nil {
		t.Fatal(err)
	}
	checkReceived(t, s, control.Next(), b.Prefix(), outboundWant{mqtt.TopicSpeak,
		`{"text":"Il fait beau.","language":"fr","locale":"fr-FR","seq":1,"final":false,"turn_id":"t-41"}`, mqtt.ContentTypeJSON, nil})
	if p := control.Next(); p.Properties != nil && p.Properties.User.Get("filler") != "" {
		t.Errorf("a sentence carries the filler property %q", p.Properties.User.Get("filler"))
	}

	err = b.Speak(ctx, nadine.Speech{Text: "One moment.", Final: true, Filler: true})
	if nadine.ErrorCode(err) != nadine.EINVALID {
		t.Errorf("a final filler: %v, want EINVALID", err)
	}
}
