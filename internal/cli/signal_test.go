package cli

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// signalHelperEnv makes the test binary graphdp itself (RunProcess), stopping
// before the command until its context is cancelled, so a test can signal it
// mid-job.
const signalHelperEnv = "GRAPHDP_CLI_SIGNAL_HELPER"

// execHelperEnv makes the test binary graphdp itself (RunProcess) on its own
// arguments, so a test can run real graphdp processes.
const execHelperEnv = "GRAPHDP_CLI_EXEC_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(execHelperEnv) != "" {
		os.Args = append([]string{"graphdp"}, os.Args[1:]...)
		Graphdp.RunProcess()
	}
	if os.Getenv(signalHelperEnv) != "" {
		beforeCommand = func(ctx context.Context) {
			os.Stdout.WriteString("ready\n")
			<-ctx.Done()
		}
		os.Args = append([]string{"graphdp"}, strings.Fields(os.Getenv(signalHelperEnv))...)
		Graphdp.RunProcess()
	}
	os.Exit(m.Run())
}

// SIGINT and SIGTERM sent to a running graphdp: "interrupted; nothing written",
// exit 130 and 143, no output file and nothing else in its folder.
func TestSignalInterruptsRun(t *testing.T) {
	for _, c := range []struct {
		sig  syscall.Signal
		code int
		name string
	}{{syscall.SIGINT, 130, "SIGINT"}, {syscall.SIGTERM, 143, "SIGTERM"}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "m.csv")
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), signalHelperEnv+"="+strings.Join(pathArgs(out), " "))
			var stderr strings.Builder
			cmd.Stderr = &stderr
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan struct{})
			defer close(done)
			go func() { // never hang the suite
				select {
				case <-done:
				case <-time.After(time.Minute):
					cmd.Process.Kill()
				}
			}()
			if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "ready\n" {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("helper: %q, %v; stderr:\n%s", line, err, stderr.String())
			}
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			err = cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != c.code {
				t.Errorf("exit %v, want %d; stderr:\n%s", err, c.code, stderr.String())
			}
			golden(t, "interrupted_"+c.name, stderr.String())
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Errorf("wrote %v", ents)
			}
		})
	}
}
