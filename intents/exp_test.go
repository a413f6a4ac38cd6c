package intents

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
)

func loadNadine(t testing.TB) *Set {
	var s Set
	for _, l := range nadine.Languages() {
		b, err := os.ReadFile("../offline/examples/" + string(l) + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Parse(l, string(b)); err != nil {
			t.Fatal(err)
		}
	}
	return &s
}

func TestExperiment(t *testing.T) {
	if os.Getenv("EXP") == "" {
		t.Skip()
	}
	s := loadNadine(t)
	start := time.Now()
	m, err := Train(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("train", time.Since(start), "features", m.Size(), "labels", len(m.labels), "examples", len(s.Examples))
	for _, q := range []string{"Which professor led the team that built you?", "你是在哪里被制造的？", "Moi, c'est Julien.", "Ich bin die Anna.",
		"Have you got the time?", "do you remember my name", "我…很伤心", "Please forget everything about me", "what is the capital of peru", "I'm tired", "I'm Zoltan"} {
		r := m.Classify(q)
		fmt.Printf("%-50q %v %v\n", q, r.Labels[:3], r.Languages[0])
	}
	start = time.Now()
	var o Options
	if v := os.Getenv("EPOCHS"); v != "" {
		o.Epochs, _ = strconv.Atoi(v)
	}
	if v := os.Getenv("VARIANTS"); v != "" {
		o.Variants, _ = strconv.Atoi(v)
	}
	if v := os.Getenv("RATE"); v != "" {
		o.Rate, _ = strconv.ParseFloat(v, 64)
	}
	if v := os.Getenv("L2"); v != "" {
		o.L2, _ = strconv.ParseFloat(v, 64)
	}
	if v := os.Getenv("DROPOUT"); v != "" {
		o.Dropout, _ = strconv.ParseFloat(v, 64)
	}
	if v := os.Getenv("GRAM"); v != "" {
		o.Weights = DefaultWeights
		o.Weights.MaxGram, _ = strconv.Atoi(v)
	}
	if v := os.Getenv("WB"); v != "" {
		if o.Weights == (Weights{}) {
			o.Weights = DefaultWeights
		}
		o.Weights.Bigrams, _ = strconv.ParseFloat(v, 64)
	}
	if v := os.Getenv("WC"); v != "" {
		if o.Weights == (Weights{}) {
			o.Weights = DefaultWeights
		}
		o.Weights.Chars, _ = strconv.ParseFloat(v, 64)
	}
	preds, err := CrossValidate(s, o, 4)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("cv", time.Since(start))
	var ths []float64
	for x := 0.0; x <= 0.9; x += 0.05 {
		ths = append(ths, x)
	}
	coarse := func(l string) string {
		if i := strings.IndexByte(l, '.'); i > 0 && !strings.HasPrefix(l, "persona") && !strings.HasPrefix(l, "feeling") {
			return l[:i]
		}
		return l
	}
	for _, p := range Sweep(preds, "none", ths, coarse) {
		fmt.Printf("%.2f acc %.3f in %.3f out %.3f\n", p.Threshold, p.Accuracy, p.InScope, p.OutOfScope)
	}
	c := Confusion{}
	langOK := 0
	for _, p := range preds {
		c.Add(coarse(p.Example.Label), coarse(Decide(p.Got, 0.2, "none")))
		if p.Language == p.Example.Lang {
			langOK++
		}
	}
	fmt.Println("lang acc", float64(langOK)/float64(len(preds)))
	n := 0
	for i, p := range preds {
		if p.Got.Label != p.Example.Label && i%7 == 0 && n < 60 {
			n++
			fmt.Printf("  %-40q want %s got %s %.2f\n", p.Text, p.Example.Label, p.Got.Label, p.Got.Prob)
		}
	}
	ms := c.Mistakes()
	if len(ms) > 40 {
		ms = ms[:40]
	}
	for _, m := range ms {
		fmt.Println(m)
	}
}

func TestTrainTime(t *testing.T) {
	if os.Getenv("EXP") == "" {
		t.Skip()
	}
	s := loadNadine(t)
	start := time.Now()
	m, _ := Train(s, Options{})
	fmt.Println("train", time.Since(start), m.Size())
}
