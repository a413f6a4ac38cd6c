package lexical_test

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine/lexical"
)

func cos(a, b []float32) float64 {
	var d float64
	for i := range a {
		d += float64(a[i]) * float64(b[i])
	}
	return d
}

func embed(t testing.TB, e *lexical.Embedder, texts ...string) [][]float32 {
	t.Helper()
	v, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(v) != len(texts) {
		t.Fatalf("got %d vectors for %d texts", len(v), len(texts))
	}
	return v
}

func TestName(t *testing.T) {
	tests := []struct {
		dims     int
		want     string
		wantDims int
	}{
		{0, "lexical-v1-512", 512},
		{-3, "lexical-v1-512", 512},
		{256, "lexical-v1-256", 256},
	}
	for _, tt := range tests {
		e := lexical.New(tt.dims)
		if got := e.Name(); got != tt.want {
			t.Errorf("New(%d).Name() = %q, want %q", tt.dims, got, tt.want)
		}
		if got := len(e.Vector("hello there")); got != tt.wantDims {
			t.Errorf("New(%d) vector length = %d, want %d", tt.dims, got, tt.wantDims)
		}
	}
}

func TestDeterministic(t *testing.T) {
	text := "Nadine est un robot social créé à Genève. 她会说中文。"
	a := embed(t, lexical.New(0), text, text)
	b := embed(t, lexical.New(0), text)
	if !slices.Equal(a[0], a[1]) || !slices.Equal(a[0], b[0]) {
		t.Fatal("the same text gave different vectors")
	}
	if got := cos(a[0], a[0]); math.Abs(got-1) > 1e-5 {
		t.Fatalf("norm² = %v, want 1", got)
	}
}

func TestEmptyIsZero(t *testing.T) {
	for _, text := range []string{"", "   ", "?!… ---"} {
		v := lexical.New(64).Vector(text)
		if len(v) != 64 {
			t.Fatalf("len = %d, want 64", len(v))
		}
		for i, x := range v {
			if x != 0 || math.IsNaN(float64(x)) {
				t.Fatalf("Vector(%q)[%d] = %v, want 0", text, i, x)
			}
		}
	}
}

func TestAccentAndCaseFolding(t *testing.T) {
	e := lexical.New(0)
	v := embed(t, e, "GENÈVE Straße", "geneve strasse", "Ｇｅｎｅｖｅ")
	if got := cos(v[0], v[1]); got < 0.999 {
		t.Errorf("cos(GENÈVE Straße, geneve strasse) = %v, want 1", got)
	}
	if got := cos(v[2], embed(t, e, "geneve")[0]); got < 0.999 {
		t.Errorf("full-width Geneve not folded: cos = %v", got)
	}
}

// The query ranks the related sentence above unrelated ones.
func TestRanking(t *testing.T) {
	tests := []struct {
		query   string
		related string
		others  []string
	}{
		{"where do you live", "I live in Geneva", []string{"I like pizza", "The weather is nice today", "My brother plays football"}},
		{"Who built you?", "Nadine was built at Nanyang Technological University", []string{"I like pizza and pasta", "You can ask me about the weather"}},
		{"what are your hobbies", "My hobbies are hiking and painting", []string{"I work at a bank", "where do you live"}},
		{"Où habites-tu ?", "J'habite à Genève", []string{"J'aime la pizza", "Il fait beau aujourd'hui"}},
		{"Was sind deine Hobbys?", "Meine Hobbys sind Wandern und Malen", []string{"Ich arbeite bei einer Bank", "Das Wetter ist schön"}},
		{"你住在哪里？", "我住在日内瓦", []string{"我喜欢吃披萨", "今天天气很好"}},
		{"she remembers conversations", "Nadine can remember past conversations with people", []string{"Nadine can sing songs", "The robot speaks German"}},
	}
	e := lexical.New(0)
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			v := embed(t, e, append([]string{tt.query, tt.related}, tt.others...)...)
			rel := cos(v[0], v[1])
			for i, o := range tt.others {
				if s := cos(v[0], v[2+i]); s >= rel {
					t.Errorf("%q: unrelated %q scored %.3f >= related %.3f", tt.query, o, s, rel)
				}
			}
		})
	}
}

func TestCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := lexical.New(0).Embed(ctx, []string{"a"}); err == nil {
		t.Fatal("Embed with a canceled context succeeded")
	}
}

func BenchmarkEmbed(b *testing.B) {
	e := lexical.New(0)
	text := strings.Repeat("Nadine is a social humanoid robot who can recognize people, remember conversations and express emotions. ", 3)
	texts := []string{text}
	ctx := context.Background()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := e.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEmbedShort(b *testing.B) {
	e := lexical.New(0)
	texts := []string{"where do you live?"}
	ctx := context.Background()
	for b.Loop() {
		if _, err := e.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
}
