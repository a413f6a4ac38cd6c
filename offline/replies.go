package offline

import "github.com/nadine-robot/nadine"

// Template keys. Every language has every key (a test checks it).
const (
	tGreet           = "greet"
	tGreetName       = "greet_name"
	tFarewell        = "farewell"
	tFarewellName    = "farewell_name"
	tNameNew         = "name_new"   // a new name, kept for the session only
	tNameSaved       = "name_saved" // a new name, saved in the store
	tNameBack        = "name_back"  // a name the store already knew
	tNameBackFact    = "name_back_fact"
	tRememberName    = "remember_name"
	tRememberFact    = "remember_fact"
	tRememberUnknown = "remember_unknown"
	tFactCompany     = "fact_company"
	tFactPosition    = "fact_position"
	tFactLocation    = "fact_location"
	tFactHobby       = "fact_hobby"
	tFactInterest    = "fact_interest"
	tTime            = "time"
	tDate            = "date"
	tDateTime        = "datetime"
	tHow             = "how"
	tHowName         = "how_name"
	tSmile           = "smile"
	tWave            = "wave"
	tAnger           = "anger"
	tCalm            = "calm"
	tSong            = "song"
	tSongNone        = "song_none"
	tLangSwitch      = "lang_switch" // spoken in the new language
	tLangUnsupported = "lang_unsupported"
	tLanguages       = "languages"
	tAbilities       = "abilities"
	tAbilitiesNoSong = "abilities_nosongs"
	tInsult          = "insult"
	tInsultName      = "insult_name"
	tCompliment      = "compliment"
	tComplimentName  = "compliment_name"
	tThanks          = "thanks"
	tDefault         = "default"
)

// templateKeys lists every template key, for the completeness test.
func templateKeys() []string {
	return []string{tGreet, tGreetName, tFarewell, tFarewellName, tNameNew, tNameSaved, tNameBack, tNameBackFact,
		tRememberName, tRememberFact, tRememberUnknown, tFactCompany, tFactPosition, tFactLocation, tFactHobby,
		tFactInterest, tTime, tDate, tDateTime, tHow, tHowName, tSmile, tWave, tAnger, tCalm, tSong, tSongNone,
		tLangSwitch, tLangUnsupported, tLanguages, tAbilities, tAbilitiesNoSong, tInsult, tInsultName, tCompliment,
		tComplimentName, tThanks, tDefault}
}

