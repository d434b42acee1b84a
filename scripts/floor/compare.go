package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"os/exec"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// same compares out with ref (nothing to do without ref) in a separate process
// (this program with -compare), so that this one stays small: a child's peak RSS
// as the kernel reports it includes its parent's at the fork, and the runs' peaks
// are measured that way.
func same(ref, out string) error {
	if ref == "" {
		return nil
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(self, "-compare", ref+","+out)
	cmd.Stderr = os.Stderr
	b, err := cmd.Output()
	if len(b) > 0 && !noted[string(b)] {
		noted[string(b)] = true
		fmt.Print(string(b))
	}
	if err != nil {
		return fmt.Errorf("%s differs from the reference %s (%w)", out, ref, err)
	}
	return nil
}

// compareChild is the -compare process: byte for byte when the files are equal,
// else by contents. A graphdp output carries key-value metadata that changes with
// graphdp's version, not with the result (keys such as graphdp.framework are added,
// a build stamps its revision), so a reference written by an older binary differs in its
// footer alone. Contents means: the same column names and types, the same number
// of rows, and every value equal, float64 values bit for bit (−0 and +0, NaN
// payloads differ). The metadata keys that differ are printed, not failed on.
func compareChild(ref, out string) error {
	eq, err := sameBytes(ref, out)
	if err != nil || eq {
		return err
	}
	return sameTable(ref, out)
}

// sameBytes compares two files a block at a time.
func sameBytes(x, y string) (bool, error) {
	fx, err := os.Open(x)
	if err != nil {
		return false, err
	}
	defer fx.Close()
	fy, err := os.Open(y)
	if err != nil {
		return false, err
	}
	defer fy.Close()
	bx, by := make([]byte, 1<<20), make([]byte, 1<<20)
	for {
		nx, ex := io.ReadFull(fx, bx)
		ny, ey := io.ReadFull(fy, by)
		if nx != ny || !bytes.Equal(bx[:nx], by[:ny]) {
			return false, nil
		}
		if ex != nil || ey != nil {
			if (ex == io.EOF || ex == io.ErrUnexpectedEOF) && (ey == io.EOF || ey == io.ErrUnexpectedEOF) {
				return true, nil
			}
			return false, errors.Join(ex, ey)
		}
	}
}

// noted remembers which -compare notes were already printed.
var noted = map[string]bool{}

// sameTable compares two Parquet files' tables value by value.
func sameTable(ref, out string) error {
	ra, rmeta, err := readRecord(ref)
	if err != nil {
		return err
	}
	defer ra.Release()
	oa, ometa, err := readRecord(out)
	if err != nil {
		return err
	}
	defer oa.Release()
	if !ra.Schema().Equal(oa.Schema()) {
		return fmt.Errorf("schema %s, reference %s", oa.Schema(), ra.Schema())
	}
	if ra.NumRows() != oa.NumRows() {
		return fmt.Errorf("%d rows, reference %d", oa.NumRows(), ra.NumRows())
	}
	for i := range int(ra.NumCols()) {
		if row, ok := sameColumn(ra.Column(i), oa.Column(i)); !ok {
			return fmt.Errorf("column %s differs at row %d", ra.Schema().Field(i).Name, row)
		}
	}
	var diff []string
	for _, k := range slices.Sorted(maps.Keys(rmeta)) {
		if v, ok := ometa[k]; !ok || v != rmeta[k] {
			diff = append(diff, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(ometa)) {
		if _, ok := rmeta[k]; !ok {
			diff = append(diff, k)
		}
	}
	fmt.Printf("outputs: tables equal value for value; metadata keys that differ from the reference: %v\n", diff)
	return nil
}

// sameColumn reports whether two columns hold the same values (float64 by bits),
// or the first row where they do not.
func sameColumn(x, y arrow.Array) (int, bool) {
	xf, ok1 := x.(*array.Float64)
	yf, ok2 := y.(*array.Float64)
	if !ok1 || !ok2 {
		if array.Equal(x, y) {
			return 0, true
		}
		for i := range x.Len() {
			if !array.SliceEqual(x, int64(i), int64(i+1), y, int64(i), int64(i+1)) {
				return i, false
			}
		}
		return 0, false
	}
	for i := range xf.Len() {
		if xf.IsNull(i) != yf.IsNull(i) ||
			!xf.IsNull(i) && math.Float64bits(xf.Value(i)) != math.Float64bits(yf.Value(i)) {
			return i, false
		}
	}
	return 0, true
}
