package job

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

// Provenance is how summaries, reports and output metadata identify the input
// files without giving private data away (docs/DESIGN.md, "Provenance"). A plain
// SHA-256 of a file that holds the true answers is an answer oracle: on a small
// graph the 2^n candidate files can be hashed and compared (four datasets: 16
// candidates). So:
//
//   - the edges file (the dataset graph, which the DP guarantee treats as public)
//     is identified by its plain SHA-256;
//   - a file that depends on the answers — the vertices (the answer column), the
//     hitting set (its members and, with per-answer α, its values) and a mechanism
//     (p_one is the answer's side) — only by a keyed digest, HMAC-SHA256 under a
//     key the operator keeps (--provenance-key, the config's provenance_key or
//     $GRAPHDP_PROVENANCE_KEY_FILE), and not at all without a key;
//   - with a key, every input gets the keyed digest, the edges file too.
//
// The keyed digest is HMAC-SHA256(key, the file's SHA-256 as 64 lowercase hex
// digits), so it can be recomputed from sha256sum's output and the key file alone
// (docs/FORMATS.md, "Provenance"). The zero Provenance has no key.
type Provenance struct{ key []byte }

// provenanceKeyEnv names the environment variable that gives the key file when
// neither the flag nor the config does.
const provenanceKeyEnv = "GRAPHDP_PROVENANCE_KEY_FILE"

// Bounds of a key file: shorter keys can be searched together with the answers;
// a longer file is not a key.
const (
	minProvenanceKey = 16
	maxProvenanceKey = 1 << 16
)

// Digest identifies one input file (JSON fields of a summary's or a report's input).
type Digest struct {
	SHA256     string `json:"sha256,omitempty"`      // the file's SHA-256: public inputs only
	HMACSHA256 string `json:"hmac_sha256,omitempty"` // keyed: with a provenance key only
}

// Keyed reports whether p has a key.
func (p Provenance) Keyed() bool { return len(p.key) > 0 }

// Public is the digest of a file holding no private column (the edges), from its
// hex SHA-256 fp ("" when the file's digest is unknown).
func (p Provenance) Public(fp string) Digest {
	if fp == "" {
		return Digest{}
	}
	return Digest{SHA256: fp, HMACSHA256: p.hmac(fp)}
}

// Private is the digest of a file whose bytes depend on the true answers: keyed,
// or none.
func (p Provenance) Private(fp string) Digest {
	if fp == "" {
		return Digest{}
	}
	return Digest{HMACSHA256: p.hmac(fp)}
}

func (p Provenance) hmac(fp string) string {
	if !p.Keyed() {
		return ""
	}
	m := hmac.New(sha256.New, p.key)
	io.WriteString(m, fp)
	return hex.EncodeToString(m.Sum(nil))
}

// ProvenanceKeyFile is the key file a job uses: its provenance_key, else
// $GRAPHDP_PROVENANCE_KEY_FILE, else "" (no key).
func (j *Job) ProvenanceKeyFile() string {
	if j.ProvenanceKey != "" {
		return j.ProvenanceKey
	}
	return os.Getenv(provenanceKeyEnv)
}

// Provenance reads the job's key file (the zero Provenance when it names none). The
// key is the file's bytes, exactly: at least minProvenanceKey of them.
func (j *Job) Provenance() (Provenance, error) {
	return readProvenanceKey(j.ProvenanceKeyFile())
}

// readProvenanceKey reads a key file ("" gives the zero Provenance).
func readProvenanceKey(path string) (Provenance, error) {
	if path == "" {
		return Provenance{}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return Provenance{}, fmt.Errorf("provenance_key: %v", err)
	}
	defer f.Close()
	key, err := io.ReadAll(io.LimitReader(f, maxProvenanceKey+1))
	switch {
	case err != nil:
		return Provenance{}, fmt.Errorf("provenance_key: %s: %v", path, err)
	case len(key) < minProvenanceKey:
		return Provenance{}, fmt.Errorf("provenance_key: %s: a key of %d bytes is too short (at least %d; make one with: head -c 32 /dev/urandom > %[1]s)", path, len(key), minProvenanceKey)
	case len(key) > maxProvenanceKey:
		return Provenance{}, fmt.Errorf("provenance_key: %s: longer than %d bytes: not a key file", path, maxProvenanceKey)
	}
	return Provenance{key: key}, nil
}
