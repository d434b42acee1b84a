package beam

// The ranged-read tests read gs:// and s3:// through the drivers graphdp-beam
// links (cmd/graphdp-beam imports internal/objstore/clouds).
import _ "github.com/graphdp/graphdp/internal/objstore/clouds"
