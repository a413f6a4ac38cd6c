package knowledge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nadine-robot/nadine"
)

// DefaultBatchSize is how many texts go in one Embed call.
const DefaultBatchSize = 32

// maxFileBytes caps the size of one ingested file.
const maxFileBytes = 64 << 20

// Metadata keys of knowledge chunks.
const (
	MetaVisual        = nadine.KnowledgeMetaVisual
	MetaVisualCaption = nadine.KnowledgeMetaVisualCaption
	MetaPage          = "page"
)

// Ingester builds knowledge chunks from files. Its zero value, with Store
// and Embedder set, is ready to use.
type Ingester struct {
	Store    nadine.KnowledgeStore
	Embedder nadine.Embedder
	// Also stores every chunk once more per embedder, under the same source
	// (the offline engine's lexical space beside a model's).
	Also []nadine.Embedder
	// Logger receives a debug line per skipped file (slog.DiscardHandler
	// when nil).
	Logger *slog.Logger
	// BatchSize is how many texts go in one Embed call (DefaultBatchSize
	// when zero or less).
	BatchSize int
	// MaxSectionChars bounds Markdown sections (DefaultMaxSectionChars when
	// zero or less).
	MaxSectionChars int
	// MaxGroupChars bounds the paragraph groups of plain text and PDF
	// (DefaultMaxGroupChars when zero or less).
	MaxGroupChars int
	// Builtin records the sources as built-in documents (EnsureDefault and
	// Rebuild set it for the documents embedded in the binary).
	Builtin bool
	// Force ingests every file, even one recorded with the same content
	// and embedder.
	Force bool
	// Now stamps the sources (time.Now when nil).
	Now func() time.Time
}

// Report says what an ingestion did, file by file.
type Report struct {
	Files     int // supported files read
	New       int // files not ingested before
	Changed   int // files whose content (or embedder) changed: their old chunks were replaced
	Unchanged int // files ingested before with the same content and embedder: nothing was done
	Chunks    int // chunks (sections) embedded and stored, once per space
}

// Ingest uses a default Ingester; see Ingester.Run.
func Ingest(ctx context.Context, store nadine.KnowledgeStore, emb nadine.Embedder, dir string) (int, error) {
	return (&Ingester{Store: store, Embedder: emb}).Ingest(ctx, dir)
}

// IngestFS uses a default Ingester; see Ingester.RunFS.
func IngestFS(ctx context.Context, store nadine.KnowledgeStore, emb nadine.Embedder, fsys fs.FS, root string) (int, error) {
	return (&Ingester{Store: store, Embedder: emb}).IngestFS(ctx, fsys, root)
}

func (in *Ingester) logger() *slog.Logger {
	if in.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return in.Logger
}

func (in *Ingester) now() time.Time {
	if in.Now == nil {
		return time.Now()
	}
	return in.Now()
}

// Ingest is Run, returning the number of chunks stored.
func (in *Ingester) Ingest(ctx context.Context, dir string) (int, error) {
	r, err := in.Run(ctx, dir)
	return r.Chunks, err
}

// IngestFS is RunFS, returning the number of chunks stored.
func (in *Ingester) IngestFS(ctx context.Context, fsys fs.FS, root string) (int, error) {
	r, err := in.RunFS(ctx, fsys, root)
	return r.Chunks, err
}

// Run replaces a file's chunks only when its SHA-256 or embedder changed; gone
// files keep theirs, and a failed file is reported while the others are stored.
func (in *Ingester) Run(ctx context.Context, dir string) (Report, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Report{}, fmt.Errorf("knowledge: ingest %s: %w", dir, err)
	}
	st, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return Report{}, nadine.Errorf(nadine.ENOTFOUND, "knowledge: folder %s does not exist", dir)
	}
	if err != nil {
		return Report{}, fmt.Errorf("knowledge: ingest %s: %w", dir, err)
	}
	if !st.IsDir() {
		return Report{}, nadine.Errorf(nadine.EINVALID, "knowledge: %s is not a folder", dir)
	}
	return in.ingest(ctx, os.DirFS(abs), ".", abs)
}

// RunFS is Run over a file system (such as an embed.FS), keyed by slash paths
// within fsys.
func (in *Ingester) RunFS(ctx context.Context, fsys fs.FS, root string) (Report, error) {
	return in.ingest(ctx, fsys, root, "")
}

