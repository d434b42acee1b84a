// Package pqdecode decodes every column chunk of a Parquet file and keeps nothing:
// the cost of merely reading a table, which the benchmark scripts (scripts/bench's
// read floor, scripts/floor's separate floor process: PERFORMANCE.md, "The I/O
// floor") measure graphdp
// against. One implementation, so that both floors pay the same decode.
package pqdecode
