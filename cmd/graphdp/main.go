package main

import (
	"github.com/graphdp/graphdp/internal/cli"
	// s3:// and gs://: minio-go and GCS's JSON API, light enough for README's first
	// command (internal/objstore/clouds says what they cost to build).
	_ "github.com/graphdp/graphdp/internal/objstore/clouds"
)

func main() { cli.Graphdp.RunProcess() }