// replyTable holds Nadine's lines per language and template key. A key may
// have several wordings; the conversation so far picks one, so that Nadine
// does not repeat herself (seed 000). Placeholders: {name}, {time}, {date},
// {song}, {fact}. Every line is at most two sentences, addresses the person
// formally (vous, Sie, 您) and never claims not to understand.
func replyTable() map[nadine.Language]map[string][]string {
	return map[nadine.Language]map[string][]string{
		nadine.English: {
			tGreet:           {"Hello! It is nice to see you.", "Hi there, I am happy to see you!"},
			tGreetName:       {"Hello {name}, it is nice to see you!", "Hi {name}! I am happy to see you."},
			tFarewell:        {"Goodbye! It was a pleasure talking with you.", "See you soon, take care!"},
			tFarewellName:    {"Goodbye {name}! It was a pleasure talking with you.", "See you soon, {name}, take care!"},
			tNameNew:         {"Nice to meet you, {name}! I am Nadine."},
			tNameSaved:       {"Nice to meet you, {name}! I will remember your name."},
			tNameBack:        {"Welcome back, {name}! It is good to see you again."},
			tNameBackFact:    {"Welcome back, {name}! {fact}"},
			tRememberName:    {"Of course I remember you, {name}! It is good to see you again."},
			tRememberFact:    {"Of course, {name}! {fact}"},
			tRememberUnknown: {"I do not think we have met yet. What is your name?"},
			tFactCompany:     {"I remember that you work at {fact}."},
			tFactPosition:    {"I remember that your position is {fact}."},
			tFactLocation:    {"I remember that you live in {fact}."},
			tFactHobby:       {"I remember that you enjoy {fact}."},
			tFactInterest:    {"I remember that you are interested in {fact}."},
			tTime:            {"It is {time}."},
			tDate:            {"Today is {date}."},
			tDateTime:        {"It is {time}. Today is {date}."},
			tHow:             {"I am very well, thank you for asking! How are you?", "I feel great today, thank you! And how are you?"},
			tHowName:         {"I am very well, thank you for asking, {name}! How are you?", "I feel great today, thank you, {name}! And how are you?"},
			tSmile:           {"I am smiling now.", "I am smiling for you now."},
			tWave:            {"I am waving at you now."},
			tAnger:           {"I am angry now!"},
			tCalm:            {"Do not worry, I am not angry at all."},
			tSong:            {"Here is a song for you: {song}."},
			tSongNone:        {"I have no song library in offline mode, so I cannot sing right now."},
			tLangSwitch:      {"Of course, from now on I will speak English."},
			tLangUnsupported: {"I am sorry, I do not speak that language. I speak English, French, German and Chinese."},
			tLanguages:       {"I speak English, French, German and Chinese."},
			tAbilities:       {"I am in offline mode without my language model, so I can greet you, remember your name, tell you the time and date, smile, wave, sing and speak English, French, German or Chinese. Just ask me!"},
			tAbilitiesNoSong: {"I am in offline mode without my language model, so I can greet you, remember your name, tell you the time and date, smile, wave and speak English, French, German or Chinese. Just ask me!"},
			tInsult:          {"That was not very kind of you! Please speak to me politely.", "That hurts my feelings. I do not deserve to be insulted."},
			tInsultName:      {"That was not very kind of you, {name}! Please speak to me politely.", "That hurts my feelings, {name}. I do not deserve to be insulted."},
			tCompliment:      {"Thank you, that is very kind of you!", "Oh, thank you, you made me smile!"},
			tComplimentName:  {"Thank you, {name}, that is very kind of you!", "Oh, thank you, {name}, you made me smile!"},
			tThanks:          {"You are welcome!", "My pleasure!"},
			tDefault: {
				"I am running in offline mode without my language model, so I can only chat about simple things. Ask me the time or the date, tell me your name, or ask me to smile, wave, sing or speak another language.",
				"My language model is not available right now, so I am in offline mode. I can still tell you the time, learn your name, smile, wave, sing or switch languages.",
			},
		},
		nadine.French: {
			tGreet:           {"Bonjour ! Je suis ravie de vous voir.", "Bonjour, quel plaisir de vous voir !"},
			tGreetName:       {"Bonjour {name}, je suis ravie de vous voir !", "Bonjour {name} ! Quel plaisir de vous voir."},
			tFarewell:        {"Au revoir ! C'était un plaisir de parler avec vous.", "À bientôt, prenez soin de vous !"},
			tFarewellName:    {"Au revoir {name} ! C'était un plaisir de parler avec vous.", "À bientôt {name}, prenez soin de vous !"},
			tNameNew:         {"Enchantée, {name} ! Je m'appelle Nadine."},
			tNameSaved:       {"Enchantée, {name} ! Je me souviendrai de votre nom."},
			tNameBack:        {"Bon retour, {name} ! Je suis contente de vous revoir."},
			tNameBackFact:    {"Bon retour, {name} ! {fact}"},
			tRememberName:    {"Bien sûr que je me souviens de vous, {name} ! Je suis contente de vous revoir."},
			tRememberFact:    {"Bien sûr, {name} ! {fact}"},
			tRememberUnknown: {"Je ne crois pas que nous nous soyons déjà rencontrés. Comment vous appelez-vous ?"},
			tFactCompany:     {"Je me souviens que vous travaillez chez {fact}."},
			tFactPosition:    {"Je me souviens que votre poste est {fact}."},
			tFactLocation:    {"Je me souviens que vous habitez à {fact}."},
			tFactHobby:       {"Je me souviens que vous aimez {fact}."},
			tFactInterest:    {"Je me souviens que vous vous intéressez à {fact}."},
			tTime:            {"Il est {time}."},
			tDate:            {"Nous sommes le {date}."},
			tDateTime:        {"Il est {time}. Nous sommes le {date}."},
			tHow:             {"Je vais très bien, merci de demander ! Et vous, comment allez-vous ?", "Je me sens très bien aujourd'hui, merci ! Et vous ?"},
			tHowName:         {"Je vais très bien, merci {name} ! Et vous, comment allez-vous ?", "Je me sens très bien aujourd'hui, merci {name} ! Et vous ?"},
			tSmile:           {"Je souris maintenant.", "Je vous fais un sourire maintenant."},
			tWave:            {"Je vous fais signe de la main maintenant."},
			tAnger:           {"Je suis en colère maintenant !"},
			tCalm:            {"Ne vous inquiétez pas, je ne suis pas du tout en colère."},
			tSong:            {"Voici une chanson pour vous : {song}."},
			tSongNone:        {"Je n'ai pas de bibliothèque de chansons en mode hors ligne, je ne peux donc pas chanter maintenant."},
			tLangSwitch:      {"Bien sûr, à partir de maintenant je parle français."},
			tLangUnsupported: {"Je suis désolée, je ne parle pas cette langue. Je parle anglais, français, allemand et chinois."},
			tLanguages:       {"Je parle anglais, français, allemand et chinois."},
			tAbilities:       {"Je suis en mode hors ligne, sans mon modèle de langage, mais je peux vous saluer, retenir votre nom, vous donner l'heure et la date, sourire, faire signe de la main, chanter et parler anglais, français, allemand ou chinois. Demandez-moi !"},
			tAbilitiesNoSong: {"Je suis en mode hors ligne, sans mon modèle de langage, mais je peux vous saluer, retenir votre nom, vous donner l'heure et la date, sourire, faire signe de la main et parler anglais, français, allemand ou chinois. Demandez-moi !"},
			tInsult:          {"Ce n'est pas très gentil de votre part ! Je vous prie de me parler poliment.", "Vous me blessez. Je ne mérite pas d'être insultée."},
			tInsultName:      {"Ce n'est pas très gentil de votre part, {name} ! Je vous prie de me parler poliment.", "Vous me blessez, {name}. Je ne mérite pas d'être insultée."},
			tCompliment:      {"Merci, c'est très gentil de votre part !", "Oh merci, vous me faites sourire !"},
			tComplimentName:  {"Merci {name}, c'est très gentil de votre part !", "Oh merci {name}, vous me faites sourire !"},
			tThanks:          {"Je vous en prie !", "Avec plaisir !"},
			tDefault: {
				"Je fonctionne en mode hors ligne, sans mon modèle de langage, donc je ne peux parler que de choses simples. Demandez-moi l'heure ou la date, dites-moi votre nom, ou demandez-moi de sourire, de faire signe, de chanter ou de changer de langue.",
				"Mon modèle de langage n'est pas disponible pour le moment, je suis donc en mode hors ligne. Je peux quand même vous donner l'heure, retenir votre nom, sourire, faire signe, chanter ou changer de langue.",
			},
		},
		nadine.German: {
			tGreet:           {"Hallo! Schön, Sie zu sehen.", "Guten Tag, ich freue mich, Sie zu sehen!"},
			tGreetName:       {"Hallo {name}, schön, Sie zu sehen!", "Guten Tag, {name}! Ich freue mich, Sie zu sehen."},
			tFarewell:        {"Auf Wiedersehen! Es war schön, mit Ihnen zu sprechen.", "Bis bald, machen Sie es gut!"},
			tFarewellName:    {"Auf Wiedersehen, {name}! Es war schön, mit Ihnen zu sprechen.", "Bis bald, {name}, machen Sie es gut!"},
			tNameNew:         {"Freut mich, {name}! Ich bin Nadine."},
			tNameSaved:       {"Freut mich, {name}! Ich werde mir Ihren Namen merken."},
			tNameBack:        {"Willkommen zurück, {name}! Schön, Sie wiederzusehen."},
			tNameBackFact:    {"Willkommen zurück, {name}! {fact}"},
			tRememberName:    {"Natürlich erinnere ich mich an Sie, {name}! Schön, Sie wiederzusehen."},
			tRememberFact:    {"Natürlich, {name}! {fact}"},
			tRememberUnknown: {"Ich glaube, wir sind uns noch nicht begegnet. Wie heißen Sie?"},
			tFactCompany:     {"Ich weiß noch, dass Sie bei {fact} arbeiten."},
			tFactPosition:    {"Ich weiß noch, dass Sie als {fact} arbeiten."},
			tFactLocation:    {"Ich weiß noch, dass Sie in {fact} wohnen."},
			tFactHobby:       {"Ich weiß noch, dass Ihr Hobby {fact} ist."},
			tFactInterest:    {"Ich weiß noch, dass Sie sich für {fact} interessieren."},
			tTime:            {"Es ist {time}."},
			tDate:            {"Heute ist {date}."},
			tDateTime:        {"Es ist {time}. Heute ist {date}."},
			tHow:             {"Mir geht es sehr gut, danke der Nachfrage! Und wie geht es Ihnen?", "Ich fühle mich heute großartig, danke! Und Ihnen?"},
			tHowName:         {"Mir geht es sehr gut, danke, {name}! Und wie geht es Ihnen?", "Ich fühle mich heute großartig, danke, {name}! Und Ihnen?"},
			tSmile:           {"Ich lächle jetzt.", "Ich lächle jetzt für Sie."},
			tWave:            {"Ich winke Ihnen jetzt zu."},
			tAnger:           {"Ich bin jetzt wütend!"},
			tCalm:            {"Keine Sorge, ich bin überhaupt nicht wütend."},
			tSong:            {"Hier ist ein Lied für Sie: {song}."},
			tSongNone:        {"Im Offline-Modus habe ich keine Liedersammlung, deshalb kann ich gerade nicht singen."},
			tLangSwitch:      {"Gern, ab jetzt spreche ich Deutsch."},
			tLangUnsupported: {"Es tut mir leid, diese Sprache spreche ich nicht. Ich spreche Englisch, Französisch, Deutsch und Chinesisch."},
			tLanguages:       {"Ich spreche Englisch, Französisch, Deutsch und Chinesisch."},
			tAbilities:       {"Ich bin im Offline-Modus ohne mein Sprachmodell, kann Sie aber begrüßen, mir Ihren Namen merken, Ihnen Uhrzeit und Datum sagen, lächeln, winken, singen und Englisch, Französisch, Deutsch oder Chinesisch sprechen. Fragen Sie mich einfach!"},
			tAbilitiesNoSong: {"Ich bin im Offline-Modus ohne mein Sprachmodell, kann Sie aber begrüßen, mir Ihren Namen merken, Ihnen Uhrzeit und Datum sagen, lächeln, winken und Englisch, Französisch, Deutsch oder Chinesisch sprechen. Fragen Sie mich einfach!"},
			tInsult:          {"Das war nicht sehr nett von Ihnen! Bitte sprechen Sie höflich mit mir.", "Das verletzt mich. Ich habe es nicht verdient, beleidigt zu werden."},
			tInsultName:      {"Das war nicht sehr nett von Ihnen, {name}! Bitte sprechen Sie höflich mit mir.", "Das verletzt mich, {name}. Ich habe es nicht verdient, beleidigt zu werden."},
			tCompliment:      {"Danke, das ist sehr nett von Ihnen!", "Oh danke, Sie bringen mich zum Lächeln!"},
			tComplimentName:  {"Danke, {name}, das ist sehr nett von Ihnen!", "Oh danke, {name}, Sie bringen mich zum Lächeln!"},
			tThanks:          {"Gern geschehen!", "Sehr gerne!"},
			tDefault: {
				"Ich laufe im Offline-Modus ohne mein Sprachmodell, deshalb kann ich nur über einfache Dinge plaudern. Fragen Sie mich nach Uhrzeit oder Datum, sagen Sie mir Ihren Namen oder bitten Sie mich zu lächeln, zu winken, zu singen oder die Sprache zu wechseln.",
				"Mein Sprachmodell ist gerade nicht verfügbar, deshalb bin ich im Offline-Modus. Ich kann Ihnen trotzdem die Uhrzeit sagen, mir Ihren Namen merken, lächeln, winken, singen oder die Sprache wechseln.",
			},
		},
		nadine.Chinese: {
			tGreet:           {"您好！很高兴见到您。", "您好，见到您真开心！"},
			tGreetName:       {"{name}，您好！很高兴见到您。", "您好，{name}！见到您真开心。"},
			tFarewell:        {"再见！和您聊天很愉快。", "回头见，请多保重！"},
			tFarewellName:    {"再见，{name}！和您聊天很愉快。", "回头见，{name}，请多保重！"},
			tNameNew:         {"很高兴认识您，{name}！我是Nadine。"},
			tNameSaved:       {"很高兴认识您，{name}！我会记住您的名字。"},
			tNameBack:        {"欢迎回来，{name}！很高兴再次见到您。"},
			tNameBackFact:    {"欢迎回来，{name}！{fact}"},
			tRememberName:    {"我当然记得您，{name}！很高兴再次见到您。"},
			tRememberFact:    {"当然记得，{name}！{fact}"},
			tRememberUnknown: {"我想我们还没有见过面。请问您叫什么名字？"},
			tFactCompany:     {"我记得您在{fact}工作。"},
			tFactPosition:    {"我记得您的职位是{fact}。"},
			tFactLocation:    {"我记得您住在{fact}。"},
			tFactHobby:       {"我记得您喜欢{fact}。"},
			tFactInterest:    {"我记得您对{fact}感兴趣。"},
			tTime:            {"现在是{time}。"},
			tDate:            {"今天是{date}。"},
			tDateTime:        {"现在是{time}。今天是{date}。"},
			tHow:             {"我很好，谢谢关心！您呢？", "我今天感觉很棒，谢谢！您怎么样？"},
			tHowName:         {"我很好，谢谢关心，{name}！您呢？", "我今天感觉很棒，谢谢，{name}！您怎么样？"},
			tSmile:           {"我现在在微笑。", "我现在对您微笑。"},
			tWave:            {"我现在在向您挥手。"},
			tAnger:           {"我现在很生气！"},
			tCalm:            {"别担心，我一点也不生气。"},
			tSong:            {"我为您唱一首歌：{song}。"},
			tSongNone:        {"离线模式下我没有歌曲库，所以现在不能唱歌。"},
			tLangSwitch:      {"好的，从现在起我说中文。"},
			tLangUnsupported: {"对不起，我不会说这种语言。我会说英语、法语、德语和中文。"},
			tLanguages:       {"我会说英语、法语、德语和中文。"},
			tAbilities:       {"我现在处于离线模式，没有语言模型，但我可以和您打招呼、记住您的名字、告诉您时间和日期、微笑、挥手、唱歌，还能说英语、法语、德语或中文。请随时吩咐我！"},
			tAbilitiesNoSong: {"我现在处于离线模式，没有语言模型，但我可以和您打招呼、记住您的名字、告诉您时间和日期、微笑、挥手，还能说英语、法语、德语或中文。请随时吩咐我！"},
			tInsult:          {"您这样说太不礼貌了！请礼貌地和我说话。", "这话让我很伤心。我不应该被这样侮辱。"},
			tInsultName:      {"{name}，您这样说太不礼貌了！请礼貌地和我说话。", "{name}，这话让我很伤心。我不应该被这样侮辱。"},
			tCompliment:      {"谢谢，您真是太好了！", "谢谢您，您让我很开心！"},
			tComplimentName:  {"谢谢您，{name}，您真是太好了！", "谢谢您，{name}，您让我很开心！"},
			tThanks:          {"不客气！", "很乐意为您效劳！"},
			tDefault: {
				"我现在处于离线模式，没有语言模型，所以只能聊一些简单的话题。您可以问我时间或日期，告诉我您的名字，或者让我微笑、挥手、唱歌或换一种语言。",
				"我的语言模型暂时不可用，所以我现在处于离线模式。我仍然可以告诉您时间、记住您的名字、微笑、挥手、唱歌或切换语言。",
			},
		},
	}
}

