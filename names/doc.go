// Package names compares people's names the way the original Python
// interaction layer did, so that its similarity thresholds carry over.
//
// Ratio reproduces python-Levenshtein's Levenshtein.ratio: the InDel
// normalized similarity (len(a)+len(b)−indel)/(len(a)+len(b)), computed on
// Unicode code points, where a substitution costs two edits. Similar ranks
// the known users whose lowercased, trimmed name is close to a given name,
// and Classify applies the name-linking rules: a best score at or above the high
// threshold is a strong match (link to that user), a best score in
// [low, high) is ambiguous (ask "Is your name Alice?"), and anything below
// low is no match (a new user).
package names