// ingest walks fsys; osBase, when set, is the absolute folder fsys stands
// for, used to key sources and make visual paths absolute.
func (in *Ingester) ingest(ctx context.Context, fsys fs.FS, root, osBase string) (Report, error) {
	if in.Store == nil || in.Embedder == nil {
		return Report{}, nadine.Errorf(nadine.EINVALID, "knowledge: ingest needs a store and an embedder")
	}
	known, err := in.Store.KnowledgeSources(ctx)
	if err != nil {
		return Report{}, fmt.Errorf("knowledge: sources: %w", err)
	}
	docs, rep, errs, err := in.collect(ctx, fsys, root, osBase, known)
	if err != nil {
		return Report{}, err
	}
	rep.Chunks = chunkCount(docs) // sections, whatever the number of spaces
	if err := in.store(ctx, docs); err != nil {
		return Report{}, err
	}
	in.logger().Debug("knowledge: ingested", "root", root, "files", rep.Files, "new", rep.New, "changed", rep.Changed,
		"unchanged", rep.Unchanged, "chunks", rep.Chunks, "failed_files", len(errs))
	return rep, errors.Join(errs...)
}

// collect reads the files under root into documents (without embeddings),
// leaving out those known with the same content and embedder.
func (in *Ingester) collect(ctx context.Context, fsys fs.FS, root, osBase string, known []nadine.KnowledgeSource) ([]nadine.KnowledgeDocument, Report, []error, error) {
	byKey := make(map[string]nadine.KnowledgeSource, len(known))
	for _, s := range known {
		byKey[s.Key] = s
	}
	log := in.logger()
	var (
		docs []nadine.KnowledgeDocument
		rep  Report
		errs []error
	)
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			errs = append(errs, fmt.Errorf("knowledge: %s: %w", p, err))
			return nil
		}
		if p != root && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if !supported(p) {
			log.Debug("knowledge: skipping unsupported file", "file", p)
			return nil
		}
		b, err := readFile(fsys, p)
		if err != nil {
			errs = append(errs, fmt.Errorf("knowledge: %s: %w", p, err))
			return nil
		}
		rep.Files++
		src := nadine.KnowledgeSource{Key: p, Name: p, Builtin: in.Builtin, Hash: contentHash(b), Ingested: in.now()}
		if osBase != "" {
			src.Key = filepath.Join(osBase, filepath.FromSlash(p))
		}
		old, seen := byKey[src.Key]
		if seen && !in.Force && old.Hash == src.Hash && old.Builtin == src.Builtin &&
			(sameSpaces(old.Embedder, in.spaces()) || old.Chunks == 0) {
			rep.Unchanged++
			return nil
		}
		cs, err := in.chunkFile(fsys, p, b, osBase)
		if err != nil {
			errs = append(errs, fmt.Errorf("knowledge: %s: %w", p, err))
			return nil
		}
		if len(cs) == 0 {
			log.Debug("knowledge: no text in file", "file", p)
		}
		doc := nadine.KnowledgeDocument{Source: src, Chunks: cs}
		// Chunks stored before sources were recorded sit under their
		// Source, with no hash: this file supersedes them.
		if legacy, ok := byKey[p]; ok && p != src.Key && legacy.Hash == "" && !legacy.Builtin {
			doc.Replaces = []string{p}
			seen = true
		}
		if seen {
			rep.Changed++
		} else {
			rep.New++
		}
		docs = append(docs, doc)
		return nil
	})
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, Report{}, nil, nadine.Errorf(nadine.ENOTFOUND, "knowledge: %s does not exist", root)
		}
		return nil, Report{}, nil, fmt.Errorf("knowledge: ingest %s: %w", root, err)
	}
	return docs, rep, errs, nil
}

// store embeds the documents' chunks (in every space) and stores them in
// one PutKnowledge: an embedder or store failure stores nothing.
func (in *Ingester) store(ctx context.Context, docs []nadine.KnowledgeDocument) error {
	if len(docs) == 0 {
		return nil
	}
	for i := range docs {
		cs, err := in.embed(ctx, docs[i].Chunks)
		if err != nil {
			return err
		}
		docs[i].Chunks = cs
	}
	all := chunkCount(docs)
	if err := in.Store.PutKnowledge(ctx, docs); err != nil {
		return fmt.Errorf("knowledge: store %d chunks of %d files: %w", all, len(docs), err)
	}
	return nil
}

func chunkCount(docs []nadine.KnowledgeDocument) int {
	n := 0
	for _, d := range docs {
		n += len(d.Chunks)
	}
	return n
}

// contentHash is "sha256:<hex>" of b.
func contentHash(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// supported reports whether Ingest reads files with p's extension.
func supported(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".txt", ".pdf":
		return true
	}
	return false
}

