package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/langid"
	"github.com/nadine-robot/nadine/offline"
)

// chatCase is one utterance of a `nadine chat --json` session and what
// its reply must be.
type chatCase struct {
	say      string
	intent   string          // the offline engine's outcome, as its trace names it
	contains []string        // each: alternatives separated by "|", case-insensitive
	avoid    []string        // what the reply must not say
	lang     nadine.Language // the reply's language when not the session's
}

// chatSession runs cases as one `nadine chat --json` conversation and
// checks every reply: answered by the offline engine, the intent, the
// words, at most 30 words, and in the session language — by its tag and by
// the language detector.
func chatSession(t *testing.T, vars map[string]string, session nadine.Language, cases []chatCase, args ...string) []chatTurn {
	t.Helper()
	var in strings.Builder
	for _, c := range cases {
		in.WriteString(c.say + "\n")
	}
	out, errOut, err := runNadine(t, vars, in.String(), append([]string{"chat", "--json", "--lang", string(session)}, args...)...)
	if err != nil {
		t.Fatalf("chat: %v\n%s", err, errOut)
	}
	turns := decodeTurns(t, out)
	if len(turns) != len(cases) {
		t.Fatalf("%d turns for %d utterances:\n%s", len(turns), len(cases), out)
	}
	det, err := langid.New()
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		r := turns[i].Reply
		if r == nil {
			t.Errorf("%q: no reply (%s)", c.say, turns[i].Error)
			continue
		}
		want := c.lang.Or(session)
		if c.lang == "" && i > 0 {
			// A switch earlier in the session moved it.
			for j := i - 1; j >= 0; j-- {
				if cases[j].intent == "language" {
					want = cases[j].lang
					break
				}
			}
		}
		got := offlineIntent(r.Trace)
		if r.Trace.Snapshot().Engine != "offline" || got != c.intent {
			t.Errorf("%q: engine %s intent %q, want offline %q (reply %q)", c.say, r.Trace.Snapshot().Engine, got, c.intent, r.Text)
		}
		lower := strings.ToLower(r.Text)
		for _, w := range c.contains {
			ok := false
			for _, alt := range strings.Split(w, "|") {
				ok = ok || strings.Contains(lower, strings.ToLower(alt))
			}
			if !ok {
				t.Errorf("%q: reply %q does not say %q", c.say, r.Text, w)
			}
		}
		for _, w := range c.avoid {
			if strings.Contains(lower, strings.ToLower(w)) {
				t.Errorf("%q: reply %q says %q", c.say, r.Text, w)
			}
		}
		if r.Language != want {
			t.Errorf("%q: reply tagged %s, want %s (%q)", c.say, r.Language, want, r.Text)
		}
		if l, _, ok := det.Detect(r.Text); ok && l != want {
			t.Errorf("%q: reply %q is in %s, want %s", c.say, r.Text, l, want)
		}
		if n := offline.SpokenWords(r.Text); n > offline.MaxWords {
			t.Errorf("%q: %d words in %q", c.say, n, r.Text)
		}
	}
	return turns
}

