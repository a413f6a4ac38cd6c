//go:build ignore

// gen.go writes ngrams.gz, the character n-gram tables of the Latin-script
// languages, from lingua-go's published language models (Apache License
// 2.0, github.com/pemistahl/lingua-go, language-models/{en,fr,de}/
// {uni,bi,tri}grams.pb.bin.zip). Run it with `go generate` in this
// directory; the module must be in the module cache (it is required by
// go.mod for the comparison test).
//
// Each line of the (gzipped, sorted) output is
//
//	<ngram> <en> <fr> <de>
//
// where a value is −ln(p) × 8 rounded to an integer in 1..255 (p is the
// conditional probability of the n-gram's last letter given the letters
// before it, or the letter's frequency for unigrams), and 0 means the
// language's model does not have the n-gram.
package main

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pemistahl/lingua-go/serialization"
	"google.golang.org/protobuf/proto"
)

const module = "github.com/pemistahl/lingua-go"

func main() {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output()
	if err != nil {
		log.Fatalf("gen: locate %s: %v", module, err)
	}
	dir := strings.TrimSpace(string(out))
	langs := []string{"en", "fr", "de"}
	table := map[string][]int{}
	for li, lang := range langs {
		for _, order := range []string{"unigram", "bigram", "trigram"} {
			m, err := readModel(filepath.Join(dir, "language-models", lang, order+"s.pb.bin.zip"))
			if err != nil {
				log.Fatalf("gen: %s %s: %v", lang, order, err)
			}
			for _, set := range m.NgramSets {
				q := int(math.Round(-math.Log(set.Probability) * 8))
				q = max(1, min(255, q))
				for _, g := range set.Ngrams {
					v, ok := table[g]
					if !ok {
						v = make([]int, len(langs))
						table[g] = v
					}
					v[li] = q
				}
			}
		}
	}
	keys := make([]string, 0, len(table))
	for k := range table {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var text bytes.Buffer
	for _, k := range keys {
		v := table[k]
		fmt.Fprintf(&text, "%s %d %d %d\n", k, v[0], v[1], v[2])
	}
	var gz bytes.Buffer
	w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	w.Write(text.Bytes())
	if err := w.Close(); err != nil {
		log.Fatalf("gen: compress: %v", err)
	}
	if err := os.WriteFile("ngrams.gz", gz.Bytes(), 0o644); err != nil {
		log.Fatalf("gen: %v", err)
	}
	log.Printf("gen: %d n-grams, %d bytes of text, %d bytes gzipped", len(keys), text.Len(), gz.Len())
}

func readModel(path string) (*serialization.SerializableLanguageModel, error) {
	z, err := zip.OpenReader(path)
	if err != nil {
		return nil, err
	}
	defer z.Close()
	if len(z.File) != 1 {
		return nil, fmt.Errorf("%d files in zip, want 1", len(z.File))
	}
	f, err := z.File[0].Open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	var m serialization.SerializableLanguageModel
	if err := proto.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	return &m, nil
}
