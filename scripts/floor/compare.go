package main

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// same compares out with ref (nothing to do without ref): byte for byte when the
// files are equal, else by contents. A graphdp output carries key-value metadata
// that changes with graphdp's version, not with the result (issue 26 added
// graphdp.framework, a build stamps its revision), so a reference written by an
// older binary differs in its footer alone. Contents means: the same column names
// and types, the same number of rows, and every value equal, float64 values bit for
// bit (−0 and +0, NaN payloads differ). The metadata keys that differ are printed,
// not failed on.
func same(ref, out string) error {
	if ref == "" {
		return nil
	}
	a, err := os.ReadFile(ref)
	if err != nil {
		return err
	}
	b, err := os.ReadFile(out)
	if err != nil {
		return err
	}
	if bytes.Equal(a, b) {
		return nil
	}
	if err := sameTable(ref, out); err != nil {
		return fmt.Errorf("%s differs from the reference %s: %w", out, ref, err)
	}
	return nil
}

// noted remembers which metadata differences were already printed.
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
	if key := fmt.Sprint(diff); !noted[key] {
		noted[key] = true
		fmt.Printf("outputs: tables equal value for value; metadata keys that differ from the reference: %v\n", diff)
	}
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