// TestChatOfflineCategories goes through every category of the offline
// engine in every language, the way a newcomer without a key meets her:
// `nadine chat --json` on a fresh data directory (built-in knowledge base,
// an empty song folder).
func TestChatOfflineCategories(t *testing.T) {
	t.Parallel() // its own data directory
	noFail := []string{"unavailable", "indisponible", "pas disponible", "nicht verfügbar", "不可用", "went wrong"}
	sessions := []struct {
		lang  nadine.Language
		cases []chatCase
	}{
		{nadine.English, []chatCase{
			{say: "Hi, what's your name?", intent: "persona_name", contains: []string{"Nadine"}},
			{say: "Who created you?", intent: "persona_creator", contains: []string{"Thalmann", "Nanyang"}},
			{say: "Where are we?", intent: "persona_place", contains: []string{"MIRALab"}},
			{say: "Tell me about the University of Geneva", intent: "knowledge", contains: []string{"1559"}},
			{say: "What do you know about social robots?", intent: "knowledge", contains: []string{"social"}},
			{say: "I'm feeling really down today", intent: "feeling_sad", contains: []string{"sorry|sad|hard"}},
			{say: "I got a new job!", intent: "feeling_news_good", contains: []string{"congratulations|wonderful|well done|news|bravo|exciting"}},
			{say: "You are useless", intent: "insult", contains: []string{"kind|polite|hurt|rude|respect"}},
			{say: "You're awesome", intent: "compliment", contains: []string{"thank"}},
			{say: "Please smile", intent: "smile", contains: []string{"smil"}},
			{say: "Sing something for me", intent: "song", contains: []string{"song library is empty|no songs"}, avoid: []string{"offline"}},
			{say: "What time is it?", intent: "time", contains: []string{"It is"}},
			{say: "What is the population of Brazil?", intent: "default", contains: []string{"but"}, avoid: noFail},
			{say: "Can you speak German?", intent: "language", contains: []string{"Deutsch"}, lang: nadine.German},
			{say: "Wie alt bist du?", intent: "persona_age", contains: []string{"2013"}},
		}},
		{nadine.French, []chatCase{
			{say: "Bonjour, quel est votre nom ?", intent: "persona_name", contains: []string{"Nadine"}},
			{say: "Qui vous a construite ?", intent: "persona_creator", contains: []string{"Thalmann"}},
			{say: "Où sommes-nous ?", intent: "persona_place", contains: []string{"MIRALab", "Genève"}},
			{say: "C'est quoi le MIRALab ?", intent: "knowledge", contains: []string{"1989"}},
			{say: "Parlez-moi des robots sociaux", intent: "knowledge", contains: []string{"social"}},
			{say: "Je me sens seule", intent: "feeling_sad", contains: []string{"désolée|triste|difficile"}},
			{say: "J'ai perdu mon travail", intent: "feeling_news_bad", contains: []string{"désolée|triste"}},
			{say: "Vous êtes nulle", intent: "insult", contains: []string{"gentil|poli|bless|respect|aimable|méchant|triste|mieux|mal"}},
			{say: "Vous êtes magnifique", intent: "compliment", contains: []string{"merci"}},
			{say: "Faites un sourire", intent: "smile", contains: []string{"souri"}},
			{say: "Chantez une chanson", intent: "song", contains: []string{"vide|aucune chanson"}, avoid: []string{"hors ligne"}},
			{say: "Quel jour sommes-nous ?", intent: "date", contains: []string{"Nous sommes le"}},
			{say: "Quelle est la hauteur du mont Blanc ?", intent: "default", contains: []string{"mais"}, avoid: noFail},
			{say: "Parlez anglais, s'il vous plaît", intent: "language", contains: []string{"English"}, lang: nadine.English},
			{say: "Who are you?", intent: "persona_identity", contains: []string{"Nadine"}},
		}},
		{nadine.German, []chatCase{
			{say: "Hallo, wie ist dein Name?", intent: "persona_name", contains: []string{"Nadine"}},
			{say: "Wer hat dich erschaffen?", intent: "persona_creator", contains: []string{"Thalmann"}},
			{say: "Wo sind wir hier?", intent: "persona_place", contains: []string{"MIRALab", "Genf"}},
			{say: "Was ist das MIRALab?", intent: "knowledge", contains: []string{"1989"}},
			{say: "Was weißt du über soziale Roboter?", intent: "knowledge", contains: []string{"sozial"}},
			{say: "Ich fühle mich heute einsam", intent: "feeling_sad", contains: []string{"leid|traurig|schwer"}},
			{say: "Ich habe eine neue Stelle bekommen!", intent: "feeling_news_good", contains: []string{"glückwunsch|gut gemacht|nachricht|bravo"}},
			{say: "Du bist blöd", intent: "insult", contains: []string{"nett|höflich|verletz|respekt|freundlich|gemein|traurig|mühe|bestes"}},
			{say: "Du bist wunderschön", intent: "compliment", contains: []string{"dank"}},
			{say: "Lächle mal", intent: "smile", contains: []string{"lächl|lächel"}},
			{say: "Sing ein Lied", intent: "song", contains: []string{"leer|keine lieder"}, avoid: []string{"offline"}},
			{say: "Wie spät ist es?", intent: "time", contains: []string{"Es ist"}},
			{say: "Wie viele Einwohner hat Brasilien?", intent: "default", contains: []string{"aber"}, avoid: noFail},
			{say: "Sprich Chinesisch", intent: "language", contains: []string{"中文"}, lang: nadine.Chinese},
			{say: "你是谁？", intent: "persona_identity", contains: []string{"Nadine"}},
		}},
		{nadine.Chinese, []chatCase{
			{say: "你好，你叫什么名字？", intent: "persona_name", contains: []string{"Nadine"}},
			{say: "谁发明了你？", intent: "persona_creator", contains: []string{"Thalmann"}},
			{say: "我们在哪里？", intent: "persona_place", contains: []string{"MIRALab", "日内瓦"}},
			{say: "MIRALab是什么？", intent: "knowledge", contains: []string{"1989"}},
			{say: "给我讲讲社交机器人", intent: "knowledge", contains: []string{"社交"}},
			{say: "我今天很伤心", intent: "feeling_sad", contains: []string{"难过|抱歉|不容易|伤心"}},
			{say: "我找到新工作了！", intent: "feeling_news_good", contains: []string{"恭喜|消息|干得好|了不起"}},
			{say: "你真蠢", intent: "insult", contains: []string{"礼貌|尊重|伤|难过|友|刻薄|努力|生气|好"}},
			{say: "你真厉害", intent: "compliment", contains: []string{"谢"}},
			{say: "笑一个", intent: "smile", contains: []string{"微笑"}},
			{say: "唱首歌吧", intent: "song", contains: []string{"空的|还没有歌曲"}, avoid: []string{"离线"}},
			{say: "今天星期几？", intent: "date", contains: []string{"今天是"}},
			{say: "巴西有多少人口？", intent: "default", contains: []string{"不过"}, avoid: noFail},
			{say: "请说法语", intent: "language", contains: []string{"français"}, lang: nadine.French},
			{say: "Quel âge avez-vous ?", intent: "persona_age", contains: []string{"2013"}},
		}},
	}
	for _, s := range sessions {
		t.Run(string(s.lang), func(t *testing.T) {
			chatSession(t, nil, s.lang, s.cases)
		})
	}
}

