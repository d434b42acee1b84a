package sink

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// writeRowGroup writes s (of schema sc) as the file's next row group.
func writeRowGroup(fw *file.Writer, sc *arrow.Schema, s arrow.RecordBatch) error {
	rg, err := fw.AppendRowGroupChecked()
	if err != nil {
		return err
	}
	for i, col := range s.Columns() {
		cw, err := rg.NextColumn()
		if err != nil {
			return err
		}
		if err := writeColumn(cw, col, sc.Field(i).Nullable); err != nil {
			return fmt.Errorf("column %q: %w", sc.Field(i).Name, err)
		}
	}
	return rg.Close()
}

// writeColumn writes a as cw's column chunk. A required column is written from
// its values alone; an optional one with a definition level per row (1 present,
// 0 null) and its values spaced by a's validity bitmap. For an optional column
// without nulls the writer derives the validity from the levels into a bits
// buffer of its own, the way pqarrow v18.8.0 calls it, so that the pages are
// the ones it wrote (TestParquetMatchesPqarrow).
func writeColumn(cw file.ColumnChunkWriter, a arrow.Array, nullable bool) error {
	var def []int16
	if nullable {
		def = make([]int16, a.Len())
		for i := range def {
			if a.IsValid(i) {
				def[i] = 1
			}
		}
		if a.NullN() == 0 && !cw.HasBitsBuffer() {
			buf := memory.NewResizableBuffer(cw.Properties().Allocator())
			buf.Resize(int(bitutil.BytesForBits(cw.Properties().WriteBatchSize())))
			cw.SetBitsBuffer(buf)
		}
	}
	valid, off := a.NullBitmapBytes(), int64(a.Data().Offset())
	var err error
	switch wr := cw.(type) {
	case *file.BooleanColumnChunkWriter:
		b := a.(*array.Boolean)
		if !nullable {
			_, err = wr.WriteBitmapBatch(b.Data().Buffers()[1].Bytes(), off, a.Len(), nil, nil)
			break
		}
		vals := make([]bool, a.Len())
		for i := range vals {
			vals[i] = b.Value(i)
		}
		err = writeBatch(wr, vals, true, def, valid, off)
	case *file.Int32ColumnChunkWriter:
		vals, cerr := int32Values(a)
		if cerr != nil {
			return cerr
		}
		err = writeBatch(wr, vals, nullable, def, valid, off)
	case *file.Int64ColumnChunkWriter:
		var vals []int64
		switch a := a.(type) {
		case *array.Int64:
			vals = a.Int64Values()
		case *array.Uint64:
			vals = arrow.Int64Traits.CastFromBytes(arrow.Uint64Traits.CastToBytes(a.Uint64Values()))
		default:
			return fmt.Errorf("%s in an INT64 column", a.DataType())
		}
		err = writeBatch(wr, vals, nullable, def, valid, off)
	case *file.Float32ColumnChunkWriter:
		vals := a.(*array.Float32).Float32Values()
		err = writeBatch(wr, vals, nullable, def, valid, off)
	case *file.Float64ColumnChunkWriter:
		vals := a.(*array.Float64).Float64Values()
		err = writeBatch(wr, vals, nullable, def, valid, off)
	case *file.ByteArrayColumnChunkWriter:
		err = writeByteArrays(wr, a, nullable, def)
	default:
		return fmt.Errorf("no Parquet column writer for %s", a.DataType())
	}
	return err
}

// int32Values is a's values as Parquet INT32s: int32 and uint32 as they are
// (uint32 bit for bit, its logical type says unsigned), narrower integers widened.
func int32Values(a arrow.Array) ([]int32, error) {
	var vals []int32
	switch a := a.(type) {
	case *array.Int32:
		return a.Int32Values(), nil
	case *array.Uint32:
		return arrow.Int32Traits.CastFromBytes(arrow.Uint32Traits.CastToBytes(a.Uint32Values())), nil
	case *array.Int8:
		vals = widen(a.Int8Values())
	case *array.Int16:
		vals = widen(a.Int16Values())
	case *array.Uint8:
		vals = widen(a.Uint8Values())
	case *array.Uint16:
		vals = widen(a.Uint16Values())
	default:
		return nil, fmt.Errorf("%s in an INT32 column", a.DataType())
	}
	return vals, nil
}

func widen[T int8 | int16 | uint8 | uint16](v []T) []int32 {
	out := make([]int32, len(v))
	for i, x := range v {
		out[i] = int32(x)
	}
	return out
}

// writeByteArrays writes a string or binary column from its offsets and value
// bytes (an empty slice when the array has none).
func writeByteArrays(wr *file.ByteArrayColumnChunkWriter, a arrow.Array, nullable bool, def []int16) error {
	data := []byte{}
	if b := a.Data().Buffers()[2]; b != nil {
		data = b.Bytes()
	}
	valid, off := a.NullBitmapBytes(), int64(a.Data().Offset())
	type offsets32 interface{ ValueOffsets() []int32 }
	type offsets64 interface{ ValueOffsets() []int64 }
	var err error
	if wr.SupportsArrowOffsets() {
		switch a := a.(type) {
		case offsets32:
			if !nullable {
				_, err = wr.WriteBatchArrow(data, a.ValueOffsets(), nil, nil)
			} else {
				_, err = wr.WriteBatchSpacedArrow(data, a.ValueOffsets(), def, nil, valid, off)
			}
		case offsets64:
			if !nullable {
				_, err = wr.WriteBatchArrow64(data, a.ValueOffsets(), nil, nil)
			} else {
				_, err = wr.WriteBatchSpacedArrow64(data, a.ValueOffsets(), def, nil, valid, off)
			}
		default:
			return fmt.Errorf("%s in a BYTE_ARRAY column", a.DataType())
		}
		return err
	}
	vals := make([]parquet.ByteArray, a.Len())
	switch a := a.(type) {
	case offsets32:
		o := a.ValueOffsets()
		for i := range vals {
			vals[i] = data[o[i]:o[i+1]]
		}
	case offsets64:
		o := a.ValueOffsets()
		for i := range vals {
			vals[i] = data[o[i]:o[i+1]]
		}
	default:
		return fmt.Errorf("%s in a BYTE_ARRAY column", a.DataType())
	}
	if !nullable {
		_, err = wr.WriteBatch(vals, nil, nil)
	} else {
		_, err = wr.WriteBatchSpacedWithError(vals, def, nil, valid, off)
	}
	return err
}

// batchWriter is arrow-go's column chunk writer of values of type T.
type batchWriter[T any] interface {
	WriteBatch(values []T, defLevels, repLevels []int16) (int64, error)
	WriteBatchSpacedWithError(values []T, defLevels, repLevels []int16, validBits []byte, validBitsOffset int64) (int64, error)
}

// writeBatch writes vals to wr: as they are when the column is not nullable, else
// spaced by the validity bitmap valid (from bit off) with definition levels def.
func writeBatch[T any](wr batchWriter[T], vals []T, nullable bool, def []int16, valid []byte, off int64) error {
	if !nullable {
		_, err := wr.WriteBatch(vals, nil, nil)
		return err
	}
	_, err := wr.WriteBatchSpacedWithError(vals, def, nil, valid, off)
	return err
}
