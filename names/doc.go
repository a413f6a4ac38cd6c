// Package names compares people's names exactly as the original Python
// interaction layer did (python-Levenshtein's ratio), so that its
// name-linking thresholds carry over.
package names