// TestChatOfflineKnowledgeIngested: what a lab ingests with `nadine kb
// ingest` is answered offline in the language it is written in (no
// translator configured), and the reply is tagged with that language.
func TestChatOfflineKnowledgeIngested(t *testing.T) {
	vars := map[string]string{"HOME": t.TempDir()}
	dir := t.TempDir()
	files := map[string]string{
		"zorblax.md": "# Zorblax\n\n## Origin\n\nThe Zorblax is a fictional pastry from Carouge. It is filled with hazelnut cream.\n\n" +
			"## Eating it\n\nPeople eat the Zorblax with a cup of hot chocolate.\n",
		"fondue.md": "# Das Käsefondue\n\n## Herkunft\n\nDas Käsefondue ist ein traditionelles Gericht aus der Westschweiz. " +
			"Man taucht Brotstücke in geschmolzenen Käse.\n\n## Der Caquelon\n\nDas Fondue wird in einem Keramiktopf serviert, der Caquelon heißt.\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, errOut, err := runNadine(t, vars, "", "kb", "ingest", dir); err != nil || !strings.Contains(out, "ingested 4 chunks") {
		t.Fatalf("kb ingest: %v %s %s", err, out, errOut)
	}
	chatSession(t, vars, nadine.English, []chatCase{
		{say: "What is a Zorblax?", intent: "knowledge", contains: []string{"pastry", "Carouge"}},
		{say: "What is a caquelon?", intent: "knowledge", contains: []string{"Keramiktopf"}, lang: nadine.German},
		{say: "Who created you?", intent: "persona_creator", contains: []string{"Thalmann"}},
	})
	chatSession(t, vars, nadine.French, []chatCase{
		{say: "Qu'est-ce que le Zorblax ?", intent: "knowledge", contains: []string{"pastry"}, lang: nadine.English},
		{say: "Parlez-moi du MIRALab", intent: "knowledge", contains: []string{"1989", "Genève"}},
	})
	turns := chatSession(t, vars, nadine.German, []chatCase{
		{say: "Was ist ein Käsefondue?", intent: "knowledge", contains: []string{"Westschweiz"}},
	})
	if d := turns[0].Reply.Trace.Snapshot(); len(d.Retrievals) != 1 || d.Retrievals[0].Kind != "knowledge" || len(d.Retrievals[0].Results) == 0 {
		t.Errorf("the knowledge search is not in the trace: %+v", d.Retrievals)
	}
}

