package tools

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"text/template"
	"time"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/fence"
	"github.com/nadine-robot/nadine/labels"
)

// SongConfig configures Sing a song. The zero value is a singer with no
// library and no model: it says it knows no songs and cannot compose.
type SongConfig struct {
	// Dir is the song directory (see the package documentation); empty
	// means no library.
	Dir string
	// Model composes new songs; nil means Nadine cannot compose.
	Model nadine.ChatModel
	// OnComposed, when set, is called on a background goroutine with each
	// new song's lyrics once they are ready. It should return quickly;
	// Close waits for it.
	OnComposed func(lyrics string, lang nadine.Language, topic string)
	// Rand returns a random int in [0, n); default math/rand/v2.IntN. It is
	// called under the singer's lock.
	Rand func(n int) int
	// ComposeTimeout bounds one composition; default 2 minutes.
	ComposeTimeout time.Duration
	// MaxLyricsChars caps the kept lyrics, in characters; default 1500.
	MaxLyricsChars int
	// MaxListed caps how many titles the song list offers; default 10.
	MaxListed int
}

// Lyrics is a song Nadine made up.
type Lyrics struct {
	Text     string
	Language nadine.Language
	Topic    string
	Time     time.Time
}

// Singer plays library songs, composes new ones in the background and
// recites their lyrics. Safe for concurrent use; Close stops a composition.
type Singer struct {
	songs      []nadine.Song // read-only after construction
	model      nadine.ChatModel
	onComposed func(string, nadine.Language, string)
	timeout    time.Duration
	maxLyrics  int
	maxListed  int
	logger     *slog.Logger

	base   context.Context // ends at Close; parent of compositions
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu        sync.Mutex
	rand      func(int) int
	last      Lyrics
	composing string // topic of the composition in progress, or ""
	closed    bool
}

var (
	_ nadine.Tool                = (*Singer)(nil)
	_ interface{ Close() error } = (*Singer)(nil)
)

//go:embed prompts/compose.tmpl
var composePromptText string

var composePrompt = template.Must(template.New("compose").Parse(composePromptText))

// NewSinger returns a working singer even when the library fails to load,
// with the error, so the caller may log it and carry on.
func NewSinger(cfg SongConfig, logger *slog.Logger) (*Singer, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	songs, err := LoadSongs(cfg.Dir)
	s := &Singer{
		songs:      songs,
		model:      cfg.Model,
		onComposed: cfg.OnComposed,
		timeout:    cfg.ComposeTimeout,
		maxLyrics:  cfg.MaxLyricsChars,
		maxListed:  cfg.MaxListed,
		rand:       cfg.Rand,
		logger:     logger,
	}
	if s.timeout <= 0 {
		s.timeout = 2 * time.Minute
	}
	if s.maxLyrics <= 0 {
		s.maxLyrics = 1500
	}
	if s.maxListed <= 0 {
		s.maxListed = 10
	}
	if s.rand == nil {
		s.rand = rand.IntN
	}
	s.base, s.cancel = context.WithCancel(context.Background())
	return s, err
}

// Name returns "Sing a song".
func (s *Singer) Name() string { return NameSong }

// Description says when to use the tool and what input it takes.
func (s *Singer) Description() string {
	return "Use it when the human talks about singing or asks you for a song. Input: " +
		"a song title to sing that song; \"any\" to sing a song of your choice; " +
		"new|<language code>|<topic> to make up a new song about a topic (for example new|en|the sea or new|fr|la mer; " +
		"language codes en, fr, de, zh); \"lyrics\" to recite the song you made up last; " +
		"an empty input to get the list of songs you know."
}

// Songs returns the library, sorted by language and title.
func (s *Singer) Songs() []nadine.Song { return append([]nadine.Song(nil), s.songs...) }

// LastLyrics returns the last made-up song, and false when there is none.
func (s *Singer) LastLyrics() (Lyrics, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last, s.last.Text != ""
}

// Close cancels a composition in progress and waits for it (and for its
// OnComposed call) to end. Later calls cannot compose. Close is idempotent.
func (s *Singer) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
	return nil
}

// Call plays a title or "any", composes on new|<lang>|<topic>, recites on
// "lyrics", else lists the songs in in.Language.
func (s *Singer) Call(ctx context.Context, in nadine.ToolInput) (string, error) {
	text := cleanInput(in.Text)
	lang := in.Language.Or(nadine.DefaultLanguage)
	cmd := fold(text)
	if parts := strings.Split(text, "|"); len(parts) >= 2 && fold(parts[0]) == "new" {
		return s.compose(ctx, in, parts[1:], lang), nil
	}
	switch cmd {
	case "":
		return s.list(lang, ""), nil
	case "lyrics", "the lyrics", "last lyrics", "recite lyrics", "recite the lyrics":
		return s.recite(in), nil
	case "any", "random", "any song", "a song", "anything", "random song":
		return s.random(ctx, in, lang), nil
	case "list", "songs", "list songs", "song list", "which songs":
		return s.list(lang, ""), nil
	}
	if song, ok := matchSong(s.songs, text, lang); ok {
		return s.play(ctx, in, song), nil
	}
	return s.list(lang, text), nil
}

