package words

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// Groups of three from the right, by hand; and for any n, removing the commas gives
// strconv's digits back and every group after the first has three.
func TestThousands(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 7: "7", 999: "999", 1000: "1,000", -1000: "-1,000", 12345: "12,345",
		200000: "200,000", 1000000: "1,000,000", -999999: "-999,999", math.MinInt64: "-9,223,372,036,854,775,808"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
	for _, n := range []int64{1, 12, 123, 1234, 98765432, math.MaxInt64, -5, -123456789} {
		got := Thousands(n)
		if strings.ReplaceAll(got, ",", "") != strconv.FormatInt(n, 10) {
			t.Errorf("Thousands(%d) = %q", n, got)
		}
		groups := strings.Split(strings.TrimPrefix(got, "-"), ",")
		for i, g := range groups {
			if (i == 0 && (len(g) < 1 || len(g) > 3)) || (i > 0 && len(g) != 3) {
				t.Errorf("Thousands(%d) = %q: group %q", n, got, g)
			}
		}
	}
}
