package offline

import "github.com/nadine-robot/nadine/intents"

// Exported for the external tests.
var (
	BuiltinSections = builtinSections
	Facts           = facts
)

// OwnNameEnd is ownNameEnd on text's words.
func OwnNameEnd(text string) int { return ownNameEnd(intents.Tokenize(text)) }

// TrainOptions are the classifier's training settings.
var TrainOptions = trainOptions
