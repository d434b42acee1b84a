// Command fuzz runs Go's coverage-guided fuzzer on every fuzz target of the module,
// one after the other, for -time each (CONTRIBUTING.md, "Fuzzing"). `go test ./...` replays the
// checked-in corpora and runs seeded mutations of them (internal/fuzzmut); this is
// the longer, coverage-guided search, for a machine with time to spare:
//
//	go run ./scripts/fuzz -time 5m
//
// A failing input is written under the package's testdata/fuzz/<Target>, where plain
// go test replays it from then on: check it in with the fix.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

func main() {
	fuzztime := flag.String("time", "30s", "how long to fuzz each target (a duration, or Nx for N inputs)")
	match := flag.String("run", "", "only the targets whose name contains this")
	flag.Parse()
	out, err := exec.Command("go", "test", "-list", "^Fuzz", "./...").Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fuzz: listing the targets:", err)
		os.Exit(1)
	}
	// `go test -list` prints a package's targets, then "ok  <package> …".
	type target struct{ pkg, name string }
	var targets, pending []target
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 1 && strings.HasPrefix(f[0], "Fuzz"):
			pending = append(pending, target{name: f[0]})
		case len(f) >= 2 && f[0] == "ok":
			for _, t := range pending {
				t.pkg = f[1]
				if strings.Contains(t.name, *match) {
					targets = append(targets, t)
				}
			}
			pending = nil
		}
	}
	failed := 0
	for _, t := range targets {
		fmt.Printf("== %s %s (%s)\n", t.pkg, t.name, *fuzztime)
		cmd := exec.Command("go", "test", "-run=^$", "-fuzz=^"+t.name+"$", "-fuzztime="+*fuzztime, t.pkg)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			failed++
		}
	}
	if failed > 0 {
		fmt.Fprintf(os.Stderr, "fuzz: %d of %d targets failed\n", failed, len(targets))
		os.Exit(1)
	}
	fmt.Printf("fuzz: %d targets, none failed\n", len(targets))
}