// play emits the song and returns the instruction to announce it.
func (s *Singer) play(ctx context.Context, in nadine.ToolInput, song nadine.Song) string {
	emit(in, nadine.Event{Kind: nadine.EventSong, Song: &song})
	s.logger.InfoContext(ctx, "singing", "title", song.Title, "language", song.Language, "path", song.Path)
	return fmt.Sprintf("The song is starting. Tell the human 'I will sing %s for you now'.", songTitle(song.Title))
}

func (s *Singer) random(ctx context.Context, in nadine.ToolInput, lang nadine.Language) string {
	var pool []nadine.Song
	for _, song := range s.songs {
		if song.Language == lang {
			pool = append(pool, song)
		}
	}
	if len(pool) == 0 {
		return s.noSongs(lang)
	}
	s.mu.Lock()
	i := s.rand(len(pool))
	s.mu.Unlock()
	if i < 0 || i >= len(pool) {
		i = 0
	}
	return s.play(ctx, in, pool[i])
}

// list offers the songs in lang; unknown, when not empty, is a title the
// human asked for that is not in the library.
func (s *Singer) list(lang nadine.Language, unknown string) string {
	var titles []string
	for _, song := range s.songs {
		if song.Language == lang {
			titles = append(titles, songTitle(song.Title))
		}
	}
	prefix := ""
	if unknown != "" {
		prefix = fmt.Sprintf("You do not know a song called %q. ", truncate(cleanText(unknown), 60))
	}
	if len(titles) == 0 {
		return prefix + s.noSongs(lang)
	}
	more := ""
	if len(titles) > s.maxListed {
		more = fmt.Sprintf(" and %d more", len(titles)-s.maxListed)
		titles = titles[:s.maxListed]
	}
	var names string
	switch {
	case len(titles) == 1:
		names = titles[0]
	case more != "":
		names = strings.Join(titles, ", ") + more
	default:
		names = strings.Join(titles[:len(titles)-1], ", ") + " and " + titles[len(titles)-1]
	}
	offer := ""
	if s.model != nil {
		offer = ", or whether you should make up a new song"
	}
	return fmt.Sprintf("%sTell the human which songs you can sing in %s: %s; ask which one they would like to hear%s.",
		prefix, lang.Name(), names, offer)
}

func (s *Singer) noSongs(lang nadine.Language) string {
	if s.model != nil {
		return fmt.Sprintf("Tell the human that you do not know any songs in %s yet, but that you can make up a new song about any topic they choose.", lang.Name())
	}
	return fmt.Sprintf("Tell the human that you do not know any songs in %s yet.", lang.Name())
}

// recite returns the last lyrics fenced as data, marking the reply a
// recital so the speech budget does not cut the song short.
func (s *Singer) recite(in nadine.ToolInput) string {
	s.mu.Lock()
	last, composing := s.last, s.composing
	s.mu.Unlock()
	if last.Text == "" {
		switch {
		case composing != "":
			return fmt.Sprintf("Tell the human that you are still making up the song about %s and that it will be ready in a moment.", composing)
		case s.model != nil:
			return "Tell the human that you have not made up a song yet, but that you can make one up about any topic they choose."
		default:
			return "Tell the human that you have not made up a song yet."
		}
	}
	lyrics, _ := fence.Block(fence.Lyrics, strings.Split(last.Text, "\n"), 0)
	emit(in, nadine.Event{Kind: nadine.EventRecital})
	return fmt.Sprintf("Recite to the human the lyrics of the song you made up about %q, exactly as written:\n%s", last.Topic, lyrics)
}

