package knowledge

import (
	"bytes"
	"fmt"
	"math"
	"strings"

	"github.com/ledongthuc/pdf"
)

// pdfPages turns the PDF library's panics on malformed input into errors.
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
		pages = append(pages, pageText(p))
	}
	return pages, nil
}

// Separators pageText puts between two pieces of text.
const (
	sepNone = iota
	sepSpace
	sepLine
	sepParagraph
)

// pageWriter follows the text position because GetPlainText ignores moves:
// "Wednesday." and "Tickets" on two lines came out as "Wednesday.Tickets".
type pageWriter struct {
	b        strings.Builder
	pending  int     // separator owed before the next text
	x, y     float64 // start of the current line, in text space
	scale    float64 // vertical scale of the text matrix
	leading  float64 // TL
	size     float64 // font size (Tf)
	lastY    float64 // baseline of the last text written
	wrote    bool    // some text was written
	fonts    map[string]pdf.TextEncoding
	encoding pdf.TextEncoding
}

// rawEncoding reads codes as they are, for a font without an encoding.
type rawEncoding struct{}

func (rawEncoding) Decode(raw string) string { return raw }

func pageText(p pdf.Page) string {
	contents := p.V.Key("Contents")
	if contents.Kind() == pdf.Null {
		return ""
	}
	w := &pageWriter{scale: 1, size: 12, fonts: map[string]pdf.TextEncoding{}, encoding: rawEncoding{}}
	pdf.Interpret(contents, func(stk *pdf.Stack, op string) {
		args := make([]pdf.Value, stk.Len())
		for i := len(args) - 1; i >= 0; i-- {
			args[i] = stk.Pop()
		}
		w.op(p, op, args)
	})
	return strings.TrimSpace(w.b.String())
}

// op applies one content stream operator.
func (w *pageWriter) op(p pdf.Page, op string, args []pdf.Value) {
	num := func(i int) float64 {
		if i < len(args) {
			return args[i].Float64()
		}
		return 0
	}
	switch op {
	case "BT": // a text object starts with the identity matrix
		w.x, w.y, w.scale = 0, 0, 1
	case "Tf":
		if len(args) == 2 {
			w.encoding = w.font(p, args[0].Name())
			w.size = math.Abs(num(1))
		}
	case "TL":
		w.leading = num(0)
	case "Tm":
		if len(args) == 6 {
			if d := num(3); d != 0 {
				w.scale = math.Abs(d)
			}
			w.moveTo(num(4), num(5))
		}
	case "TD":
		w.leading = -num(1)
		w.moveTo(w.x+num(0)*w.scale, w.y+num(1)*w.scale)
	case "Td":
		w.moveTo(w.x+num(0)*w.scale, w.y+num(1)*w.scale)
	case "T*":
		w.moveTo(w.x, w.y-w.leading*w.scale)
	case "'", "\"":
		w.moveTo(w.x, w.y-w.leading*w.scale)
		if len(args) > 0 {
			w.text(args[len(args)-1].RawString())
		}
	case "Tj":
		if len(args) == 1 {
			w.text(args[0].RawString())
		}
	case "TJ":
		if len(args) != 1 {
			return
		}
		a := args[0]
		for i := 0; i < a.Len(); i++ {
			v := a.Index(i)
			if v.Kind() == pdf.String {
				w.text(v.RawString())
			} else if v.Float64() < -200 {
				// A move right by a fifth of an em or more: a word gap.
				w.owe(sepSpace)
			}
		}
	}
}

// font returns the encoding of a page font, cached.
func (w *pageWriter) font(p pdf.Page, name string) pdf.TextEncoding {
	if enc, ok := w.fonts[name]; ok {
		return enc
	}
	f := p.Font(name)
	var enc pdf.TextEncoding = rawEncoding{}
	if f.V.Kind() != pdf.Null {
		if e := f.Encoder(); e != nil {
			enc = e
		}
	}
	w.fonts[name] = enc
	return enc
}

// moveTo starts a new line at (x, y) and owes the separator the move
// means relative to the last text written.
func (w *pageWriter) moveTo(x, y float64) {
	w.x, w.y = x, y
	if !w.wrote {
		return
	}
	line := w.size * w.scale
	if line <= 0 {
		line = 12
	}
	switch dy := math.Abs(w.lastY - y); {
	case dy < line*0.3:
		w.owe(sepSpace) // same baseline: the next word
	case dy > line*1.5:
		w.owe(sepParagraph)
	default:
		w.owe(sepLine)
	}
}

func (w *pageWriter) owe(sep int) {
	if sep > w.pending {
		w.pending = sep
	}
}

// text writes decoded text after the separator owed.
func (w *pageWriter) text(raw string) {
	s := w.encoding.Decode(raw)
	if s == "" {
		return
	}
	if w.wrote {
		switch w.pending {
		case sepSpace:
			if !strings.HasSuffix(w.b.String(), " ") && !strings.HasPrefix(s, " ") {
				w.b.WriteByte(' ')
			}
		case sepLine:
			w.b.WriteByte('\n')
		case sepParagraph:
			w.b.WriteString("\n\n")
		}
	}
	w.b.WriteString(s)
	w.pending, w.wrote, w.lastY = sepNone, true, w.y
}
