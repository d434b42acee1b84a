package bfs

// hitPOne is hitting-set vertex Hit[i]'s p_one as solved, 1 − p_true rounded to
// nearest for answer 0: for the tests whose references work on p_one.
func hitPOne(in *Instance, i int) float64 {
	answer, pt := HitPTrue(in.HitValue(i))
	if answer {
		return pt
	}
	return 1 - pt
}
