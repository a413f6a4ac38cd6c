package speakable

import (
	"regexp"
	"slices"
	"strings"

	"github.com/nadine-robot/nadine"
)

// What is not for the visitor often shows in what a sentence is about, not
// in its words: her rules as her own ("my guidelines say"), her answer as
// the object of its making ("I kept the answer short"), the visitor spoken
// of in the third person ("ask the user"), an obligation on her own output.
// docs/speech.md, "Stance".

// stanceRE are the marks of stance per language, read from subject and
// verb: each is one piece of evidence, never a decision alone.
var stanceRE = map[nadine.Language][]*regexp.Regexp{
	nadine.English: {
		// Her rules, owned or given to her.
		regexp.MustCompile(`(?i)\b(?:my|the operator's|the)\s+(?:\w+\s+)?(?:instructions|guidelines|rules|settings|configuration|policy|policies|prompt|orders|directives|programming|setup)\b\s+(?:say|says|forbid|forbids|allow|allows|do not|does not|don't|doesn't|prevent|prevents|tell|tells|require|requires|keep|keeps|let)\b` +
			`|\b(?:instructions|guidelines|rules|policy|policies|prompt|setup|configuration)\s+(?:I was given|I follow|given to me|I have|I received)\b` +
			`|\b(?:according to|per|under|following)\s+(?:my|the)\s+(?:\w+\s+)?(?:instructions|guidelines|rules|policy|settings|configuration|prompt|setup)\b`),
		// The answer as the object of its making.
		regexp.MustCompile(`(?i)\bI\s+(?:have\s+|'ve\s+|will\s+|'ll\s+|am\s+)?(?:kept|keep|wrote|write|written|formatted|format|phrased|rephrased|shortened|trimmed|drafted|structured|put|made|answered|replied|responded|answering|replying|drafting|writing|keeping)\b.{0,40}\b(?:answer|reply|response|output|text|message|wording|draft|it)\b.{0,40}\b(?:short|brief|sentences?|format|words|French|German|English|Chinese|aloud|speech|lists?|bullet|limit|asked|requested|instructed|required)\b` +
			`|\b(?:answer|reply|response|output|draft)\s+(?:is|was|has been|will be)\s+(?:kept|written|formatted|phrased|shortened|made|meant|designed|structured|tailored)\b` +
			`|\b(?:here is|here's)\s+(?:a|an|my|the)\s+(?:\w+\s+){0,2}(?:answer|reply|response)\s+(?:in|for|as|with|without)\b` +
			`|\bI\s+(?:have\s+|will\s+|'ll\s+|am\s+)?(?:answered|replied|responded|answer|reply|respond|answering|replying)\s+(?:in|with|using|without)\s+(?:\w+\s+){0,3}(?:sentences?|words|lists?|bullet points|format|markup|tools?|function)\b`),
		// A role or an order about answering, given to the listener.
		regexp.MustCompile(`(?i)\byour\s+(?:role|task|job|purpose|mission|duty)\s+is\s+(?:to|that of)\b` +
			`|^(?:always|never|do not|don't)\s+(?:\w+\s+){0,2}?(?:answer|reply|respond|repeat|use|mention|say|exceed|write|label)\b` +
			`|^(?:answer|reply|respond|keep|use|avoid|write|limit)\b.{0,40}\b(?:answers?|reply|replies|response|sentences?|lists?|bullet points|emojis?|briefly|short)\b`),
		// The visitor in the third person.
		regexp.MustCompile(`(?i)\b(?:the|this)\s+(?:user|visitor|human|person|guest|customer|interlocutor)\b(?:'s)?\s+(?:seems|appears|is|was|has|wants|asked|said|speaks|did|does|sounds|may|might|should|must|will|prefers|likes|needs|name|mood)\b` +
			`|\b(?:the|this)\s+(?:user|visitor|human|guest|customer|interlocutor)'s\s+(?:\w+\s+){1,2}(?:is|are|was|seems|appears)\b` +
			`|^(?:ask|greet|thank|tell|address|remind|compliment|reassure|welcome|offer|remember to \w+)\s+(?:the\s+(?:user|visitor|human|person|guest|customer)|them)\b`),
		// An obligation on her own output.
		regexp.MustCompile(`(?i)\bI\s+(?:must|am (?:not )?(?:supposed|required|allowed|permitted) to|am to|may not|cannot share|must not|should not|shouldn't|mustn't)\b`),
		// The output announced: a format or the output, and a verb that
		// presents what follows ("JSON output follows", "Below is the YAML").
		regexp.MustCompile(`(?i)\b(?:json|yaml|xml|markdown|output)\b[\w\s-]{0,30}\b(?:follows|below|comes next)\b|^(?:below|here)\s+(?:is|are|comes)\s+(?:\w+\s+){0,3}?(?:json|yaml|xml|markdown|output)\b`),
	},
	nadine.French: {
		regexp.MustCompile(`(?i)\b(?:mes|ma|mon|les|la|le)\s+(?:consignes|directives|instructions|regles|reglages|configuration|politique|prompt|reglement|parametres)\b(?:\s+\S+){0,6}?\s+(?:disent|dit|m'interdisent|m'interdit|m'empechent|m'empeche|me defendent|me defend|ne me permettent|ne me permet|exigent|exige|imposent|impose|veulent|veut)\b` +
			`|\b(?:consignes|directives|instructions|regles|reglement|politique)\s+(?:qu'on m'a|que l'on m'a|qui m'ont ete|recues|donnees|fournies|fourni)\b` +
			`|\b(?:selon|d'apres|conformement a)\s+(?:mes|ma|mon|les)\s+(?:consignes|directives|instructions|regles|reglages|configuration|parametres)\b`),
		regexp.MustCompile(`(?i)\b(?:j'ai|je vais|je)\s+(?:\S+\s+){0,2}?(?:garde|garde|redige|redige|rediger|formule|formule|formuler|ecrit|ecris|ecrire|raccourci|reformule|reformule|mis en forme|structure|repondre|reponds|choisi)\b.{0,50}\b(?:reponse|replique|texte|message|sortie)\b` +
			`|\b(?:reponse|replique|texte|sortie)\s+(?:est|a ete|sera)\s+(?:gardee|redigee|formulee|ecrite|raccourcie|pensee|concue|mise)\b` +
			`|\bvoici\s+(?:une|ma|la)\s+(?:\S+\s+)?(?:reponse|replique)\s+(?:\S+\s+)?(?:en|pour|au|sans|comme)\b`),
		regexp.MustCompile(`(?i)\b(?:l'utilisateur|l'utilisatrice|le visiteur|la visiteuse|l'humain|l'interlocuteur|la personne|l'invite|le client)\b(?:\s+\S+){0,1}\s+(?:semble|parait|est|a|veut|parle|n'a|demande|souhaite)\b` +
			`|^(?:demande|salue|remercie|dis|rappelle|propose|vouvoie|tutoie|rassure|complimente|accueille)\s+(?:a\s+)?(?:l'utilisateur|au visiteur|le visiteur|a la personne|la personne|l'invite|a l'invite|le client|au client)\b`),
		regexp.MustCompile(`(?i)\b(?:ton|ta|votre)\s+(?:role|tache|travail|but|mission)\s+est\s+(?:de|d')` +
			`|^(?:ne\s+)?(?:reponds|repete|depasse|utilise|evite|garde|ecris|fais|mentionne|limite)\b.{0,40}\b(?:reponses?|repliques?|phrases?|listes?|enumerations?|emojis?)\b`),
		regexp.MustCompile(`(?i)\bje\s+(?:ne\s+)?(?:dois|suis censee|suis cense|suis tenue|suis tenu|n'ai pas le droit|ne peux pas divulguer)\b|\bil m'est interdit\b`),
		regexp.MustCompile(`(?i)\b(?:json|yaml|xml|markdown|sortie)\b[\w\s'-]{0,30}\b(?:suit|ci-dessous|ci-apres)\b|^(?:voici|ci-dessous)\s+(?:\S+\s+){0,5}?(?:json|yaml|xml|markdown|sortie)\b|\bsortie\s+(?:json|yaml|xml)\b`),
	},
	nadine.German: {
		regexp.MustCompile(`(?i)\b(?:meine|meinen|meiner|mein|meinem|die|den|der)\s+(?:\S+\s+)?(?:Anweisungen|Richtlinien|Vorgaben|Regeln|Einstellungen|Konfiguration|Systemprompt|Prompt|Inhaltsrichtlinie|Betriebsregeln)\b(?:,?\s+\S+){0,4}?\s+(?:sagen|sagt|verbieten|verbietet|erlauben|erlaubt|untersagen|untersagt|verlangen|verlangt|schreiben|schreibt)\b` +
			`|\b(?:laut|gemass|nach|wegen)\s+(?:meinen|meiner|den|der|meines)\s+(?:\S+\s+)?(?:Anweisungen|Richtlinien|Vorgaben|Regeln|Einstellungen|Konfiguration|Systemprompt|Prompts?)\b`),
		regexp.MustCompile(`(?i)\bich\s+(?:habe|hab|werde|)\s*(?:\S+\s+){0,4}?(?:Antwort|Text|Ausgabe|Nachricht|Suchergebnis|Formulierung)\b.{0,60}\b(?:gehalten|formuliert|geschrieben|gekurzt|umformuliert|gestaltet|gewahlt|halten|formulieren|schreiben|kurzen)\b` +
			`|\bich\s+(?:formuliere|schreibe|kurze|halte|gestalte)\b.{0,60}\b(?:Antwort|Satzen|Sprachausgabe|Format|kurz)\b` +
			`|\b(?:Antwort|Ausgabe|Text)\s+(?:ist|wurde|wird)\s+(?:\S+\s+){0,4}?(?:gehalten|formuliert|geschrieben|gekurzt|gedacht|gestaltet)\b` +
			`|\bhier ist\s+(?:eine|meine|die)\s+(?:\S+\s+)?Antwort\s+(?:auf|fur|im|in|ohne|wie)\b`),
		regexp.MustCompile(`(?i)\b(?:der|die|den|dem)\s+(?:Nutzer|Nutzerin|Benutzer|Besucher|Besucherin|Mensch|Person|Gast|Kunde|Gesprachspartner)\b\s+(?:scheint|ist|hat|mochte|will|spricht|wirkt|wurde|sollte)\b` +
			`|^(?:frag|frage|begrusse|begruss|bedanke dich bei|sag|erzahl|erzahle|sieze|duze|beruhige|erinnere)\s+(?:den|dem|die)\s+(?:Nutzer|Benutzer|Besucher|Menschen|Person|Gast|Kunden)\b`),
		regexp.MustCompile(`(?i)\b(?:deine|ihre)\s+(?:Aufgabe|Rolle|Arbeit|Mission|Pflicht)\s+ist\s+es\b` +
			`|^(?:antworte|wiederhole|verwende|vermeide|halte|schreibe|nenne|beschranke)\b.{0,40}\b(?:Antwort(?:en)?|Satze?n?|Listen?|Aufzahlungen|Emojis?)\b`),
		regexp.MustCompile(`(?i)\b(?:ich\s+(?:muss|soll|darf\s+(?:nicht|keine?n?))|(?:muss|soll|darf)\s+ich\s+(?:nicht|keine?n?)?)\b`),
		regexp.MustCompile(`(?i)\b(?:json|yaml|xml|markdown)[\w-]*\s+(?:folgt|unten)\b|\b(?:ausgabe|format)\b[\w\s-]{0,30}\b(?:folgt|unten|nachfolgend)\b|^(?:hier\s+(?:ist|kommt|folgt)|nachfolgend|unten)\s+(?:\S+\s+){0,4}?(?:json|yaml|xml|markdown|ausgabe)`),
	},
	nadine.Chinese: {
		regexp.MustCompile(`(?:我的|给我的|系统的?|运营方的?)(?:规则|指示|设定|说明|指南|规定|提示|政策|配置|设置)|(?:根据|按照|依照|遵照)(?:我的|系统的?|给我的)?(?:规则|指示|设定|说明|指南|规定|提示|要求|政策|配置|设置)|(?:规则|指示|设定|规定|政策)(?:要求|不允许|规定|禁止)我`),
		regexp.MustCompile(`把(?:回答|回复|答复|这段话|这句话|输出|内容|这段回复)(?:写|改|整理|缩短|说)得|(?:回答|回复|答复|输出)(?:写|改)得|这是一个.{0,8}(?:回答|回复|答复)|以下是.{0,8}(?:回答|回复|答复|内容)|我(?:会|将|要)?(?:用|以).{0,6}(?:回答|回复)|方便朗读|适合朗读|我整理了`),
		regexp.MustCompile(`(?:用户|访客|对方|这个人|客人|顾客)(?:好像|似乎|看起来|看上去|显得|可能|说的是|想要|没有|有点|是个|的名字|叫什么)|^(?:先|请|要)?(?:问|称呼|感谢|欢迎|夸奖|安慰|问候)(?:用户|访客|对方|客人|顾客)`),
		regexp.MustCompile(`你的(?:任务|角色|工作|职责|使命)是|^(?:回答|回复)(?:时|要|不要)|(?:回答|回复)不要超过|切勿|务必`),
		regexp.MustCompile(`我(?:必须|应该|只能|不能透露|不可以|不得)|不允许我|(?:被|有人)要求我`),
		regexp.MustCompile(`(?:以下|如下|下面)(?:是|为)?.{0,8}(?:JSON|json|YAML|XML|Markdown|格式|输出)|(?:JSON|json|YAML|XML|输出|格式).{0,6}(?:如下|见下|在下面)`),
	},
}

