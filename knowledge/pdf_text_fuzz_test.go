package knowledge_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/nadine-robot/nadine/knowledge"
	"github.com/nadine-robot/nadine/lexical"
)

// FuzzIngestPDF feeds PDFs, whole, cut and altered, to the ingestion: a
// malformed file is an error naming it, never a panic, and every chunk it
// stores has text.
func FuzzIngestPDF(f *testing.F) {
	seeds := [][]byte{
		minimalPDF("The museum opens on Wednesday.\nTickets cost ten francs."),
		pdfWithContents("BT /F1 12 Tf 14 TL 72 720 Td (One.) Tj T* (Two.) Tj 0 -30 Td [(Three)-278(four)] TJ (five) ' ET\n"),
		pdfWithContents("BT /F1 12 Tf 1 0 0 1 72 700 Tm (Opening) Tj 1 0 0 0 130 700 Tm (hours) Tj ET\n"),
		pdfWithContents("BT /F9 12 Tf Td Tm TJ ' \" (x) Tj ET\n"),
		pdfWithContents("BT /F1 Tf [1 2 3] TJ ET\n"),
	}
	for _, s := range seeds {
		f.Add(s)
		f.Add(s[:len(s)/2])
	}
	f.Add([]byte("%PDF-1.4\n%%EOF\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		st := &memStore{}
		fsys := fstest.MapFS{"doc.pdf": {Data: data}}
		_, err := knowledge.IngestFS(context.Background(), st, lexical.New(16), fsys, ".")
		if err != nil && !strings.Contains(err.Error(), "doc.pdf") {
			t.Errorf("error does not name the file: %v", err)
		}
		for _, c := range st.all() {
			if strings.TrimSpace(c.Text) == "" {
				t.Errorf("empty chunk stored: %+v", c)
			}
		}
	})
}