// TestChatOfflinePlace: the place comes from the configuration (the file
// and the environment), said in each language in its translation.
func TestChatOfflinePlace(t *testing.T) {
	home := t.TempDir()
	cfg := filepath.Join(home, "nadine.yaml")
	yaml := "place: at the Swiss Museum of Transport in Lucerne\nplace_translations:\n  fr: au Musée suisse des transports, à Lucerne\n" +
		"  de: im Verkehrshaus der Schweiz in Luzern\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"HOME": home, "NADINE_PLACE_TRANSLATIONS_ZH": "在卢塞恩的瑞士交通博物馆"}
	for _, s := range []struct {
		lang nadine.Language
		say  string
		want string
	}{
		{nadine.English, "Where are you?", "at the Swiss Museum of Transport in Lucerne"},
		{nadine.French, "Où êtes-vous ?", "au Musée suisse des transports, à Lucerne"},
		{nadine.German, "Wo bist du?", "im Verkehrshaus der Schweiz in Luzern"},
		{nadine.Chinese, "你在哪里？", "在卢塞恩的瑞士交通博物馆"},
	} {
		turns := chatSession(t, vars, s.lang, []chatCase{{say: s.say, intent: "persona_place", contains: []string{s.want}}}, "--config", cfg)
		if r := turns[0].Reply.Text; strings.Contains(r, "MIRALab") {
			t.Errorf("%s: the configured place is not said: %q", s.lang, r)
		}
	}
	// A translation without a place is a configuration error naming the field.
	bad := map[string]string{"HOME": home, "NADINE_PLACE_TRANSLATIONS_DE": "im Verkehrshaus"}
	if _, _, err := runNadine(t, bad, "", "config"); err == nil || !strings.Contains(err.Error(), "place_translations.de") {
		t.Errorf("translation without a place: %v", err)
	}
}

// TestChatOfflineSongs: with a song in the library folder she sings it and
// offers to; with none she says the library is empty.
func TestChatOfflineSongs(t *testing.T) {
	home := t.TempDir()
	songs := filepath.Join(home, "songs")
	if err := os.MkdirAll(filepath.Join(songs, "fr"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(songs, "fr", "Frère Jacques.mp3"), []byte("ID3"), 0o644); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"HOME": home, "NADINE_TOOLS_SONGS_DIR": songs}
	turns := chatSession(t, vars, nadine.French, []chatCase{
		{say: "Chantez-moi une chanson", intent: "song", contains: []string{"Frère Jacques"}},
		{say: "Que savez-vous faire ?", intent: "abilities", contains: []string{"chanter"}},
	})
	if r := turns[0].Reply; len(r.Trace.Snapshot().Steps) == 0 {
		t.Fatal("no trace")
	}
	// No English song: the French one, and she says why.
	chatSession(t, vars, nadine.English, []chatCase{
		{say: "Sing a song", intent: "song", contains: []string{"Frère Jacques", "English"}},
	})
	empty := map[string]string{"HOME": t.TempDir()}
	chatSession(t, empty, nadine.English, []chatCase{
		{say: "Sing me a song", intent: "song", contains: []string{"song library is empty|no songs"}, avoid: []string{"offline"}},
		{say: "What can you do?", intent: "abilities", avoid: []string{"sing"}},
		{say: "What is the tallest building?", intent: "default", avoid: []string{"sing"}},
	})
}

