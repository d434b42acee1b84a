//go:build unix

package browser

import (
	"os/exec"
	"syscall"
)

// setGroup starts Chromium in a process group of its own, so Close can end its
// helpers (renderer, zygote) with it and nothing else.
func setGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
