package offline

// Exported for the external tests.
var (
	BuiltinSections = builtinSections
	Facts           = facts
)
