//go:build !linux

package main

// firstTouch is not measured off Linux (touch_linux.go).
func firstTouch(n int64) (float64, error) { return 0, nil }

func firstTouchOn(n int64, w int, huge bool) (float64, error) { return 0, nil }
