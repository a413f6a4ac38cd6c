package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/fence"
)

// Tool names, exactly as the model sees them; agents.SearchToolNames must
// match (a test in cmd/nadine checks).
const (
	NameSearch    = "Google Search"
	NameNews      = "Google News"
	NameWeather   = "Weather App"
	NameBehaviour = "Nadine behaviour"
	NameSong      = "Sing a song"
	NameLanguage  = "Languages Switcher"
)

// Environment variables that hold the API keys. The tools never read the
// environment; cmd/nadine does, and error messages name these variables.
const (
	SerperKeyEnv         = "SERPER_API_KEY"
	OpenWeatherMapKeyEnv = "OPENWEATHERMAP_API_KEY"
)

// DefaultSerperURL is the Serper API's base URL.
const DefaultSerperURL = "https://google.serper.dev"

// SearchConfig configures Google Search and Google News over the Serper
// API. The zero value (apart from APIKey) gives the defaults.
type SearchConfig struct {
	// APIKey is the Serper key (SERPER_API_KEY); without it New registers
	// neither tool. It is sent in the X-API-KEY header and never logged.
	APIKey string
	// BaseURL defaults to DefaultSerperURL.
	BaseURL string
	// HTTPClient defaults to http.DefaultClient.
	HTTPClient *http.Client
	// Timeout bounds one search; zero means 10 seconds, negative means
	// only the caller's context.
	Timeout time.Duration
	// Country is Serper's gl parameter; default "ch" (Switzerland).
	Country string
	// LongResult is the content length, in characters, above which the
	// observation asks for a reply under 40 words; default 400.
	LongResult int
	// MaxChars caps the fenced content, in characters; default 1200.
	MaxChars int
	// MaxSnippets is how many result snippets are kept; default 5.
	MaxSnippets int
}

func (c SearchConfig) withDefaults() SearchConfig {
	if c.BaseURL == "" {
		c.BaseURL = DefaultSerperURL
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	if c.Country == "" {
		c.Country = "ch"
	}
	if c.LongResult <= 0 {
		c.LongResult = 400
	}
	if c.MaxChars <= 0 {
		c.MaxChars = 1200
	}
	if c.MaxSnippets <= 0 {
		c.MaxSnippets = 5
	}
	return c
}

// Search is the Google Search or Google News tool over Serper.
type Search struct {
	cfg    SearchConfig
	news   bool
	svc    service
	logger *slog.Logger
}

var _ nadine.Tool = (*Search)(nil)

// NewSearch returns the Google Search tool.
func NewSearch(cfg SearchConfig, logger *slog.Logger) *Search {
	return newSearch(cfg, false, logger)
}

// NewNews returns the Google News tool.
func NewNews(cfg SearchConfig, logger *slog.Logger) *Search {
	return newSearch(cfg, true, logger)
}

func newSearch(cfg SearchConfig, news bool, logger *slog.Logger) *Search {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	pkg := "search"
	if news {
		pkg = "news"
	}
	return &Search{
		cfg:    cfg.withDefaults(),
		news:   news,
		svc:    service{pkg: pkg, name: "Serper", keyEnv: SerperKeyEnv, secret: cfg.APIKey},
		logger: logger,
	}
}

// Name returns "Google Search" or "Google News".
func (s *Search) Name() string {
	if s.news {
		return NameNews
	}
	return NameSearch
}

// Description says when to use the tool.
func (s *Search) Description() string {
	if s.news {
		return "Use it when the human asks for the news or the top headlines, in general or about a topic. " +
			"Input: the topic or question in natural language, for example \"latest news from Geneva\"."
	}
	return "Use it for questions about current events, the state of the world, or people, and for anything " +
		"that may have changed recently or that you do not know for sure. " +
		"Input: the question in natural language, for example \"Who is the president of the Swiss Confederation?\"."
}

// serperRequest is the JSON body Serper expects.
type serperRequest struct {
	Q  string `json:"q"`
	GL string `json:"gl"`
	HL string `json:"hl"`
}

// serperResponse holds the parts of a Serper answer that observations use.
type serperResponse struct {
	AnswerBox *struct {
		Title              string   `json:"title"`
		Answer             string   `json:"answer"`
		Snippet            string   `json:"snippet"`
		SnippetHighlighted []string `json:"snippetHighlighted"`
	} `json:"answerBox"`
	KnowledgeGraph *struct {
		Title       string     `json:"title"`
		Type        string     `json:"type"`
		Description string     `json:"description"`
		Attributes  orderedMap `json:"attributes"`
	} `json:"knowledgeGraph"`
	Organic []struct {
		Title   string `json:"title"`
		Link    string `json:"link"`
		Snippet string `json:"snippet"`
		Date    string `json:"date"`
	} `json:"organic"`
	News []struct {
		Title   string `json:"title"`
		Link    string `json:"link"`
		Snippet string `json:"snippet"`
		Date    string `json:"date"`
		Source  string `json:"source"`
	} `json:"news"`
	PeopleAlsoAsk []struct {
		Question string `json:"question"`
		Snippet  string `json:"snippet"`
	} `json:"peopleAlsoAsk"`
}

// orderedMap is a JSON object of strings decoded in document order
// (knowledge-graph attributes are ranked by Serper).
type orderedMap []struct{ Key, Value string }

// UnmarshalJSON decodes an object, keeping the order of its keys and
// skipping values that are not strings.
func (m *orderedMap) UnmarshalJSON(b []byte) error {
	*m = nil
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return err
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		var v string
		if json.Unmarshal(raw, &v) != nil {
			continue
		}
		k, _ := kt.(string)
		*m = append(*m, struct{ Key, Value string }{k, v})
	}
	return nil
}

