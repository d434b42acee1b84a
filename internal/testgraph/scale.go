package testgraph

import (
	"os"
	"strconv"
	"testing"
)

// ScaleEnv names the environment variable that scales every property test's number
// of random instances: a positive number, 0.1 for a quick look, 10 for a soak run.
const ScaleEnv = "GRAPHDP_TEST_SCALE"

// Instances is how many random instances a property test draws: full, or short with
// -short, times GRAPHDP_TEST_SCALE when that is set (at least 1).
func Instances(full, short int) int {
	n := full
	if testing.Short() {
		n = short
	}
	if s := os.Getenv(ScaleEnv); s != "" {
		if f, err := strconv.ParseFloat(s, 64); err == nil && f > 0 {
			n = int(float64(n) * f)
		}
	}
	return max(n, 1)
}