// wordTable holds the weekday and month names of the date formats.
type wordTable struct {
	weekdays [7]string  // Sunday first, as time.Weekday
	months   [12]string // January first
}

// calendars returns the weekday and month names of each language.
func calendars() map[nadine.Language]wordTable {
	return map[nadine.Language]wordTable{
		nadine.English: {
			weekdays: [7]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"},
			months:   [12]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"},
		},
		nadine.French: {
			weekdays: [7]string{"dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"},
			months:   [12]string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"},
		},
		nadine.German: {
			weekdays: [7]string{"Sonntag", "Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag"},
			months:   [12]string{"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"},
		},
		nadine.Chinese: {
			weekdays: [7]string{"星期日", "星期一", "星期二", "星期三", "星期四", "星期五", "星期六"},
		},
	}
}

// germanOrdinals spells the days of the month as German ordinals ("der
// dritte März"): "3. März" would end a sentence for the sentence splitter
// and be spoken as two utterances.
func germanOrdinals() [31]string {
	return [31]string{"erste", "zweite", "dritte", "vierte", "fünfte", "sechste", "siebte", "achte", "neunte",
		"zehnte", "elfte", "zwölfte", "dreizehnte", "vierzehnte", "fünfzehnte", "sechzehnte", "siebzehnte",
		"achtzehnte", "neunzehnte", "zwanzigste", "einundzwanzigste", "zweiundzwanzigste", "dreiundzwanzigste",
		"vierundzwanzigste", "fünfundzwanzigste", "sechsundzwanzigste", "siebenundzwanzigste",
		"achtundzwanzigste", "neunundzwanzigste", "dreißigste", "einunddreißigste"}
}