// serperLanguage maps a language to Serper's hl parameter.
func serperLanguage(l nadine.Language) string {
	if l.Or(nadine.DefaultLanguage) == nadine.Chinese {
		return "zh-cn"
	}
	return string(l.Or(nadine.DefaultLanguage))
}

// Call returns Serper's answer box, knowledge graph and top snippets, fenced
// and compact, without URLs, degrees in words.
func (s *Search) Call(ctx context.Context, in nadine.ToolInput) (string, error) {
	q := cleanInput(in.Text)
	if q == "" {
		return "The search needs a question. Ask the human what you should look up.", nil
	}
	body, err := json.Marshal(serperRequest{Q: q, GL: s.cfg.Country, HL: serperLanguage(in.Language)})
	if err != nil {
		return "", fmt.Errorf("%s: encode request: %w", s.svc.pkg, err)
	}
	path := "/search"
	if s.news {
		path = "/news"
	}
	ctx, cancel := withTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.cfg.BaseURL+path, bytes.NewReader(body))
	if err != nil {
		return "", nadine.Errorf(nadine.EINVALID, "%s: build request: %w", s.svc.pkg, err)
	}
	req.Header.Set("X-API-KEY", s.cfg.APIKey)
	req.Header.Set("Content-Type", "application/json")
	status, data, err := s.svc.do(ctx, s.cfg.HTTPClient, req)
	if err != nil {
		s.logger.WarnContext(ctx, "serper request failed", "tool", s.Name(), "err", err)
		return "", err
	}
	if status != http.StatusOK {
		err := s.svc.statusError(status, data)
		s.logger.WarnContext(ctx, "serper refused", "tool", s.Name(), "status", status, "err", err)
		return "", err
	}
	var res serperResponse
	if err := json.Unmarshal(data, &res); err != nil {
		return "", nadine.Errorf(nadine.EBADOUTPUT, "%s: decode Serper response: %w", s.svc.pkg, err)
	}
	lines := s.lines(res)
	s.logger.DebugContext(ctx, "serper answered", "tool", s.Name(), "query", nadine.Content(q), "lines", len(lines))
	if len(lines) == 0 {
		what := "search"
		if s.news {
			what = "news search"
		}
		return fmt.Sprintf("The %s found nothing about %q. Tell the human you could not find anything about it.", what, truncate(cleanText(q), 120)), nil
	}
	name := fence.Search
	if s.news {
		name = fence.News
	}
	block, n := fence.Block(name, lines, s.cfg.MaxChars)
	if n > s.cfg.LongResult {
		return "These results are long: keep your reply under 40 words.\n" + block, nil
	}
	return block, nil
}

