package dp_test

import (
	"fmt"
	"math"

	"github.com/graphdp/graphdp/dp"
)

// The bounds of the paper's path example: ε just above ln 2, so that e^ε > 2 and the
// paper's values (worked out with e^ε = 2) are exactly DP.
func ExamplePair() {
	p, err := dp.New(math.Nextafter(math.Ln2, 1), 0)
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Upper(0.1), p.Lower(0.4))                // a neighbour of 0.1 may go up to 0.2; of 0.4, down to 0.2
	fmt.Println(p.Allowed(0.2, 0.4), p.Allowed(0.2, 0.41)) // the four inequalities, exactly
	fmt.Println(p.Balanced())                              // α = (e^ε + δ)/(e^ε + 1), rounded down
	// Output:
	// 0.2 0.2
	// true false
	// 0.6666666666666666
}
