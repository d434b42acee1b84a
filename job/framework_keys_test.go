package job

import (
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