// lines renders the best parts of a Serper answer, one cleaned line each.
func (s *Search) lines(res serperResponse) []string {
	const itemChars = 400
	var out []string
	add := func(l string) {
		if l = rewriteDegrees(l); l != "" {
			out = append(out, truncate(l, itemChars))
		}
	}
	if a := res.AnswerBox; a != nil {
		text := a.Answer
		switch {
		case text != "" && a.Snippet != "" && a.Snippet != a.Answer:
			text += "; " + a.Snippet
		case text == "":
			text = a.Snippet
		}
		if text == "" {
			text = strings.Join(a.SnippetHighlighted, " ")
		}
		if text != "" {
			if t := cleanText(a.Title); t != "" {
				text = t + " — " + text
			}
			add(field("Answer", text))
		}
	}
	if k := res.KnowledgeGraph; k != nil && (k.Title != "" || k.Description != "") {
		about := cleanText(k.Title)
		if t := cleanText(k.Type); t != "" {
			about += " (" + t + ")"
		}
		if d := cleanText(k.Description); d != "" {
			about += ": " + d
		}
		var attrs []string
		for i, kv := range k.Attributes {
			if i == 4 {
				break
			}
			if v := cleanText(kv.Value); v != "" {
				attrs = append(attrs, cleanText(kv.Key)+": "+v)
			}
		}
		if len(attrs) > 0 {
			if !strings.HasSuffix(about, ".") {
				about += "."
			}
			about += " " + strings.Join(attrs, "; ")
		}
		add(field("About", about))
	}
	snippets := 0
	if s.news {
		for _, n := range res.News {
			if snippets == s.cfg.MaxSnippets {
				break
			}
			meta := joinNonEmpty(", ", cleanText(n.Source), cleanText(n.Date))
			head := cleanText(n.Title)
			if meta != "" {
				head += " (" + meta + ")"
			}
			if l := joinNonEmpty(": ", head, cleanText(n.Snippet)); l != "" {
				add("- " + l)
				snippets++
			}
		}
	} else {
		for _, o := range res.Organic {
			if snippets == s.cfg.MaxSnippets {
				break
			}
			text := joinNonEmpty(": ", cleanText(o.Title), cleanText(o.Snippet))
			if d := cleanText(o.Date); d != "" && text != "" {
				text += " (" + d + ")"
			}
			if text != "" {
				add("- " + text)
				snippets++
			}
		}
	}
	for _, p := range res.PeopleAlsoAsk {
		if snippets >= s.cfg.MaxSnippets {
			break
		}
		if l := joinNonEmpty(" ", cleanText(p.Question), cleanText(p.Snippet)); l != "" {
			add("- " + l)
			snippets++
		}
	}
	return out
}

// joinNonEmpty joins the non-empty parts with sep.
func joinNonEmpty(sep string, parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}

var (
	celsiusRE    = regexp.MustCompile(`\s*(?:°\s*C(?:elsius)?\b|℃)`)
	fahrenheitRE = regexp.MustCompile(`\s*(?:°\s*F(?:ahrenheit)?\b|℉)`)
	degreeRE     = regexp.MustCompile(`\s*°`)
)

// rewriteDegrees writes "12°C" as "12 degrees Celsius", so text-to-speech
// reads weather results well.
func rewriteDegrees(s string) string {
	if !strings.ContainsAny(s, "°℃℉") {
		return s
	}
	s = celsiusRE.ReplaceAllString(s, " degrees Celsius")
	s = fahrenheitRE.ReplaceAllString(s, " degrees Fahrenheit")
	s = degreeRE.ReplaceAllString(s, " degrees")
	return strings.TrimSpace(s)
}
