package translate_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/langid"
	"github.com/nadine-robot/nadine/translate"
)

// fixedDetector answers the same for every text.
type fixedDetector struct {
	lang nadine.Language
	conf float64
	ok   bool
}

func (d fixedDetector) Detect(string) (nadine.Language, float64, bool) { return d.lang, d.conf, d.ok }

// fakeTranslator prefixes the text with the languages, or fails.
type fakeTranslator struct {
	err   error
	calls []string
}

func (f *fakeTranslator) Translate(_ context.Context, text string, from, to nadine.Language) (string, error) {
	f.calls = append(f.calls, fmt.Sprintf("%s→%s: %s", from, to, text))
	if f.err != nil {
		return "", f.err
	}
	return fmt.Sprintf("[%s→%s] %s", from, to, text), nil
}

func TestEnsure(t *testing.T) {
	failure := nadine.Errorf(nadine.EUNAVAILABLE, "fake: down")
	tests := []struct {
		name       string
		detector   fixedDetector
		trErr      error
		text       string
		want       nadine.Language
		wantText   string
		wantDone   bool
		wantCalls  int
		wantCode   string
		wantErrIs  error
		wantNilErr bool
	}{
		{
			name: "wrong language is translated", detector: fixedDetector{nadine.French, 0.97, true},
			text: "Il fait beau.", want: nadine.English,
			wantText: "[fr→en] Il fait beau.", wantDone: true, wantCalls: 1, wantNilErr: true,
		},
		{
			name: "right language is unchanged", detector: fixedDetector{nadine.English, 0.99, true},
			text: "It is sunny.", want: nadine.English,
			wantText: "It is sunny.", wantNilErr: true,
		},
		{
			name: "unsure is unchanged", detector: fixedDetector{"", 0.4, false},
			text: "OK", want: nadine.German,
			wantText: "OK", wantNilErr: true,
		},
		{
			name: "empty text is unchanged", detector: fixedDetector{nadine.French, 1, true},
			text: " ", want: nadine.German,
			wantText: " ", wantNilErr: true,
		},
		{
			name: "translator failure returns the original and the error", detector: fixedDetector{nadine.German, 0.95, true},
			trErr: failure, text: "Guten Tag!", want: nadine.French,
			wantText: "Guten Tag!", wantCalls: 1, wantCode: nadine.EUNAVAILABLE, wantErrIs: failure,
		},
		{
			name: "unsupported wanted language", detector: fixedDetector{nadine.German, 0.95, true},
			text: "Guten Tag!", want: "es",
			wantText: "Guten Tag!", wantCode: nadine.EINVALID,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := &fakeTranslator{err: tt.trErr}
			got, done, err := translate.Ensure(context.Background(), tt.detector, tr, tt.text, tt.want)
			if got != tt.wantText || done != tt.wantDone {
				t.Errorf("Ensure = %q, %v; want %q, %v", got, done, tt.wantText, tt.wantDone)
			}
			if len(tr.calls) != tt.wantCalls {
				t.Errorf("translator called %d times (%q), want %d", len(tr.calls), tr.calls, tt.wantCalls)
			}
			if tt.wantNilErr {
				if err != nil {
					t.Errorf("error = %v, want nil", err)
				}
				return
			}
			if code := nadine.ErrorCode(err); code != tt.wantCode {
				t.Errorf("error %v has code %q, want %q", err, code, tt.wantCode)
			}
			if tt.wantErrIs != nil && !errors.Is(err, tt.wantErrIs) {
				t.Errorf("error %v does not wrap %v", err, tt.wantErrIs)
			}
		})
	}
}

// TestEnsureWithLangid runs Ensure with the real detector and a chat model
// translator over the fake model.
func TestEnsureWithLangid(t *testing.T) {
	d, err := langid.New()
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeModel{answer: "Il fait 12 degrés à Genève."}
	m := &translate.Model{Model: f}
	tests := []struct {
		text     string
		want     nadine.Language
		wantText string
		wantDone bool
	}{
		{"It is 12 degrees in Geneva.", nadine.French, "Il fait 12 degrés à Genève.", true},
		{"Il fait 12 degrés à Genève.", nadine.French, "Il fait 12 degrés à Genève.", false},
		{"OK", nadine.French, "OK", false},
		{"Alex", nadine.French, "Alex", false},
		{"12", nadine.French, "12", false},
	}
	for _, tt := range tests {
		got, done, err := translate.Ensure(context.Background(), d, m, tt.text, tt.want)
		if err != nil || got != tt.wantText || done != tt.wantDone {
			t.Errorf("Ensure(%q, %s) = %q, %v, %v; want %q, %v, nil", tt.text, tt.want, got, done, err, tt.wantText, tt.wantDone)
		}
	}
	reqs := f.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model calls, want 1", len(reqs))
	}
	if sys := reqs[0].Messages[0].Content; !strings.Contains(sys, "from English into French") {
		t.Errorf("system prompt %q does not name the detected and wanted languages", sys)
	}
}
