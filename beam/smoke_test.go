package beam

import (
	"context"
	"testing"
	"time"

	sdk "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"
)

func double(x int) int { return 2 * x }

func init() { register.Function1x1(double) }

func TestSmoke(t *testing.T) {
	for i := 0; i < 3; i++ {
		start := time.Now()
		p, s := sdk.NewPipelineWithRoot()
		c := sdk.Create(s, 1, 2, 3)
		d := sdk.ParDo(s, double, c)
		stats.Sum(s, d)
		if _, err := prism.Execute(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		t.Logf("pipeline %d: %v", i, time.Since(start))
	}
}
