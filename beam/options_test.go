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