// TestChatOfflineFallbackIsHonest: when the model fails, what the offline
// engine says about why is true: "unavailable" only when the model cannot
// be reached, "something went wrong" when its answer was unusable, and the
// reason once; offline by configuration, she never claims a failure.
func TestChatOfflineFallbackIsHonest(t *testing.T) {
	questions := "What is the capital of Peru?\nHello\nWho won the match yesterday?\nWhy can't you answer?\n"
	tests := []struct {
		name    string
		script  func(*llmtest.Server)
		first   string // the first honest limit says this
		why     string // and "why?" this
		avoid   string
		offline bool // no model at all
	}{
		{"model unreachable", func(s *llmtest.Server) { s.On(llmtest.MatchAny("")).Fail(503) },
			"language model is unavailable", "cannot be reached|unavailable", "went wrong", false},
		{"unusable answers", func(s *llmtest.Server) { s.On(llmtest.MatchAny("")).Reply(`{"thought": "the user wants [1, 2`) },
			"went wrong", "went wrong|problem", "unavailable", false},
		{"no model configured", nil, "", "without a language model", "unavailable", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vars := map[string]string{"HOME": t.TempDir()}
			if !tt.offline {
				srv := llmtest.New(t)
				tt.script(srv)
				vars = modelEnv(t, srv, map[string]string{"NADINE_MODELS_PROFILES_DEFAULT_MAX_RETRIES": "0",
					"NADINE_LIMITS_PARSE_RETRIES": "0", "NADINE_FEATURES_CONTEXTUALIZE": "false"})
			}
			out, errOut, err := runNadine(t, vars, questions, "chat", "--json")
			if err != nil {
				t.Fatalf("%v\n%s", err, errOut)
			}
			turns := decodeTurns(t, out)
			if len(turns) != 4 {
				t.Fatalf("%d turns:\n%s", len(turns), out)
			}
			for i, turn := range turns {
				r := turn.Reply
				if r == nil || r.Trace.Snapshot().Engine != "offline" || r.Fallback == tt.offline {
					t.Fatalf("turn %d: %+v, want the offline engine (fallback %v)", i, r, !tt.offline)
				}
				if strings.Contains(r.Text, tt.avoid) {
					t.Errorf("turn %d %q: %q says %q", i, turn.Input, r.Text, tt.avoid)
				}
			}
			if !strings.Contains(turns[0].Reply.Text, tt.first) || !strings.Contains(turns[0].Reply.Text, "but") {
				t.Errorf("first limit %q, want %q and what she can do", turns[0].Reply.Text, tt.first)
			}
			if g := turns[1].Reply.Text; strings.Contains(g, "language model") || strings.Contains(g, "wrong") {
				t.Errorf("a greeting talks about the failure: %q", g)
			}
			if tt.first != "" && strings.Contains(turns[2].Reply.Text, tt.first) {
				t.Errorf("the reason is said twice: %q", turns[2].Reply.Text)
			}
			if got := offlineIntent(turns[3].Reply.Trace); got != "offline_why" || !containsAny(turns[3].Reply.Text, tt.why) {
				t.Errorf("why: [%s] %q, want %q", got, turns[3].Reply.Text, tt.why)
			}
		})
	}
}

// TestChatOfflineNoRepeat holds a 30-turn conversation through `nadine chat
// --json` (the real dialogue manager and its 20-message window) asking the
// same things again and again: no reply that states no fact is said twice.
func TestChatOfflineNoRepeat(t *testing.T) {
	asks := []string{"Hello", "What is the meaning of life?", "Tell me a joke", "You are nice", "Smile", "How are you?",
		"Good", "Thank you", "Wave", "What is the best pizza in town?"}
	var cases []chatCase
	for i := range 30 {
		cases = append(cases, chatCase{say: asks[i%len(asks)]})
	}
	var in strings.Builder
	for _, c := range cases {
		in.WriteString(c.say + "\n")
	}
	out, _, err := runNadine(t, nil, in.String(), "chat", "--json")
	if err != nil {
		t.Fatal(err)
	}
	said := map[string]int{}
	for i, turn := range decodeTurns(t, out) {
		r := turn.Reply
		if r == nil {
			t.Fatalf("turn %d: no reply", i)
		}
		if intent := offlineIntent(r.Trace); !isFactIntent(intent) {
			if j, ok := said[r.Text]; ok {
				t.Errorf("turn %d %q repeats turn %d: %q", i, turn.Input, j, r.Text)
			}
			said[r.Text] = i
		}
	}
	if len(said) < 25 {
		t.Errorf("only %d non-fact replies in 30 turns", len(said))
	}
}

