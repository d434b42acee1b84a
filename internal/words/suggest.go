package words

// Nearest is the option closest to word by edit distance (insertions, deletions,
// substitutions and swaps of two neighbouring characters each cost 1), for "did you
// mean" hints on commands, flags and config keys. It answers only when the option
// is close enough to be a plausible typo: at most 2 edits, and fewer than half of
// word's length; ties go to the first option.
func Nearest(word string, options []string) (string, bool) {
	best, bestD := "", 3
	for _, o := range options {
		if d := editDistance(word, o); d < bestD && 2*d < len([]rune(word)) {
			best, bestD = o, d
		}
	}
	return best, best != ""
}

// editDistance is the optimal-string-alignment distance between a and b.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	// rows i-2, i-1 and i of the dynamic programme over prefixes.
	prev2, prev, cur := make([]int, len(y)+1), make([]int, len(y)+1), make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}
