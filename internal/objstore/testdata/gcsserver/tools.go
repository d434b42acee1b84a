//go:build tools

// The GCS server the object-store tests start (internal/objtest): fake-gcs-server
// (BSD-2-Clause), built from this separate module so that graphdp's own module does
// not require it.
package tools

import _ "github.com/fsouza/fake-gcs-server"
