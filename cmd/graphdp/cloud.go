//go:build cloud

package main

// Built with -tags cloud, graphdp reads and writes s3:// and gs:// objects: the
// cloud SDKs are linked (internal/objstore/clouds says what they cost to build).
import _ "github.com/graphdp/graphdp/internal/objstore/clouds"
