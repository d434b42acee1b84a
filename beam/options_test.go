package beam

import "testing"

// The default bucket count follows the input (BucketRows rows a bucket, at least 64,
// at most 2^16); a count given is kept.
func TestBucketsFollowTheInput(t *testing.T) {
	for _, tc := range []struct {
		given int
		rows  int64
		want  int
	}{
		{0, 0, 64}, {0, 1_333_333, 64}, {0, 64 * BucketRows, 64}, {0, 64*BucketRows + 1, 65},
		{0, 1_330_000_000, 1269}, {0, 1 << 40, 1 << 16}, {7, 1 << 40, 7},
	} {
		if got := buckets(Options{Buckets: tc.given}, tc.rows); got != tc.want {
			t.Errorf("buckets(%d rows, given %d) = %d, want %d", tc.rows, tc.given, got, tc.want)
		}
	}
}

// The build broadcasts the id index up to BroadcastVertices vertex rows by default,
// up to the number given, never with -1; below -1 is a configuration problem.
func TestBroadcastFollowsTheVertices(t *testing.T) {
	for _, tc := range []struct {
		given int
		n     int64
		want  bool
	}{
		{0, 0, true}, {0, BroadcastVertices, true}, {0, BroadcastVertices + 1, false},
		{10, 10, true}, {10, 11, false}, {-1, 1, false}, {-1, 0, false},
	} {
		if got := useBroadcast(Options{BroadcastVertices: tc.given}, tc.n); got != tc.want {
			t.Errorf("useBroadcast(%d rows, given %d) = %v, want %v", tc.n, tc.given, got, tc.want)
		}
	}
	for v, bad := range map[int]bool{-2: true, -1: false, 0: false, 1 << 22: false} {
		if probs := (Options{Runner: "prism", BroadcastVertices: v}).Problems(true); (len(probs) > 0) != bad {
			t.Errorf("broadcast_vertices %d: problems %v", v, probs)
		}
	}
}