// chunkFile splits one file's content into chunks (without embeddings).
func (in *Ingester) chunkFile(fsys fs.FS, p string, b []byte, osBase string) ([]nadine.KnowledgeChunk, error) {
	stem := strings.TrimSuffix(path.Base(p), path.Ext(p))
	var out []nadine.KnowledgeChunk
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown":
		for _, s := range SplitMarkdown(stem, string(b), in.MaxSectionChars) {
			c := nadine.KnowledgeChunk{Source: p, Title: s.Title, Text: s.Text}
			if s.Visual != "" {
				c.Metadata = map[string]string{MetaVisual: resolveVisual(fsys, p, osBase, s.Visual, in.logger())}
				if s.VisualCaption != "" {
					c.Metadata[MetaVisualCaption] = s.VisualCaption
				}
			}
			out = append(out, c)
		}
	case ".txt":
		for _, t := range SplitParagraphs(string(b), in.MaxGroupChars) {
			out = append(out, nadine.KnowledgeChunk{Source: p, Title: stem, Text: t})
		}
	case ".pdf":
		pages, err := pdfPages(b)
		if err != nil {
			return nil, fmt.Errorf("read PDF: %w", err)
		}
		for i, page := range pages {
			n := strconv.Itoa(i + 1)
			for _, t := range SplitParagraphs(page, in.MaxGroupChars) {
				out = append(out, nadine.KnowledgeChunk{
					Source: p, Title: stem + ", page " + n, Text: t,
					Metadata: map[string]string{MetaPage: n},
				})
			}
		}
	}
	return out, nil
}

func readFile(fsys fs.FS, p string) ([]byte, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxFileBytes {
		return nil, fmt.Errorf("larger than %d bytes", maxFileBytes)
	}
	return b, nil
}

// resolveVisual keeps URLs and absolute paths, and makes relative links
// absolute (via osBase) when ingesting a folder.
func resolveVisual(fsys fs.FS, p, osBase, link string, log *slog.Logger) string {
	if strings.Contains(link, "://") || strings.HasPrefix(link, "data:") || path.IsAbs(link) || filepath.IsAbs(link) {
		return link
	}
	rel := path.Join(path.Dir(p), link)
	if _, err := fs.Stat(fsys, rel); err != nil {
		log.Debug("knowledge: visual not found", "file", p, "visual", link)
	}
	if osBase != "" {
		return filepath.Join(osBase, filepath.FromSlash(rel))
	}
	return rel
}

// spaces names the embedders the chunks are stored with.
func (in *Ingester) spaces() []string {
	out := []string{in.Embedder.Name()}
	for _, e := range in.Also {
		if e != nil && !slices.Contains(out, e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

// sameSpaces reports whether a source's embedders (as the store lists
// them, joined with ",") are exactly want.
func sameSpaces(stored string, want []string) bool {
	have := strings.Split(stored, ",")
	if len(have) != len(want) {
		return false
	}
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

// embed fills the chunks' embeddings with the Embedder, and adds a copy of
// each chunk per embedder of Also, embedded by it.
func (in *Ingester) embed(ctx context.Context, chunks []nadine.KnowledgeChunk) ([]nadine.KnowledgeChunk, error) {
	if err := embedWith(ctx, in.Embedder, in.BatchSize, chunks); err != nil {
		return nil, err
	}
	out := chunks
	seen := []string{in.Embedder.Name()}
	for _, e := range in.Also {
		if e == nil || slices.Contains(seen, e.Name()) {
			continue
		}
		seen = append(seen, e.Name())
		cp := slices.Clone(chunks)
		if err := embedWith(ctx, e, in.BatchSize, cp); err != nil {
			return nil, err
		}
		out = append(out, cp...)
	}
	return out, nil
}

// embedWith fills the chunks' embeddings with emb, batch texts per call.
func embedWith(ctx context.Context, emb nadine.Embedder, batch int, chunks []nadine.KnowledgeChunk) error {
	if batch <= 0 {
		batch = DefaultBatchSize
	}
	name := emb.Name()
	texts := make([]string, 0, batch)
	for start := 0; start < len(chunks); start += batch {
		part := chunks[start:min(start+batch, len(chunks))]
		texts = texts[:0]
		for _, c := range part {
			texts = append(texts, c.Text)
		}
		vs, err := emb.Embed(ctx, texts)
		if err != nil {
			return fmt.Errorf("knowledge: embed chunks %d-%d: %w", start, start+len(part)-1, err)
		}
		if len(vs) != len(part) {
			return nadine.Errorf(nadine.EBADOUTPUT, "knowledge: embedder %s returned %d vectors for %d texts", name, len(vs), len(part))
		}
		for i := range part {
			part[i].Embedding, part[i].Embedder = vs[i], name
		}
	}
	return nil
}
