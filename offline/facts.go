package offline

// Facts Nadine knows without a model; each has an "about_<fact>" template per
// language, so a fact found in the English knowledge base is said in any.
const (
	// Persona facts.
	fName     = "name"
	fIdentity = "identity"
	fCreator  = "creator"
	fAge      = "age"
	fPlace    = "place"
	fOrigin   = "origin"
	fModeled  = "modeled"
	fHuman    = "human"
	fEmotions = "emotions"
	// Knowledge facts.
	fMiralab      = "miralab"
	fUnige        = "unige"
	fThalmann     = "thalmann"
	fSocialRobots = "social_robots"
	fNTU          = "ntu"
	fHowWorks     = "how_it_works"
	fHearing      = "hearing"
	fSeeing       = "seeing"
	fThinking     = "thinking"
	fSpeaking     = "speaking"
	fMemory       = "memory"
	fRecognize    = "recognize"
	fExpressions  = "expressions"
	fRealWorld    = "real_world"
	fPersonality  = "personality"
	fAnswering    = "answering"
	fSinging      = "singing"
	// Facts another intent answers.
	fLanguages = "languages"
	fAbilities = "abilities"
	// Variants of facts, for templates only.
	fPlaceOther  = "place_other"  // a place with no translation in the language
	fAgeNew      = "age_new"      // first presented this year
	fSingingNone = "singing_none" // a song library without songs
)

// facts lists the facts with an about_ template of their own.
func facts() []string {
	return []string{fName, fIdentity, fCreator, fAge, fPlace, fOrigin, fModeled, fHuman, fEmotions,
		fMiralab, fUnige, fThalmann, fSocialRobots, fNTU, fHowWorks, fHearing, fSeeing, fThinking, fSpeaking,
		fMemory, fRecognize, fExpressions, fRealWorld, fPersonality, fAnswering, fSinging}
}

func aboutKey(fact string) string { return "about_" + fact }

// builtinSource is how the sources of the built-in knowledge base start.
const builtinSource = "default/"

// builtinSections maps each built-in section ("File title > Section") to its
// fact, worded in the conversation's language; a test checks all are mapped.
func builtinSections() map[string]string {
	const faq, works, can, home = "Frequently asked questions about Nadine > ", "How Nadine works > ",
		"What Nadine can do > ", "Nadine's research home > "
	return map[string]string{
		"Nadine > Who Nadine is":                                    fIdentity,
		"Nadine > Who Nadine is modeled on":                         fModeled,
		"Nadine > Where Nadine comes from":                          fOrigin,
		"Nadine > Nadine in the real world":                         fRealWorld,
		"Nadine > Nadine's personality":                             fPersonality,
		faq + "Who built Nadine?":                                   fCreator,
		faq + "Is Nadine a human?":                                  fHuman,
		faq + "Why does Nadine look like Professor Thalmann?":       fModeled,
		faq + "Does Nadine remember me?":                            fMemory,
		faq + "Can Nadine feel emotions?":                           fEmotions,
		faq + "Which languages does Nadine speak?":                  fLanguages,
		faq + "How old is Nadine?":                                  fAge,
		faq + "Where is Nadine now?":                                fPlace,
		faq + "What can I ask Nadine?":                              fAbilities,
		works + "Overview":                                          fHowWorks,
		works + "Hearing: speech recognition":                       fHearing,
		works + "Seeing: face recognition and perception":           fSeeing,
		works + "Thinking: the dialogue engine":                     fThinking,
		works + "Memory":                                            fMemory,
		works + "Emotions":                                          fEmotions,
		works + "Speaking and moving: text-to-speech and animation": fSpeaking,
		can + "Recognizing people":                                  fRecognize,
		can + "Remembering conversations":                           fMemory,
		can + "Emotions, facial expressions and gestures":           fExpressions,
		can + "Languages":                                           fLanguages,
		can + "Answering questions":                                 fAnswering,
		can + "Singing":                                             fSinging,
		can + "Seeing":                                              fSeeing,
		home + "MIRALab":                                            fMiralab,
		home + "The University of Geneva":                           fUnige,
		home + "Professor Nadia Magnenat Thalmann":                  fThalmann,
		home + "Social robots":                                      fSocialRobots,
		home + "Nanyang Technological University":                   fNTU,
	}
}
