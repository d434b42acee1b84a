package bfs

import "strconv"

func strconvFormat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
