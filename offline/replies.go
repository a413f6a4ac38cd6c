package offline

import "github.com/nadine-robot/nadine"

// Template keys. Every language has every key (a test checks it).
const (
	tGreet           = "greet"
	tGreetName       = "greet_name"
	tFarewell        = "farewell"
	tFarewellName    = "farewell_name"
	tNameNew         = "name_new"       // a new name, kept for the session only
	tNameSaved       = "name_saved"     // a new name, saved in the store
	tNameSavedYou    = "name_saved_you" // the same, after "and you?": she says her name
	tNameBack        = "name_back"      // a name the store already knew
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
	tHowUpset        = "how_upset"  // her mood is sad or angry
	tHowCaring       = "how_caring" // asked after the person told her a worry
	tSmile           = "smile"
	tWave            = "wave"
	tAnger           = "anger"
	tCalm            = "calm"
	tSong            = "song"
	tSongOtherLang   = "song_other_lang" // no song in the language: one in another
	tSongEmpty       = "song_empty"      // a library folder without songs
	tSongNoLibrary   = "song_no_library" // no library at all
	tLangSwitch      = "lang_switch"     // spoken in the new language
	tLangUnsupported = "lang_unsupported"
	tLanguages       = "languages"
	tAbilities       = "abilities"
	tAbilitiesNoSong = "abilities_nosongs"
	tInsultMild      = "insult_mild"
	tInsult          = "insult"
	tInsultSevere    = "insult_severe"
	tComplimentMild  = "compliment_mild"
	tCompliment      = "compliment"
	tComplimentHigh  = "compliment_strong"
	tThanks          = "thanks"
	tForgive         = "forgive"       // an apology after an insult
	tNoNeedSorry     = "no_need_sorry" // an apology for nothing
	tFeelGood        = "feel_good"
	tFeelGoodYou     = "feel_good_you" // "I'm fine, and you?"
	tFeelSad         = "feel_sad"
	tFeelSadYou      = "feel_sad_you"
	tTired           = "tired"
	tStress          = "stress"
	tSick            = "sick"
	tBored           = "bored"
	tAngryUser       = "angry_user"
	tNewsGood        = "news_good"
	tNewsBad         = "news_bad"
	tBirthday        = "birthday"
	tListen          = "listen" // what follows her empathy
	tWeather         = "weather"
	tJoke            = "joke"
	tFavorite        = "favorite"
	tDoing           = "doing"
	tFromUser        = "from_user"
	tFromUserPlace   = "from_user_place" // {from}: where the person comes from
	tAgainFact       = "again_fact"      // "As I said:", before a fact said again
	tWhyConfig       = "why_config"      // offline by configuration
	tWhyUnavailable  = "why_unavailable" // the model cannot be reached
	tWhyError        = "why_error"       // the model's answer was unusable
	tLimitLead       = "limit_lead"      // "I cannot answer that" (no final stop)
	tLimitLeadDown   = "limit_lead_unavailable"
	tLimitLeadError  = "limit_lead_error"
	tLimitOffer      = "limit_offer" // "I can tell you the time" (no final stop)
	tLimitOfferSong  = "limit_offer_song"
	tLimitJoin       = "limit_join"   // ", but "
	tLimitEnd        = "limit_end"    // "."
	tAgainJoke       = "again_joke"   // "Here is a classic:", before a joke told again
	tAgainAction     = "again_action" // "Once more!", before a gesture made again

	// The honest limits, composed from a lead, the joiner and an offer.
	tDefault          = "default"
	tDefaultSongs     = "default_songs"
	tDefaultDown      = "default_unavailable"
	tDefaultDownSongs = "default_unavailable_songs"
	tDefaultErr       = "default_error"
	tDefaultErrSongs  = "default_error_songs"
)

// composedKeys are the honest-limit templates replyTable composes.
var composedKeys = []string{tDefault, tDefaultSongs, tDefaultDown, tDefaultDownSongs, tDefaultErr, tDefaultErrSongs}

