package agents

// The answer readers, exposed to the tests.
var (
	ParseIntent     = parseIntent
	ParsePlan       = parsePlan
	ValidatePlan    = validatePlan
	ParseExtraction = parseExtraction
	ParseRoute      = parseRoute
	AnswerText      = answerText
)

// ParseEpisode exposes the episode reader: its four fields.
func ParseEpisode(text string) ([4]string, error) {
	ep, err := parseEpisode(text)
	return [4]string{ep.Observation, ep.Thought, ep.Action, ep.Result}, err
}

// Grounded exposes the check of extracted facts against the person's words.
var Grounded = grounded
