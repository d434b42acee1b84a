package cli

// The tests run graphdp with object storage, as cmd/graphdp (and graphdp-beam) has
// it: s3_test.go and s3_process_test.go run against real servers, and the process
// tests re-run this test binary as graphdp.
import _ "github.com/graphdp/graphdp/internal/objstore/clouds"
