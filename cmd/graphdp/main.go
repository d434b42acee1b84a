package main

import "github.com/graphdp/graphdp/internal/cli"

func main() { cli.Graphdp.RunProcess() }
