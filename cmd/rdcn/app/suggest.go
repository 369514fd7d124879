package app

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// withSuggestion adds "did you mean --X?" to an unknown-flag error of a
// command with the given flags: the flag name closest by edit distance
// (at most a third of its length, at least 2), or the one the typo is a
// prefix of.
func withSuggestion(msg string, flags []cli.Flag) string {
	_, bad, ok := strings.Cut(msg, "flag provided but not defined: ")
	if !ok {
		return msg
	}
	bad = strings.TrimLeft(strings.TrimSpace(bad), "-")
	if s := suggestFlag(bad, flags); s != "" {
		msg += "; did you mean " + s + "?"
	}
	return msg
}

// suggestFlag is the nearest flag name to typo, spelled with its dashes,
// or "" when none is near.
func suggestFlag(typo string, flags []cli.Flag) string {
	best, bestDist := "", -1
	for _, f := range flags {
		for _, name := range f.Names() {
			d := editDistance(typo, name)
			if len(typo) >= 2 && strings.HasPrefix(name, typo) {
				d = min(d, 1) // a truncated name: --tor for --tors
			}
			if d <= max(2, len(name)/3) && (bestDist < 0 || d < bestDist) {
				best, bestDist = name, d
			}
		}
	}
	switch {
	case best == "":
		return ""
	case len(best) == 1:
		return "-" + best
	}
	return "--" + best
}

// editDistance is the Levenshtein distance between a and b (in bytes; flag
// names are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, sub)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
