package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/load"
)

// The human summary counts components in words.
func TestSummaryHumanComponents(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{1, ", 1 component\n"}, {0, ", 0 components\n"}} {
		var b bytes.Buffer
		(&Summary{Engine: "e", Vertices: 3, Components: c.n}).Human(&b)
		first, _, _ := strings.Cut(b.String(), "\n")
		if !strings.HasSuffix(first+"\n", c.want) {
			t.Errorf("components %d: %q, want it to end in %q", c.n, first, c.want)
		}
	}
}

// shardsReport is a backend's own report, as a cluster backend gives one.
type shardsReport struct {
	Shards int `json:"shards"`
}

func (r *shardsReport) Key() string { return "cluster" }

// A backend's report is the JSON summary's last key (after peak_rss_bytes and the
// memory model) and decodes back; the printed summary leaves it out; without one,
// the summary has no such key.
func TestSummaryBackendReport(t *testing.T) {
	s := &Summary{Engine: "e", Vertices: 3, Backend: &shardsReport{Shards: 7}}
	var b bytes.Buffer
	if err := s.EncodeJSON(&b); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Vertices int          `json:"vertices"`
		Cluster  shardsReport `json:"cluster"`
	}
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || back.Vertices != 3 || back.Cluster.Shards != 7 {
		t.Fatalf("decoded %+v, %v from %s", back, err, b.String())
	}
	if !strings.HasSuffix(strings.TrimSpace(b.String()), "\"cluster\": {\n    \"shards\": 7\n  }\n}") {
		t.Errorf("the report is not the last key:\n%s", b.String())
	}
	var h bytes.Buffer
	s.Human(&h)
	// Shareable (docs/FORMATS.md): a backend's shards and rounds depend on the
	// hitting set, so the printed summary leaves them to the JSON.
	if strings.Contains(h.String(), "cluster") {
		t.Errorf("printed:\n%s", h.String())
	}
	s.Backend = nil
	b.Reset()
	if err := s.EncodeJSON(&b); err != nil || strings.Contains(b.String(), "cluster") {
		t.Errorf("without a report: %v\n%s", err, b.String())
	}
}

// The summary sets the loader's memory model (load.Loaded.Memory) beside the
// measured peak; the human summary prints the model's peak where the model is large
// enough to say something, not for the example's few KiB. (load's
// TestLoadRefusesWhatCannotFit checks the model and the refusal.)
func TestSummaryMemoryModel(t *testing.T) {
	dir := t.TempDir()
	j := exampleJob(t, filepath.Join(dir, "m.parquet"))
	l, err := load.Load(context.Background(), &j, runRequest(j))
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	s, err := Run(context.Background(), j, quiet)
	if err != nil {
		t.Fatal(err)
	}
	if s.Memory == nil || *s.Memory != l.Memory {
		t.Errorf("summary's memory model %+v, want the loader's %+v", s.Memory, l.Memory)
	}
	var b strings.Builder
	s.Human(&b)
	if strings.Contains(b.String(), "(model") {
		t.Errorf("human summary prints the example's model:\n%s", b.String())
	}
	s.Memory = &load.MemoryModel{Memory: load.Memory{Build: 200 << 20, Engine: 150 << 20}}
	b.Reset()
	s.Human(&b)
	if !strings.Contains(b.String(), "(model 200.0 MiB)") {
		t.Errorf("human summary lacks the model's 200.0 MiB:\n%s", b.String())
	}
}