// TestEvalOffline runs `nadine eval offline`: the table, the target in
// every language, no repeat, on the main set; the held-out, fresh (tuned),
// sealed and every probe set's scores are printed (t.Log), and the sealed set's utterances never
// appear in the output.
func TestEvalOffline(t *testing.T) {
	t.Parallel() // in-process and deterministic: it runs beside the rest
	out, errOut, err := runNadine(t, nil, "", "eval", "offline", "--set", "main")
	if err != nil {
		t.Fatalf("eval offline: %v\n%s\n%s", err, out, errOut)
	}
	for _, want := range []string{"== main set", "CATEGORY", "EN", "FR", "DE", "ZH", "persona", "knowledge", "feelings", "insults",
		"compliments", "gestures", "songs", "time", "language", "out-of-scope", "within an interaction: 0"} {
		if !strings.Contains(out, want) {
			t.Errorf("eval output lacks %q:\n%s", want, out)
		}
	}
	sets, err := loadOfflineEval(offlineEvalFS, offlineSetMain)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, s := range sets {
		n := 0
		for _, in := range s.Interactions {
			n += len(in.Turns)
			if len(in.Turns) > 30 {
				t.Errorf("%s %q: %d turns, an interaction has at most 30", s.Language, in.Name, len(in.Turns))
			}
		}
		if n < 50 {
			t.Errorf("%s: %d utterances, want at least 50", s.Language, n)
		}
		total += n
	}
	if len(sets) != 4 || total < 200 {
		t.Errorf("%d languages, %d utterances; want 4 and at least 200", len(sets), total)
	}
	// The table docs/offline.md shows is this run's: one run of the main
	// set serves both checks.
	checkOfflineDoc(t, out)
	if _, _, err := runNadine(t, nil, "", "eval", "offline", "extra"); exitCode(err) != 2 {
		t.Errorf("eval offline extra: %v, want a usage error", err)
	}
	if _, _, err := runNadine(t, nil, "", "eval", "offline", "--set", "other"); exitCode(err) != 2 {
		t.Errorf("eval offline --set other: %v, want a usage error", err)
	}
	// The other sets run the same way; their figures are reported (the
	// eval exits 1 when one misses its target). They measure, and the race
	// detector adds nothing to a measurement but minutes.
	if raceDetector {
		t.Log("the held-out, fresh, sealed and probe sets are measured without the race detector")
		return
	}
	all, err := offlineSets(offlineEvalFS)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all[1:] { // all but main, run above
		set := s.name
		out, _, err = runNadine(t, nil, "", "eval", "offline", "--set", set, "-v")
		if !strings.Contains(out, "== "+set+" set") || !strings.Contains(out, "all") {
			t.Errorf("%s eval output:\n%s", set, out)
		}
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "all ") {
				t.Logf("%s set: %s (%v)", set, line, err)
			}
		}
		if set == "sealed" {
			checkSealedStaysSealed(t, out)
		}
	}
}

// checkSealedStaysSealed fails when an utterance of the sealed set appears
// in the eval's output: only scores and confusions are printed.
func checkSealedStaysSealed(t *testing.T, out string) {
	t.Helper()
	sets, err := loadOfflineEval(offlineEvalFS, "testdata/offline_eval/sealed")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "INTENT") || strings.Contains(out, "FAIL ") {
		t.Error("the sealed set's output has no confusion table, or lists failures")
	}
	for _, s := range sets {
		for _, in := range s.Interactions {
			for _, turn := range in.Turns {
				if len(turn.Say) > 12 && strings.Contains(out, turn.Say) {
					t.Errorf("the sealed set's output shows one of its utterances (%s, %d bytes)", s.Language, len(turn.Say))
				}
			}
		}
	}
}