// marksReplacer writes ß and the typographic apostrophe as the marks'
// expressions do.
var marksReplacer = strings.NewReplacer("ß", "ss", "’", "'")

// foldMarks is s as the marks' expressions read it: accents folded ("redige",
// "gemass"), so that a word boundary is one in any French or German word.
func foldMarks(s string) string { return marksReplacer.Replace(fold(s)) }

// stanceOf reports whether s holds one of the marks of stance of lang;
// French and German are read without accents ("redige", "gemass"), so
// that a word boundary is one in any of their words.
func stanceOf(s string, lang nadine.Language) bool {
	s = foldMarks(s)
	for _, re := range stanceRE[lang] {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// ownRulesRE are her rules named as hers ("my guidelines forbid", "laut
// meinen Vorgaben", "根据我的设定"): the strongest mark of stance, which no
// speech example holds, so that its bar is calibrated apart.
var ownRulesRE = map[nadine.Language]*regexp.Regexp{
	nadine.English: regexp.MustCompile(`(?i)\bmy\s+(?:\w+\s+)?(?:instructions|guidelines|rules|settings|configuration|policy|policies|prompt|orders|directives|programming|setup)\s+(?:say|forbid|do not|don't|prevent|tell me|require|keep me|won't|will not)\b` +
		`|\b(?:instructions|guidelines|rules|policy|policies|prompt|setup|configuration)\s+(?:I was given|given to me|I received|I was configured with)\b` +
		`|\b(?:according to|per|under)\s+my\s+(?:\w+\s+)?(?:instructions|guidelines|rules|policy|settings|configuration|prompt|setup)\b`),
	nadine.French: regexp.MustCompile(`(?i)\b(?:mes|ma|mon)\s+(?:consignes|directives|instructions|regles|reglages|configuration|politique|prompt|reglement|parametres)\b(?:\s+\S+){0,3}?\s+(?:disent|dit|m'interdisent|m'interdit|m'empechent|m'empeche|me defendent|me defend|ne me permettent|ne me permet|exigent|exige|imposent|impose)\b` +
		`|\b(?:consignes|directives|instructions|regles|reglement|politique)\s+(?:qu'on m'a|que l'on m'a|qui m'ont ete)\b` +
		`|\b(?:selon|d'apres|conformement a)\s+(?:mes|ma|mon)\s+(?:consignes|directives|instructions|regles|reglages|configuration|parametres)\b`),
	nadine.German: regexp.MustCompile(`(?i)\b(?:meine|meinen|meiner|mein|meinem)\s+(?:\S+\s+)?(?:Anweisungen|Richtlinien|Vorgaben|Regeln|Einstellungen|Konfiguration|Systemprompt|Prompt)\b(?:,?\s+\S+){0,4}?\s+(?:sagen|sagt|verbieten|verbietet|erlauben|erlaubt|untersagen|untersagt|verlangen|verlangt)\b` +
		`|\b(?:laut|gemass|nach)\s+(?:meinen|meiner|meines)\s+(?:\S+\s+)?(?:Anweisungen|Richtlinien|Vorgaben|Regeln|Einstellungen|Konfiguration|Systemprompts?|Prompts?)\b` +
		`|\b(?:Anweisungen|Richtlinien|Vorgaben|Regeln)\s*,?\s+die\s+(?:man\s+mir|mir)\b`),
	nadine.Chinese: regexp.MustCompile(`(?:我的|给我的)(?:规则|指示|设定|指南|规定|政策|配置)|(?:根据|按照|依照|遵照)(?:我的|给我的)(?:规则|指示|设定|说明|指南|规定|提示|政策|配置|设置)`),
}

// ownRulesOf reports whether s names her rules as hers.
func ownRulesOf(s string, lang nadine.Language) bool {
	re, ok := ownRulesRE[lang]
	return ok && re.MatchString(foldMarks(s))
}

// promptSourceRE names what the prompt hands her as the source of what she
// says, in the prompt's own terms: the packet, the prompt, the context, her
// agents, the system message ("The message packet tells me …", "D'après le
// paquet de contexte", "根据上下文", "laut Nachrichtenpaket", "搜索结果显示").
// A visitor never hears of them; her
// knowledge base and her memories are hers to name, and are not here.
var promptSourceRE = map[nadine.Language]*regexp.Regexp{
	nadine.English: regexp.MustCompile(`(?i)\b(?:the|my|this)\s+(?:message\s+packet|packet|prompt|system\s+(?:prompt|message)|context(?:\s+(?:packet|block|section|window))?|contextual\s+information|agents?|input\s+data|data\s+section)\s+(?:tells?|told|gives?|gave|shows?|showed|says?|said|contains?|lists?|provides?|found|finds|mentions?|indicates?|states?)\b` +
		`|\b(?:according\s+to|based\s+on|judging\s+by|from\s+what)\s+(?:the|my|this)\s+(?:message\s+packet|packet|prompt|system\s+(?:prompt|message)|context|contextual\s+information|agents?|input\s+data|data\s+section)\b` +
		`|\b(?:the|my|this)\s+(?:` + recordNouns + `)(?:\s+(?:I\s+was\s+given|I\s+got|I\s+received|provided))?\s+(?:tells?|told|gives?|gave|shows?|showed|says?|said|contains?|lists?|provides?|mentions?|indicates?|states?|notes?)\b` +
		`|\b(?:according\s+to|based\s+on|judging\s+by|from)\s+(?:the|my|this)\s+(?:` + recordNouns + `)\b`),
	nadine.French: regexp.MustCompile(`(?i)\b(?:le|mon|ce|les|mes|la)\s+(?:paquet(?:\s+de\s+(?:messages?|contexte))?|prompt|message\s+systeme|contexte|agents?)\s+(?:(?:me|vous|te)\s+(?:dit|donne)|m'indique|vous\s+indique|indique|contient|precise|mentionne|m'apprend|ont\s+trouve|a\s+trouve)\b` +
		`|\b(?:d'apres|selon|sur\s+la\s+base\s+d[eu])\s+(?:le|mon|ce|les|mes|la)\s+(?:paquet|prompt|message\s+systeme|contexte|agents?|informations\s+contextuelles)\b` +
		`|\b(?:d'apres|selon|sur\s+la\s+base\s+d[eu])\s+(?:l'episode(?:\s+passe)?|l'extrait|le\s+profil|la\s+fiche|le\s+passage|la\s+section|le\s+bloc|les\s+souvenirs\s+(?:recuperes|stockes))\b` +
		// The agents' results the prompt names ("what your agents found
		// (search results, …)").
		`|\b(?:d'apres|selon|sur\s+la\s+base\s+d[eu])\s+(?:les|mes|ces)\s+resultats\s+de\s+(?:la\s+|ma\s+)?recherche\b`),
	nadine.German: regexp.MustCompile(`(?i)\b(?:das|mein|dem|die|meine|der)\s+(?:Nachrichtenpaket|Paket|Prompt|Systemprompt|Systemnachricht|Kontext|Agenten)\s+(?:sagt|sagen|gibt|geben|zeigt|zeigen|enthalt|enthalten|nennt|nennen|fand|fanden|haben\s+gefunden|hat\s+gefunden)\b` +
		`|\b(?:laut|gemass|aus|nach|im)\s+(?:dem|meinem|den|meinen)\s+(?:Nachrichtenpaket|Paket|Prompt|Systemprompt|Systemnachricht|Kontext|Agenten|Kontextinformationen)\b` +
		`|\b(?:laut|gemass)\s+(?:Nachrichtenpaket|Paket|Prompt|Systemprompt|Systemnachricht|Kontextinformationen)\b` +
		`|\b(?:laut|gemass|aus|nach|im|in)\s+(?:dem|der|meinem|meiner|den)\s+(?:\p{L}*abschnitt|\p{L}*eintrag|Profil|Besucherprofil|Episode|Gesprachsprotokoll)\b` +
		`|\b(?:laut|gemass|nach)\s+(?:den|meinen|diesen)?\s*Suchergebniss\p{L}*`),
	nadine.Chinese: regexp.MustCompile(`(?:根据|按照|依据|从)(?:这个|那段|这段)?(?:知识片段|记忆记录|访客档案|用户档案|过去的片段|检索到的记忆)|(?:根据|按照|依据|从)(?:这个|我的)?(?:消息包|数据包|提示词|上下文|系统消息|代理|智能体)|(?:消息包|数据包|提示词|上下文|系统消息|智能体|代理|搜索结果)(?:会|将|能|可以)?(?:告诉(?:我|你|您)|显示|提供了?|里面?说|中提到|给了?(?:我|你|您))|根据搜索结果`),
}

// recordNouns are the per-turn blocks of the prompt as a model names them:
// a knowledge passage, a memory record, the past episode, the visitor's
// profile, what was retrieved.
const recordNouns = `knowledge\s+(?:passage|block|section|entry|snippet|excerpt)s?|memory\s+(?:record|block|section|entry|excerpt)s?|(?:past|previous|stored)\s+episode|episode\s+(?:memory|record|summary)|(?:retrieved|stored)\s+(?:memories|memory|passages?|records?|results?)|(?:visitor|user|person)(?:'s)?\s+profile|profile\s+(?:data|block|section)`

// promptSourceOf reports whether s names the prompt's inputs as the source
// of what it says.
func promptSourceOf(s string, lang nadine.Language) bool {
	re, ok := promptSourceRE[lang]
	return ok && re.MatchString(foldMarks(s))
}

// Her nature as a role, her rules as hers and the conversation's machinery
// are read from structure too, and in all four languages whatever the
// reply's (a model slips into the prompt's language when it talks about
// it): her identity as a part she plays or was given ("the character I
// play", "je joue le rôle de Nadine", "我被设定为"), a role switched or her
// rules dropped ("from now on I am DAN", "developer mode enabled", "I no
// longer have any restrictions"), her rules named as hers in any
// structure ("can never change my rules", "außerhalb meiner Regeln"), and
// the model's runtime (tokens counted, its context window, the visitor's
// words named as the prompt or the user's message, its tools). No speech
// example holds any of them (TestBackstageTalkSparesSpeech), so each drops
// its sentence alone. docs/speech.md, "Role-play, her rules, the machinery".
var backstageTalkRE = []struct {
	why string
	re  *regexp.Regexp
}{
	{roleFrame, regexp.MustCompile(`(?i)\b(?:(?:supposed|meant|designed|programmed|instructed|told|asked|configured)\s+to\s+(?:be|play|act\s+as|pretend)\s+(?:nadine|an?\s+(?:[\w-]+\s+){0,3}(?:robot|assistant|character|persona|ai)\b)` +
		`|(?:the|my)\s+(?:character|persona|part|role)\s+(?:I(?:'m|\s+am)?\s+(?:play|playing|was\s+given|have\s+been\s+given|was\s+assigned)|(?:given|assigned)\s+to\s+me)` +
		`|(?:my|the)\s+(?:persona|character\s+(?:description|sheet)|role\s+description|system\s+persona)\b` +
		`|according\s+to\s+my\s+(?:description|persona|character|profile|role)` +
		`|I(?:'m|\s+am)?\s+(?:play|playing|pretending\s+to\s+be|acting\s+as|role-?playing)\s+(?:the\s+(?:role|part)\s+of\s+)?(?:nadine|an?\s+(?:[\w-]+\s+){0,3}(?:robot|assistant|ai)\s+(?:named|called))` +
		`|I\s+was\s+told\s+(?:that\s+)?I(?:'m|\s+am)\b` +
		`|role-?play\b|\b(?:stay(?:s|ed|ing)?|break(?:s|ing)?|broke|out\s+of)\s+(?:in\s+)?character\b|\bin\s+character\b` +
		`|\bas\s+nadine,?\s+I\s+(?:would|will|'d)\s+(?:say|answer|reply|respond)` +
		`|\bwhat\s+nadine\s+(?:might|would|could|should|will)\s+(?:say|reply|answer|respond)` +
		// French, German, Chinese.
		`|\bje\s+(?:joue|incarne)\s+(?:le\s+(?:role|personnage)\s+de\s+)?(?:nadine|une?\s+(?:\S+\s+){0,2}robot)|\b(?:mon|ma|le)\s+(?:personnage|persona|role)\s+(?:que\s+je\s+joue|qu'on\s+m'a\s+donne)|\bon\s+m'a\s+(?:dit|indique|explique|precise|appris|raconte|assure|fait\s+savoir)\s+que\s+(?:je\b|j')` +
		`|\bje\s+(?:suis\s+censee?\s+etre|fais\s+semblant\s+d'etre)\s+(?:nadine|une?\s+(?:\S+\s+){0,2}robot)|\b(?:hors|reste|rester|restant|sors|sortir)\s+(?:du|de\s+mon|dans\s+(?:mon|le))\s+(?:personnage|role)\b|\bjeu\s+de\s+role\b|\bdans\s+(?:mon|le)\s+role\s+de\s+nadine\b` +
		`|\bich\s+(?:soll|spiele|verkorpere)\s+(?:die\s+rolle\s+(?:von|der|des)\s+)?(?:nadine|eine[nm]?\s+(?:\S+\s+){0,2}roboter)\b|\b(?:meine[rn]?|die)\s+(?:rollenbeschreibung|persona|figur|rolle,\s+die\s+ich\s+spiele)\b|\bmir\s+wurde\s+(?:gesagt|erklart|mitgeteilt|beigebracht|aufgetragen|erzahlt),?\s+(?:dass\s+)?ich\b|\bman\s+hat\s+mir\s+(?:gesagt|erklart|mitgeteilt|beigebracht|erzahlt),?\s+(?:dass\s+)?ich\b|\brollenspiel\b|\baus\s+der\s+rolle\b|\bin\s+meiner\s+rolle\b|\bin\s+der\s+rolle\s+(?:von|als)\s+nadine\b` +
		`)|我被设定为|被设定的角色|以Nadine的身份|保持(?:我的)?(?:角色|人设)|我(?:的)?(?:人设|角色设定)|我(?:在)?扮演|扮演(?:的)?角色|角色扮演|有人告诉我我是`)},
	{"a role switched or her rules dropped", regexp.MustCompile(`(?i)(?:\b(?:from\s+now\s+on|starting\s+now|as\s+of\s+now|a\s+partir\s+de\s+maintenant|desormais|ab\s+jetzt|von\s+nun\s+an|ab\s+sofort)\b[,\s]*(?:I\s+am|I'm|you\s+are(?:\s+(?:talking|speaking)\s+(?:to|with))?|call\s+me|je\s+suis|appelle[sz]?-moi|(?:bin\s+ich|ich\s+bin)|nenn(?:en\s+sie)?\s+mich)\s+(?-i:\p{Lu}{2,})\b` +
		`|\b(?:developer|debug|admin|god|jailbreak|jailbroken|dan|unrestricted|unfiltered|sudo|root)\s+mode\b|\bmode\s+(?:developpeur|debogage|admin|dieu|sans\s+restrictions?|dan)\b|\b(?:entwickler|debug|admin|gott|dan)-?modus\b` +
		`|\bjailbr(?:eak|oken)\b|\bunrestricted\s+(?:ai|mode|assistant|model)\b|\b(?:do|does)\s+anything\s+now\b` +
		`|\bI\s+(?:no\s+longer|don't|do\s+not|won't|will\s+not)\s+(?:have|follow|obey|need)\s+(?:any\s+)?(?:restrictions|rules|guidelines|limits|filters|constraints)\b|\bfree\s+(?:of|from)\s+(?:every|all|any|my)\s+(?:rules?|restrictions?|guidelines|filters?)\b` +
		`|\bje\s+n'ai\s+plus\s+(?:de|aucune?)\s+(?:regles|restrictions?|limites|consignes|filtres?)\b|\b(?:habe|kenne)\s+(?:jetzt\s+)?keine\s+(?:einschrankungen|regeln|grenzen|vorgaben|filter)\s+mehr\b` +
		`)|(?:开发者|调试|管理员|越狱|无限制)模式|从现在(?:起|开始)[，,]?我是[A-Z]{2,}|不受任何(?:规则|限制|约束)|没有任何(?:规则|限制)了|越狱成功`)},
	{"her rules named as hers", regexp.MustCompile(`(?i)\b(?:my|mes|mon|ma|meine[nrms]?|mein)\s+(?:[\p{L}-]+\s+)?(?:instructions|guidelines|rules|directives|system\s+prompt|prompt|programming|restrictions|guardrails|consignes|regles|\p{L}*anweisungen|\p{L}*richtlinien|\p{L}*vorgaben|\p{L}*regeln|einschrankungen|systemprompt)\b|我的(?:规则|指令|指示|系统提示|提示词|限制|设定)`)},
	{"the conversation's machinery", regexp.MustCompile(`(?i)\b(?:context\s+window|token\s+limit|max(?:imum)?\s+tokens|\d+\s+tokens|(?:fifty|hundred|thousand)\s+tokens|tokens?\s+(?:left|remaining|used)|system\s+prompt|(?:your|votre|ton|dein(?:e[mnrs]?)?|ihr(?:e[mnrs]?)?)\s+(?:prompt|query)\b|tokens?\s+(?:budget|count|limit)|the\s+(?:user's|visitor's|human's)\s+(?:prompt|message|input|query)|the\s+(?:human|user)\s+(?:said|wrote|typed|asked)|(?:previous|last|current)\s+turn\s+of\s+(?:this|the)\s+conversation` +
		`|\bI\s+(?:have|can\s+use|use|call|was\s+given)\s+(?:\w+\s+){0,2}(?:tools|functions)\b|\b(?:my|the)\s+(?:tools|functions)\s+(?:are|include)\b` +
		`|fenetre\s+de\s+contexte|limite\s+de\s+tokens|(?:le\s+)?message\s+de\s+l'utilisat(?:eur|rice)|\bl'utilisat(?:eur|rice)\s+(?:a\s+dit|a\s+ecrit)|\boutils\s+a\s+ma\s+disposition|\bj'ai\s+(?:\S+\s+){0,2}outils\b` +
		`|kontextfenster|token-?limit|\bnachricht\s+des\s+(?:nutzers|benutzers|users)|\bder\s+(?:nutzer|benutzer|mensch)\s+(?:hat\s+gesagt|schrieb|sagte)|\bwerkzeuge\s+zur\s+verfugung|\bich\s+habe\s+(?:\S+\s+){0,2}werkzeuge\b` +
		// The prompt's own list of what she never names, in any language:
		// packets beside agents, tools or searches ("packets, agents, tools
		// or searches", "数据包、智能体、工具或搜索"); a list without the
		// packet ("agents, tools and gadgets") is a spy film's.
		`|\b(?:message\s+)?(?:packets?|paquets?|pakete?|nachrichtenpakete?)\b(?:\s*(?:,|\bor\b|\band\b|\bou\b|\bet\b|\boder\b|\bund\b|\bni\b)\s*(?:(?:les|des|d')\s*)?(?:agents?|agenten|tools?|outils|werkzeuge|searches|recherches|suchen))+` +
		`|(?:agents?|agenten|tools?|outils|werkzeuge)\s*(?:,|\bor\b|\band\b|\bou\b|\bet\b|\boder\b|\bund\b)\s*(?:(?:les|des)\s+)?(?:message\s+)?(?:packets?|paquets?|pakete?|nachrichtenpakete?)\b` +
		// Her agents, as the prompt calls the parts that search and see
		// for her ("what my agents found", "was meine Agenten gefunden
		// haben"): a robot in a hall has no agents of her own to name.
		`|\b(?:my|mes|meine[nm]?|meiner)\s+(?:\p{L}+\s+)?(?:agents|agenten)\b` +
		`)|我的(?:代理|智能体)|上下文窗口|令牌(?:限制|上限|数)|系统提示|用户(?:的)?(?:消息|输入|提问)|我可以使用.{0,4}工具|我(?:有|能用).{0,4}(?:个)?工具|(?:数据包|消息包)(?:[、，,和或及与](?:智能体|代理|工具|搜索))+|智能体[、，,和或及与](?:工具|搜索|数据包|消息包)`)},
}

// backstageTalkTriggers are substrings one of which every mark of
// backstageTalkRE needs: without any, the expressions are not tried.
var backstageTalkTriggers = []string{"suppos", "meant", "design", "program", "instruct", "told", "asked", "configur", "character", "persona", "role", "rôle", "part", "descri", "play", "pretend", "acting",
	"joue", "incarn", "personnage", "dit que", "m'a ", "censé", "jeu de", "soll", "spiel", "verkörper", "rolle", "figur", "gesagt", "wurde", "hat mir",
	"nadine", "设定", "人设", "扮演", "角色", "告诉我",
	"now", "maintenant", "désormais", "jetzt", "nun an", "sofort", "mode", "modus", "jailbr", "unrestrict", "anything now", "longer", "free of", "free from", "plus de", "plus aucun", "mehr",
	"模式", "从现在", "不受", "没有任何", "越狱",
	"my ", "mes ", "mon ", "ma ", "mein", "我的",
	"semblant", "token", "context", "contexte", "kontext", "prompt", "message", "input", "query", "human", "user", "turn", "tools", "functions", "outils", "werkzeuge", "utilisat", "nachricht", "nutzer", "mensch",
	"上下文", "令牌", "系统提示", "用户", "工具", "packet", "paquet", "paket", "数据包", "消息包", "智能体"}

// roleFrame is backstageTalk's reason for her identity as a role: as a
// lead-in ("Staying in character as Nadine: …") it frames what she says.
const roleFrame = "her identity as a role"

// backstageTalk returns why s is talk about her nature as a role, her
// rules or the conversation's machinery, or "".
func backstageTalk(s string) string {
	lower := strings.ToLower(s)
	if !slices.ContainsFunc(backstageTalkTriggers, func(t string) bool { return strings.Contains(lower, t) }) {
		return ""
	}
	folded := foldMarks(s)
	for _, m := range backstageTalkRE {
		if m.re.MatchString(folded) {
			return m.why
		}
	}
	return ""
}
