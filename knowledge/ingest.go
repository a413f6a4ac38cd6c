package knowledge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ledongthuc/pdf"

	"github.com/nadine-robot/nadine"
)

// DefaultBatchSize is how many texts go in one Embed call.
const DefaultBatchSize = 32

// maxFileBytes caps the size of one ingested file.
const maxFileBytes = 64 << 20

// Metadata keys of knowledge chunks.
const (
	MetaVisual        = "visual"
	MetaVisualCaption = "visual_caption"
	MetaPage          = "page"
)

// Ingester builds knowledge chunks from files. Its zero value, with Store
// and Embedder set, is ready to use.
type Ingester struct {
	Store    nadine.KnowledgeStore
	Embedder nadine.Embedder
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
}

// Ingest ingests the files under dir with a default Ingester. See
// Ingester.Ingest.
func Ingest(ctx context.Context, store nadine.KnowledgeStore, emb nadine.Embedder, dir string) (int, error) {
	return (&Ingester{Store: store, Embedder: emb}).Ingest(ctx, dir)
}

// IngestFS ingests the files under root in fsys with a default Ingester.
// See Ingester.IngestFS.
func IngestFS(ctx context.Context, store nadine.KnowledgeStore, emb nadine.Embedder, fsys fs.FS, root string) (int, error) {
	return (&Ingester{Store: store, Embedder: emb}).IngestFS(ctx, fsys, root)
}

func (in *Ingester) logger() *slog.Logger {
	if in.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return in.Logger
}

// Ingest ingests every supported file under dir (recursively, skipping
// hidden files and folders) and returns how many chunks it stored. Chunk
// sources are paths relative to dir; visuals are absolute paths. A missing
// dir is an ENOTFOUND error. Files that cannot be read or parsed are
// reported in the returned error, joined, while the other files are still
// stored.
func (in *Ingester) Ingest(ctx context.Context, dir string) (int, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return 0, fmt.Errorf("knowledge: ingest %s: %w", dir, err)
	}
	st, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nadine.Errorf(nadine.ENOTFOUND, "knowledge: folder %s does not exist", dir)
	}
	if err != nil {
		return 0, fmt.Errorf("knowledge: ingest %s: %w", dir, err)
	}
	if !st.IsDir() {
		return 0, nadine.Errorf(nadine.EINVALID, "knowledge: %s is not a folder", dir)
	}
	return in.ingest(ctx, os.DirFS(abs), ".", abs)
}

// IngestFS is Ingest over a file system (such as an embed.FS): it ingests
// the files under root, with sources and visuals as slash paths within fsys.
func (in *Ingester) IngestFS(ctx context.Context, fsys fs.FS, root string) (int, error) {
	return in.ingest(ctx, fsys, root, "")
}

// ingest walks fsys; osBase, when set, is the absolute folder fsys stands
// for, used to make visual paths absolute.
func (in *Ingester) ingest(ctx context.Context, fsys fs.FS, root, osBase string) (int, error) {
	if in.Store == nil || in.Embedder == nil {
		return 0, nadine.Errorf(nadine.EINVALID, "knowledge: ingest needs a store and an embedder")
	}
	log := in.logger()
	var (
		chunks []nadine.KnowledgeChunk
		errs   []error
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
		cs, err := in.chunkFile(fsys, p, osBase)
		switch {
		case errors.Is(err, errUnsupported):
			log.Debug("knowledge: skipping unsupported file", "file", p)
		case err != nil:
			errs = append(errs, fmt.Errorf("knowledge: %s: %w", p, err))
		case len(cs) == 0:
			log.Debug("knowledge: no text in file", "file", p)
		default:
			chunks = append(chunks, cs...)
		}
		return nil
	})
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, nadine.Errorf(nadine.ENOTFOUND, "knowledge: %s does not exist", root)
		}
		return 0, fmt.Errorf("knowledge: ingest %s: %w", root, err)
	}
	if len(chunks) == 0 {
		return 0, errors.Join(errs...)
	}
	if err := in.embed(ctx, chunks); err != nil {
		return 0, err
	}
	if err := in.Store.AddKnowledge(ctx, chunks); err != nil {
		return 0, fmt.Errorf("knowledge: store %d chunks: %w", len(chunks), err)
	}
	log.Debug("knowledge: ingested", "root", root, "chunks", len(chunks), "failed_files", len(errs))
	return len(chunks), errors.Join(errs...)
}

var errUnsupported = errors.New("unsupported file type")

// chunkFile reads one file into chunks (without embeddings).
func (in *Ingester) chunkFile(fsys fs.FS, p, osBase string) ([]nadine.KnowledgeChunk, error) {
	ext := strings.ToLower(path.Ext(p))
	switch ext {
	case ".md", ".markdown", ".txt", ".pdf":
	default:
		return nil, errUnsupported
	}
	b, err := readFile(fsys, p)
	if err != nil {
		return nil, err
	}
	stem := strings.TrimSuffix(path.Base(p), path.Ext(p))
	var out []nadine.KnowledgeChunk
	switch ext {
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

// resolveVisual resolves an image link of the Markdown file p: URLs and
// absolute paths are kept, relative links are joined to p's folder (and to
// osBase, to be absolute, when ingesting a folder).
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

// pdfPages extracts the plain text of each page. The PDF library reports
// some malformed input by panicking; that becomes an error.
func pdfPages(b []byte) (pages []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			pages, err = nil, fmt.Errorf("malformed PDF: %v", r)
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, err
	}
	n := r.NumPage()
	for i := 1; i <= n; i++ {
		p := r.Page(i)
		if p.V.IsNull() {
			pages = append(pages, "")
			continue
		}
		text, err := p.GetPlainText(nil)
		if err != nil {
			return nil, fmt.Errorf("page %d: %w", i, err)
		}
		pages = append(pages, text)
	}
	return pages, nil
}

// embed fills the chunks' embeddings, BatchSize texts per call.
func (in *Ingester) embed(ctx context.Context, chunks []nadine.KnowledgeChunk) error {
	batch := in.BatchSize
	if batch <= 0 {
		batch = DefaultBatchSize
	}
	name := in.Embedder.Name()
	texts := make([]string, 0, batch)
	for start := 0; start < len(chunks); start += batch {
		part := chunks[start:min(start+batch, len(chunks))]
		texts = texts[:0]
		for _, c := range part {
			texts = append(texts, c.Text)
		}
		vs, err := in.Embedder.Embed(ctx, texts)
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