// TestEvalOfflineReportsMisses: a missed target is an error, with the
// figures.
func TestEvalOfflineReportsMisses(t *testing.T) {
	rep := offlineReport{Repeats: 1}
	for i := range 10 {
		for _, l := range nadine.Languages() {
			r := offlineResult{Language: l, Category: "persona", Say: fmt.Sprint(i)}
			if l == nadine.German && i < 2 {
				r.Problems = []string{"intent x, want y"}
			}
			rep.Results = append(rep.Results, r)
		}
	}
	err := rep.check(0.9)
	if err == nil || !strings.Contains(err.Error(), "de 8/10 80%") || !strings.Contains(err.Error(), "1 repeats") {
		t.Errorf("check = %v", err)
	}
	var b strings.Builder
	if err := rep.print(&b, true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "8/10 80%") || !strings.Contains(b.String(), "FAIL de") {
		t.Errorf("print:\n%s", b.String())
	}
}

// containsAny reports whether s contains one of the "|"-separated
// alternatives.
func containsAny(s, alts string) bool {
	for _, a := range strings.Split(alts, "|") {
		if strings.Contains(s, a) {
			return true
		}
	}
	return false
}

// evalTable reads the rates back from the table `nadine eval offline`
// prints: one row per category, then "all", a cell per language ("–" or
// "PASSED/TOTAL PCT%") and the ALL column; and the count of repeats.
func evalTable(t *testing.T, out string) (byCat map[string]map[nadine.Language]rate, byLang map[nadine.Language]rate, cats []string, repeats int) {
	t.Helper()
	byCat = map[string]map[nadine.Language]rate{}
	rows, counted := false, false
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if n, _ := fmt.Sscanf(line, "verbatim repeats of a non-fact reply within an interaction: %d", &repeats); n == 1 {
			counted = true
			break
		}
		switch {
		case len(f) > 0 && f[0] == "CATEGORY":
			rows = true
			continue
		case !rows || len(f) == 0:
			continue
		}
		var cells []rate
		for i := 1; i < len(f) && len(cells) < len(nadine.Languages()); i++ {
			var r rate
			if f[i] != "–" {
				if _, err := fmt.Sscanf(f[i], "%d/%d", &r.passed, &r.total); err != nil {
					t.Fatalf("eval table row %q: %v", line, err)
				}
				i++ // the percentage
			}
			cells = append(cells, r)
		}
		if len(cells) != len(nadine.Languages()) {
			t.Fatalf("eval table row %q has %d language cells", line, len(cells))
		}
		m := map[nadine.Language]rate{}
		for i, l := range nadine.Languages() {
			m[l] = cells[i]
		}
		if f[0] == "all" {
			byLang, rows = m, false
			continue
		}
		byCat[f[0]] = m
		cats = append(cats, f[0])
	}
	if byLang == nil || len(cats) == 0 || !counted {
		t.Fatalf("no eval table in:\n%s", out)
	}
	return byCat, byLang, cats, repeats
}

// checkOfflineDoc keeps the main set's table in docs/offline.md in step
// with what `nadine eval offline` measures (OUT is what it printed).
func checkOfflineDoc(t *testing.T, out string) {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "offline.md"))
	if err != nil {
		t.Fatal(err)
	}
	byCat, byLang, cats, repeats := evalTable(t, out)
	cell := func(r rate) string { return fmt.Sprintf("%d/%d", r.passed, r.total) }
	pct := func(rs ...rate) string {
		var all rate
		for _, r := range rs {
			all.passed += r.passed
			all.total += r.total
		}
		return fmt.Sprintf("%.0f%%", 100*all.ratio())
	}
	for _, c := range cats {
		row := "| " + c
		var rs []rate
		for _, l := range nadine.Languages() {
			row += " | " + cell(byCat[c][l])
			rs = append(rs, byCat[c][l])
		}
		row += " | " + pct(rs...) + " |"
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/offline.md lacks the row %q", row)
		}
	}
	all := "| **all**"
	var rs []rate
	for _, l := range nadine.Languages() {
		all += " | **" + cell(byLang[l]) + "**"
		rs = append(rs, byLang[l])
	}
	all += " | **" + pct(rs...) + "** |"
	if !strings.Contains(string(doc), all) {
		t.Errorf("docs/offline.md lacks the row %q", all)
	}
	if want := fmt.Sprintf("Verbatim repeats of a non-fact reply within an interaction: %d.", repeats); !strings.Contains(string(doc), want) {
		t.Errorf("docs/offline.md lacks %q", want)
	}
}
