package labels

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
)

var numberRE = regexp.MustCompile(`-?\d+(?:[.,]\d+)?`)

// levels are intensity words on the 0–10 scale.
var levels = map[string]float64{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
	"none": 0, "verylow": 1, "low": 2, "slight": 2, "slightly": 2, "mild": 3, "mildly": 3, "some": 4, "medium": 5,
	"moderate": 5, "moderately": 5, "average": 5, "fairly": 6, "high": 8, "strong": 8, "strongly": 8, "very": 8,
	"veryhigh": 9, "intense": 9, "extreme": 10, "extremely": 10, "max": 10, "maximum": 10,
}

// Number reads a 0–10 number however a model wrote it ("7/10", "70%", "seven").
func Number(raw json.RawMessage) (float64, bool) {
	if isNull(raw) {
		return 0, false
	}
	var f float64
	if json.Unmarshal(raw, &f) == nil {
		return f, !math.IsNaN(f) && !math.IsInf(f, 0)
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return 0, false
	}
	return ParseNumber(s)
}

// ParseNumber reads a number on a 0–10 scale from text (see Number).
func ParseNumber(s string) (float64, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return 0, false
	}
	if m := numberRE.FindStringIndex(s); m != nil {
		x, err := strconv.ParseFloat(strings.Replace(s[m[0]:m[1]], ",", ".", 1), 64)
		if err != nil {
			return 0, false
		}
		rest := strings.TrimSpace(s[m[1]:])
		switch {
		case strings.HasPrefix(rest, "%"):
			x /= 10
		case strings.HasPrefix(rest, "/") || strings.HasPrefix(rest, "out of"):
			d := numberRE.FindString(rest)
			if den, err := strconv.ParseFloat(strings.Replace(d, ",", ".", 1), 64); err == nil && den > 0 {
				x = x / den * 10
			}
		}
		return x, true
	}
	k := Key(s)
	if x, ok := levels[k]; ok {
		return x, true
	}
	for _, w := range Words(s) {
		if x, ok := levels[w]; ok {
			return x, true
		}
	}
	return 0, false
}

// Intensity reads a 0–10 intensity; a fraction in 0..1 is taken as tenths,
// the other scale models use.
func Intensity(raw json.RawMessage) (n int, ok bool) {
	x, ok := Number(raw)
	if !ok {
		return 0, false
	}
	return Clamp10(x), true
}

// Clamp10 rounds x to an integer from 0 to 10; a fraction strictly
// between 0 and 1 counts as tenths.
func Clamp10(x float64) int {
	if x > 0 && x < 1 {
		x *= 10
	}
	return int(math.Round(max(0, min(10, x))))
}
