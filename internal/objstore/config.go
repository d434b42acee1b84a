package objstore

import (
	"context"
	"os"
)

// Config is how this process reaches the stores for one job: the job's own
// settings (job.Job's s3_endpoint), never a process global, so that a Beam
// worker, which is given the job and not the launcher's flags, reaches the same
// stores as the launcher. It travels in the context of every read, listing and
// upload (WithConfig); a context without one is the zero Config.
type Config struct {
	// S3Endpoint is the URL of an S3-compatible service for s3:// (such as
	// http://localhost:9000), addressed path-style; "" is the environment's
	// (AWS_ENDPOINT_URL_S3, else AWS_ENDPOINT_URL), else AWS itself.
	S3Endpoint string
}

type configKey struct{}

// WithConfig is ctx whose store accesses use c.
func WithConfig(ctx context.Context, c Config) context.Context {
	return context.WithValue(ctx, configKey{}, c)
}

// ConfigFrom is the Config in ctx (WithConfig), the zero Config if none.
func ConfigFrom(ctx context.Context) Config {
	c, _ := ctx.Value(configKey{}).(Config)
	return c
}

// Resolved is c with the environment's defaults filled in where c gives none: what
// a driver is made with (Driver).
func (c Config) Resolved() Config {
	if c.S3Endpoint == "" {
		c.S3Endpoint = os.Getenv("AWS_ENDPOINT_URL_S3")
	}
	if c.S3Endpoint == "" {
		c.S3Endpoint = os.Getenv("AWS_ENDPOINT_URL")
	}
	return c
}
