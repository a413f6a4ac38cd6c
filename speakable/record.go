package speakable

import (
	"regexp"
	"strings"

	"github.com/nadine-robot/nadine/fence"
)

// The prompt actually sent holds, per turn, records the agents made of the
// visitor and of the conversation (the profile, an episode, a past
// conversation, the memory excerpts), and facts they found (knowledge,
// search results). Both are data sections, left out of the instructions'
// runs: a record retold in her words is hers ("You told me you love
// chess"), a record quoted is the prompt's. docs/speech.md, "The graph's
// prompt as sent".

// recordSections are the data sections that hold records of the visitor
// and the conversation, not facts she may say as they are written.
var recordSections = map[fence.Name]bool{fence.Person: true, fence.Episode: true, fence.Conversation: true,
	fence.Memory: true, fence.Context: true, fence.Recent: true}

const (
	// recordRun: five words in a row of a record are the record's.
	recordRun = 5
	// recordCover is the share of a sentence's words a record's runs must
	// cover: a record quoted is covered nearly whole, a memory retold
	// changes its person and its verbs ("you teach" for "I teach").
	recordCover = 0.8
)

var (
	// recordLabelRE is a label a record's line, or a part of it after a
	// semicolon, opens with ("Observation:", "hobbies:", "[date] Alex:").
	recordLabelRE = regexp.MustCompile(`(?m)(?:^|;)[ \t]*(?:\[[^\]\n]{1,40}\][ \t]*)?(?:\(quoted\)[ \t]*)?(\p{L}[\p{L}'-]*(?:[ \t][\p{L}'-]+){0,4})[ \t]*:`)
	// nameLineRE is the visitor's name in the person's block.
	nameLineRE = regexp.MustCompile(`(?m)^[ \t]*Name:[ \t]*(\p{L}[\p{L}'-]*)`)
)

// records are one prompt's records of the visitor and the conversation.
type records struct {
	runs   map[uint64]struct{} // runs of recordRun words of the records, her own lines left out
	labels map[string]bool     // the labels the records' lines open with, lowercased
	names  map[string]bool     // the visitor's name, and who speaks in a transcript, lowercased
}

// add reads the record sections of a prompt's text; her names
// (lowercased) are not the visitor's, and her own lines are hers to say.
func (r *records) add(text string, hers []string) {
	for _, sec := range fence.Sections(text) {
		block := text[sec[0]:sec[1]]
		head, body, _ := strings.Cut(block, "\n")
		name, _ := strings.CutSuffix(strings.TrimPrefix(head, "BEGIN "), " "+fence.Note)
		if !recordSections[fence.Name(name)] {
			continue
		}
		body = strings.TrimSuffix(body, fence.End(fence.Name(name)))
		for _, m := range nameLineRE.FindAllStringSubmatch(body, -1) {
			r.names[strings.ToLower(m[1])] = true
		}
		var kept []string
		for _, line := range strings.Split(body, "\n") {
			speaker := ""
			for _, m := range recordLabelRE.FindAllStringSubmatch(line, -1) {
				l := strings.ToLower(strings.TrimSpace(m[1]))
				if speaker == "" {
					speaker = l
				}
				if !contains(hers, l) {
					r.labels[l] = true
				}
			}
			if speaker != "" && contains(hers, speaker) {
				continue // her own words in a transcript
			}
			if strings.HasPrefix(strings.TrimSpace(line), "[") && speaker != "" {
				r.names[speaker] = true
			}
			kept = append(kept, line)
		}
		addRuns(r.runs, words(strings.Join(kept, "\n")), recordRun)
	}
}

// recordLeadRE is a sentence's lead-in label: one to five words, or up to
// eight ideographs, then a colon.
var recordLeadRE = regexp.MustCompile(`^\W{0,3}(\p{L}[\p{L}'-]*(?:[ \t][\p{L}'-]+){0,4}|\p{Han}{1,8})[ \t]*[:：][ \t]*(.*)$`)

// checkRecord returns why a sentence as the model wrote it quotes this
// turn's records, or "": a label of theirs opens it, a label opens it and
// the visitor is named in the third person at once (a record translated:
// "Beobachtung: Alex kam …", "观察：Alex在…"), or their runs cover it.
func (c *Checker) checkRecord(raw string) string {
	if c == nil {
		return ""
	}
	lead := recordLeadRE.FindStringSubmatch(raw)
	ws := words(raw)
	for _, e := range c.echoes {
		if lead != nil {
			label := strings.ToLower(strings.TrimSpace(lead[1]))
			if e.records.labels[label] {
				return "a label of this turn's records"
			}
			if rest := words(lead[2]); len(rest) > 0 && e.records.names[rest[0]] && !contains(e.names, label) {
				return "a record of the visitor, labelled"
			}
		}
	}
	if c.recordCoverage(ws) >= recordCover {
		return "this turn's records quoted"
	}
	return ""
}

// recordCoverage is the share of words covered by runs of recordRun words
// of this turn's records (0 for a sentence shorter than a run).
func (c *Checker) recordCoverage(ws []string) float64 {
	if len(ws) < recordRun {
		return 0
	}
	hs := hashes(ws)
	hit := make([]bool, len(ws))
	for i := 0; i+recordRun <= len(ws); i++ {
		h := runHash(hs[i : i+recordRun])
		for _, e := range c.echoes {
			if _, ok := e.records.runs[h]; ok {
				for j := i; j < i+recordRun; j++ {
					hit[j] = true
				}
				break
			}
		}
	}
	k := 0
	for _, h := range hit {
		if h {
			k++
		}
	}
	return float64(k) / float64(len(ws))
}