// templateKeys lists every template key, for the completeness test.
func templateKeys() []string {
	keys := []string{tGreet, tGreetName, tFarewell, tFarewellName, tNameNew, tNameSaved, tNameSavedYou, tNameBack,
		tNameBackFact, tRememberName, tRememberFact, tRememberUnknown, tFactCompany, tFactPosition, tFactLocation,
		tFactHobby, tFactInterest, tTime, tDate, tDateTime, tHow, tHowName, tHowUpset, tHowCaring, tSmile, tWave, tAnger, tCalm,
		tSong, tSongOtherLang, tSongEmpty, tSongNoLibrary, tLangSwitch, tLangUnsupported, tLanguages, tAbilities,
		tAbilitiesNoSong, tInsultMild, tInsult, tInsultSevere, tComplimentMild, tCompliment, tComplimentHigh, tThanks,
		tForgive, tNoNeedSorry, tFeelGood, tFeelGoodYou, tFeelSad, tFeelSadYou, tTired, tStress, tSick, tBored,
		tAngryUser, tNewsGood, tNewsBad, tBirthday, tListen, tWeather, tJoke, tFavorite, tDoing, tFromUser, tFromUserPlace, tAgainFact,
		tWhyConfig, tWhyUnavailable, tWhyError, tLimitLead, tLimitLeadDown, tLimitLeadError, tLimitOffer,
		tLimitOfferSong, tLimitJoin, tLimitEnd, tAgainJoke, tAgainAction}
	keys = append(keys, composedKeys...)
	for _, f := range facts() {
		keys = append(keys, aboutKey(f))
	}
	return append(keys, aboutKey(fPlaceOther), aboutKey(fAgeNew), aboutKey(fSingingNone))
}

// partKeys are templates that are only pieces of others; they are never
// said alone.
var partKeys = map[string]bool{tLimitLead: true, tLimitLeadDown: true, tLimitLeadError: true, tLimitOffer: true,
	tLimitOfferSong: true, tLimitJoin: true, tLimitEnd: true, tAgainJoke: true, tAgainAction: true, tAgainFact: true, tFactCompany: true, tFactPosition: true,
	tFactLocation: true, tFactHobby: true, tFactInterest: true}

// replyTable holds Nadine's lines per language and key; the rules they follow
// and their placeholders are in docs/architecture.md#offline.
func replyTable() map[nadine.Language]map[string][]string {
	table := map[nadine.Language]map[string][]string{
		nadine.English: englishReplies(),
		nadine.French:  frenchReplies(),
		nadine.German:  germanReplies(),
		nadine.Chinese: chineseReplies(),
	}
	for _, lines := range table {
		compose(lines, tDefault, tLimitLead, tLimitOffer)
		compose(lines, tDefaultSongs, tLimitLead, tLimitOffer, tLimitOfferSong)
		compose(lines, tDefaultDown, tLimitLeadDown, tLimitOffer)
		compose(lines, tDefaultDownSongs, tLimitLeadDown, tLimitOffer, tLimitOfferSong)
		compose(lines, tDefaultErr, tLimitLeadError, tLimitOffer)
		compose(lines, tDefaultErrSongs, tLimitLeadError, tLimitOffer, tLimitOfferSong)
	}
	return table
}

// compose builds key's lines from every lead and offer pair, ordered so that
// neighbours differ in both parts and lines said in a row sound different.
func compose(lines map[string][]string, key, leadKey string, offerKeys ...string) {
	leads := lines[leadKey]
	var offers []string
	for _, k := range offerKeys {
		offers = append(offers, lines[k]...)
	}
	join, end := first(lines[tLimitJoin]), first(lines[tLimitEnd])
	n := len(leads) * len(offers)
	out := make([]string, 0, n)
	for k := range n {
		lead := leads[k%len(leads)]
		offer := offers[(k+k/len(leads))%len(offers)]
		out = append(out, lead+join+offer+end)
	}
	lines[key] = out
}

func first(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return xs[0]
}

// againKeys are keys whose lines may be said again behind a prefix once all were
// said ("Here is a classic: …").
var againKeys = map[string]string{tJoke: tAgainJoke, tSmile: tAgainAction, tWave: tAgainAction, tAnger: tAgainAction}

// languageNames names each language in each language: "anglais" in French.
func languageNames() map[nadine.Language]map[nadine.Language]string {
	const en, fr, de, zh = nadine.English, nadine.French, nadine.German, nadine.Chinese
	return map[nadine.Language]map[nadine.Language]string{
		en: {en: "English", fr: "French", de: "German", zh: "Chinese"},
		fr: {en: "anglais", fr: "français", de: "allemand", zh: "chinois"},
		de: {en: "Englisch", fr: "Französisch", de: "Deutsch", zh: "Chinesisch"},
		zh: {en: "英语", fr: "法语", de: "德语", zh: "中文"},
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

// germanOrdinals spells days as ordinals ("der dritte März"): the sentence
// splitter would end a sentence at "3. März".
func germanOrdinals() [31]string {
	return [31]string{"erste", "zweite", "dritte", "vierte", "fünfte", "sechste", "siebte", "achte", "neunte",
		"zehnte", "elfte", "zwölfte", "dreizehnte", "vierzehnte", "fünfzehnte", "sechzehnte", "siebzehnte",
		"achtzehnte", "neunzehnte", "zwanzigste", "einundzwanzigste", "zweiundzwanzigste", "dreiundzwanzigste",
		"vierundzwanzigste", "fünfundzwanzigste", "sechsundzwanzigste", "siebenundzwanzigste",
		"achtundzwanzigste", "neunundzwanzigste", "dreißigste", "einunddreißigste"}
}