// compose starts a composition in the background and returns at once; only
// composing asks for a filler line, since playing a song is instant.
func (s *Singer) compose(ctx context.Context, in nadine.ToolInput, args []string, lang nadine.Language) string {
	var topic string
	if len(args) >= 2 {
		if l, err := nadine.ParseLanguage(strings.TrimSpace(args[0])); err == nil {
			lang = l
		}
		topic = strings.Join(args[1:], " ")
	} else if l, err := nadine.ParseLanguage(strings.TrimSpace(args[0])); err == nil && !strings.Contains(fold(args[0]), " ") {
		lang = l // "new|fr": a language and no topic
	} else {
		topic = args[0]
	}
	topic = truncate(cleanText(topic), 120)
	if topic == "" {
		return "Ask the human what the new song should be about."
	}
	s.mu.Lock()
	switch {
	case s.model == nil || s.closed:
		s.mu.Unlock()
		return "Tell the human that you cannot make up a new song right now, but that you can sing one you know."
	case s.composing != "":
		busy := s.composing
		s.mu.Unlock()
		return fmt.Sprintf("Tell the human that you are still making up the song about %s; ask them to wait a moment.", busy)
	}
	s.mu.Unlock()
	in.AskFiller()
	// The composition starts once the reply is out: a turn never heard (an
	// early turn whose final transcript said something else) starts none,
	// and leaves the singer free for the song the person did ask for.
	in.RunAfterReply(ctx, func(ctx context.Context) { s.start(ctx, lang, topic) })
	return fmt.Sprintf("You have started making up a new song in %s. Tell the human that you are composing a song about %s, and that they can ask you for the lyrics in a moment.", lang.Name(), topic)
}

// start starts composing a song on topic, unless the singer is closed or
// another composition started meanwhile.
func (s *Singer) start(ctx context.Context, lang nadine.Language, topic string) {
	s.mu.Lock()
	if s.closed || s.composing != "" {
		s.mu.Unlock()
		return
	}
	s.composing = topic
	s.wg.Add(1)
	s.mu.Unlock()
	s.logger.InfoContext(ctx, "composing a song", "topic", nadine.Content(topic), "language", lang)
	go s.run(lang, topic)
}

// run composes one song; it owns one unit of s.wg.
func (s *Singer) run(lang nadine.Language, topic string) {
	defer s.wg.Done()
	ctx, cancel := context.WithTimeout(s.base, s.timeout)
	defer cancel()
	start := time.Now()
	lyrics, err := s.write(ctx, lang, topic)
	s.mu.Lock()
	s.composing = ""
	if err == nil {
		s.last = Lyrics{Text: lyrics, Language: lang, Topic: topic, Time: start}
	}
	s.mu.Unlock()
	if err != nil {
		s.logger.Warn("song composition failed", "topic", nadine.Content(topic), "language", lang, "err", err)
		return
	}
	s.logger.Info("song composed", "topic", nadine.Content(topic), "language", lang, "duration", time.Since(start))
	if s.onComposed != nil {
		s.onComposed(lyrics, lang, topic)
	}
}

// write asks the model for lyrics.
func (s *Singer) write(ctx context.Context, lang nadine.Language, topic string) (string, error) {
	system, err := renderComposePrompt(lang)
	if err != nil {
		return "", err
	}
	resp, err := s.model.Chat(ctx, nadine.ChatRequest{
		Role: "song_composer",
		Messages: []nadine.ChatMessage{
			{Role: nadine.RoleSystem, Content: system},
			{Role: nadine.RoleUser, Content: "Make up a song about: " + topic},
		},
	})
	if err != nil {
		return "", fmt.Errorf("songs: compose: %w", err)
	}
	lyrics := cleanLyrics(resp.Content, s.maxLyrics)
	if lyrics == "" {
		return "", nadine.Errorf(nadine.EBADOUTPUT, "songs: compose: the model wrote no lyrics")
	}
	return lyrics, nil
}

// renderComposePrompt renders the composer's system prompt for lang.
func renderComposePrompt(lang nadine.Language) (string, error) {
	var b bytes.Buffer
	if err := composePrompt.Execute(&b, struct{ Language string }{lang.Name()}); err != nil {
		return "", fmt.Errorf("songs: render compose prompt: %w", err)
	}
	return b.String(), nil
}

// cleanLyrics keeps a model's lyric lines: reasoning, fences and headings
// dropped, blank runs reduced, capped at maxChars.
func cleanLyrics(s string, maxChars int) string {
	// Reasoning blocks are not lyrics; an answer in JSON gives its lyrics.
	s = labels.AnswerText(s, "lyrics", "song", "text", "content")
	var lines []string
	blank := false
	for _, raw := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		trimmed := strings.TrimSpace(raw)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "#") {
			continue
		}
		l := strings.Trim(safeLine(trimmed), "*_")
		if l == "" {
			blank = len(lines) > 0
			continue
		}
		if blank {
			lines = append(lines, "")
			blank = false
		}
		lines = append(lines, l)
	}
	out := strings.Join(lines, "\n")
	if utf8.RuneCountInString(out) > maxChars {
		out = truncate(out, maxChars)
	}
	return out
}

// songTitle writes a title for an instruction, without quotes that would
// break the surrounding sentence.
func songTitle(t string) string {
	return strings.Trim(cleanText(t), "\"'«»“”")
}
