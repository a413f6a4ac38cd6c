package tools

// The readers of model answers and files, exposed to the tests.
var (
	CleanLyrics  = cleanLyrics
	ParseLibrary = parseLibrary
)
