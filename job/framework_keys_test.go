package job

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The config keys gdp_mu, privacy_profile and tradeoff are known keys (DESIGN.md
// §11.2–§11.4).
func TestFrameworkConfigKeys(t *testing.T) {
	keys := " " + strings.Join(configKeys(), " ") + " "
	for _, k := range []string{"gdp_mu", "privacy_profile", "tradeoff"} {
		if !strings.Contains(keys, " "+k+" ") {
			t.Errorf("config key %s unknown", k)
		}
	}
}

// The registry's keys are decoded from a config file as the other keys are: a
// number read as number reads it (hex, "0_5" refused on its line), a null leaves
// it unset, a table's spec as a string (a mapping refused), every problem listed
// with the others in line order; a copy of a job does not share its parameters.
func TestFrameworkConfigDecode(t *testing.T) {
	dir := t.TempDir()
	load := func(text string) (Job, []string) {
		t.Helper()
		p := filepath.Join(dir, "job.yaml")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		var j Job
		probs, err := j.LoadConfig(p)
		if err != nil {
			t.Fatal(err)
		}
		return j, probs
	}
	j, probs := load("gdp_mu: 0x1p-1\ntradeoff: curve.csv\n")
	if mu, ok := j.Param("gdp_mu"); len(probs) != 0 || !ok || mu != 0.5 || j.Table("tradeoff") != "curve.csv" {
		t.Errorf("gdp_mu %v %v, tradeoff %q, problems %q", mu, ok, j.Table("tradeoff"), probs)
	}
	if keys := j.frameworkKeys(); strings.Join(keys, ",") != "gdp_mu,tradeoff" {
		t.Errorf("frameworkKeys = %q", keys)
	}
	j, probs = load("gdp_mu:\nprivacy_profile: p.csv\n")
	if _, ok := j.Param("gdp_mu"); ok || len(probs) != 0 || j.Framework() != "privacy-profile" {
		t.Errorf("null gdp_mu: set %v, framework %s, problems %q", ok, j.Framework(), probs)
	}
	_, probs = load("engine: 5x\nworkers: many\ngdp_mu: 0_5\nprivacy_profile: {a: b}\n")
	if len(probs) != 3 || !strings.Contains(probs[0], "line 2") || !strings.Contains(probs[1], `line 3: gdp_mu: "0_5" is not a number`) || !strings.Contains(probs[2], "line 4") {
		t.Errorf("problems %q", probs)
	}
	a := Job{}
	a.SetParam("gdp_mu", 1)
	b := a
	b.SetParam("gdp_mu", 2)
	if mu, _ := a.Param("gdp_mu"); mu != 1 {
		t.Errorf("a copy's SetParam changed the original: μ = %v", mu)
	}
}
