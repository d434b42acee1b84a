package clouds

// The S3 server the tests start (internal/objstore/testdata/s3server, built by internal/objtest) is
// built from this module's requirements: this import keeps gofakes3 among them.
import _ "github.com/johannesboyne/gofakes3/backend/s3mem"
