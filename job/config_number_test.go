package job

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Numbers in a config file read as flags and CSV fields read them: hex floats are
// accepted, "0_5" is not a number (YAML alone reads it as the integer 5).
func TestConfigNumbers(t *testing.T) {
	dir := t.TempDir()
	write := func(text string) string {
		p := filepath.Join(dir, "job.yaml")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var job Job
	if unknown, err := job.LoadConfig(write("epsilon: 0x1p-1\ndelta: 1e-6\n")); err != nil || len(unknown) != 0 {
		t.Fatalf("hex ε: %v %v", unknown, err)
	}
	if job.Epsilon != 0.5 || job.Delta != 1e-6 {
		t.Errorf("ε, δ = %v, %v; want 0.5, 1e-6", job.Epsilon, job.Delta)
	}
	job = Job{}
	unknown, err := job.LoadConfig(write("epsilon: 1\ndelta: 0_5\n"))
	if err != nil || len(unknown) != 1 || !strings.Contains(unknown[0], `"0_5" is not a number`) {
		t.Errorf("delta 0_5: problems %q, err %v", unknown, err)
	}
}