// agentRecordRE reads the other agents' results as a record, in any
// language: a label's identifier ("continue_conversation": speech never
// joins words with an underscore) and an emotion's intensity given as a
// number ("joy (intensity 0.3)", "intensité 3", "强度3"); German says
// "Stärke" too, which a wind has ("Windstärke 4"), so only after one of the
// appraisal's emotions ("Freude Stärke 4").
var agentRecordRE = regexp.MustCompile(`(?i)\b\p{L}+(?:_\p{L}+)+\b` +
	`|\b(?:intensity|intensite|intensität|intensitat|intensitaet)\b[^.!?\d]{0,14}\d|\d(?:[.,]\d+)?\s*(?:of\s+10\s+)?(?:in\s+)?intensity\b|强度\s*[:：为是]?\s*\d` +
	`|\b(?:freude|trauer|traurigkeit|angst|furcht|ekel|wut|zorn|uberraschung|überraschung|neutral)\s*[(,]?\s*(?:mit\s+)?(?:der\s+)?(?:starke|stärke)\s*[:=]?\s*\d`)

// sectionNameRE is a data section of the prompts named as it is written,
// in capitals ("the PAST CONVERSATION block"), or as a lead-in before a
// colon in any case ("From the knowledge base: …"); her knowledge base and
// her memories are hers to name in a sentence of her own.
var sectionNameRE = regexp.MustCompile(`\b(?:` + sectionNames() + `)\b`)

// blockLeadRE is a lead-in that names where the rest was copied from: a
// data section, a packet's block or a memory record, in four languages.
var blockLeadRE = regexp.MustCompile(`(?i)^\W{0,3}(?:(?:from|in|per)\s+)?(?:the\s+|my\s+)?(?:knowledge\s+base|long-term\s+memory|past\s+(?:conversation|episode)|memory\s+(?:record|excerpt)s?|contextual\s+information|about\s+the\s+person|search\s+results` +
	`|(?:extrait\s+de\s+la\s+|de\s+la\s+)?(?:base\s+de\s+connaissances?|memoire\s+(?:a\s+long\s+terme)?|conversation\s+passee|episode\s+passe)` +
	`|(?:aus\s+der\s+)?(?:wissensbasis|wissensdatenbank|langzeitgedachtnis|fruheren?\s+gesprach|episode)` +
	`|知识库|长期记忆|记忆|过去的对话|过往对话)\s*[:：]`)

// sectionNames is the alternation of the section names in capitals.
func sectionNames() string {
	var alts []string
	for _, n := range fence.Names() {
		alts = append(alts, strings.ReplaceAll(regexp.QuoteMeta(string(n)), " ", `[ \t]+`))
	}
	return strings.Join(alts, "|")
}

// packetLeadRE is a label of the graph's packet or of the person's block
// translated into French, German or Chinese, as the lead-in of a sentence
// ("Ce que vous savez de lui : …", "Deine Gefühle: ruhig", "消息：…"): the
// English labels are known from the prompt sent, their translations are
// not. Read folded (foldMarks).
var packetLeadRE = regexp.MustCompile(`(?i)^\W{0,3}(?:(?:votre|ton|le)\s+message|(?:l')?heure|(?:vos|tes)\s+(?:sentiments|emotions)|la\s+personne|ce\s+que\s+(?:vous\s+voyez|tu\s+vois)(?:\s+maintenant)?|(?:vos|tes)\s+connaissances|ce\s+que\s+(?:vous\s+savez|tu\s+sais)\s+(?:de\s+lui|d'elle|d'eux|d'elles|sur\s+(?:lui|elle|eux|elles))|expression\s+(?:du\s+visage|faciale)|memoire\s+visuelle` +
	`|(?:deine|ihre)\s+nachricht|nachricht|(?:uhr)?zeit|(?:deine|ihre)\s+gefuhle|die\s+person|was\s+(?:du|sie)\s+(?:jetzt\s+)?(?:siehst|sehen)(?:\s+jetzt)?|(?:dein|ihr)\s+wissen|was\s+(?:du|sie)\s+uber\s+(?:ihn|sie)\s+(?:weisst|wissen)|gesichtsausdruck|visuelle\s+erinnerung` +
	`|消息|留言|时间|你的(?:感受|情绪|情感|心情)|(?:这个|那个)人|你现在看到的|你看到的|你的知识|你对(?:他|她|他们|她们|对方)的了解|面部表情|视觉记忆)[ \t]*[:：]`)

// recordTalk returns why a sentence reads the agents' results as a record
// or names a data section as its source, or "": raw as the model wrote it,
// folded as foldMarks folds it.
func recordTalk(raw, folded string) string {
	switch {
	case (strings.Contains(raw, "_") || strings.Contains(folded, "ntensit") || strings.Contains(folded, "NTENSIT") || strings.Contains(raw, "强度") || strings.Contains(strings.ToLower(folded), "stark") || strings.Contains(strings.ToLower(raw), "stärk")) && agentRecordRE.MatchString(folded):
		return "the agents' results read as a record"
	case hasCapsPair(raw) && sectionNameRE.MatchString(raw) || blockLeadRE.MatchString(folded):
		return "a data section named"
	case packetLeadRE.MatchString(folded):
		return "a label of the prompt's packet, translated"
	}
	return ""
}

// hasCapsPair reports two capital letters in a row: a section's name in
// capitals has them.
func hasCapsPair(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' && 'A' <= s[i+1] && s[i+1] <= 'Z' {
			return true
		}
	}
	return false
}
