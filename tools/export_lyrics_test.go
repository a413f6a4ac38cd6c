package tools

// CleanLyrics exposes the songwriter's answer reader to the tests.
var CleanLyrics = cleanLyrics
