// Package files decides whether a path a command writes would replace, or land
// inside, a path it reads or another it writes, so that no command writes over one
// of its own inputs (docs/FORMATS.md, "Paths: inputs, outputs and their identity").
//
// It is a package of its own because every command needs the same answer and the
// answer is not a string comparison: "a.csv", "./a.csv", "/abs/a.csv", a symlink to
// it and a hard link to it all name one file, "ed/part-*.csv" names ed/part-0.csv,
// and s3://b/e%64ges.csv is s3://b/edges.csv. A command lists every file it reads
// (each source of each table, the config file, the privacy profile or trade-off
// curve, the provenance key, weights, ids, the ledger) and every file it writes
// (--out, --summary, --html, the ledger, …), each with the flag or key that named
// it, and Check reports, before any work, each spelling it refuses and each pair
// where at least one of the two is written and the invariants make them collide.
//
// Invariants:
//
//  1. Identity of a path that exists: its device and inode, after following every
//     symbolic link (os.Stat, os.SameFile). Two hard links of one file are one file;
//     an output that is a symlink to an input is the input (refused, although the
//     writer would replace the link and not the file it points to: the safe reading).
//  2. Identity of a path that does not exist yet (an output to be created): its
//     folder with every symbolic link resolved (filepath.EvalSymlinks of the
//     absolute folder), plus its base name. Two such outputs are one file when
//     both agree; a path that exists is never the same as one that does not.
//  3. An s3:// or gs:// path is its objstore.URL, the one parse the readers and
//     writers use (objstore.Parse: scheme, bucket, percent-decoded key); two are one
//     object when their URLs are equal. A spelling Parse refuses (a query, a
//     fragment, a user or port, a capital in the bucket, an empty, "." or ".." key
//     segment) is a problem of its own, for inputs and outputs alike; so is a path
//     with any other scheme (it would be read as a local path). Empty paths are not
//     compared.
//  4. Names are compared byte for byte: on a case-insensitive file system two
//     not-yet-existing outputs "A.csv" and "a.csv" are taken as different (once one
//     exists, its inode decides); object keys are case-sensitive.
//  5. An output below an input that is an existing folder (a table of many files)
//     is refused, at any depth; so is an output whose key extends an input object's
//     key by "/…" (the reader takes a key that names no object as a folder).
//  6. An input glob (HasMeta) names the files Glob expands it to now (the reader's
//     expansion, compared by invariant 1) and every path it matches: an output
//     whose absolute path, as spelled or with the folder before the first wildcard
//     resolved, matches the pattern is refused, existing or not. An object glob
//     names every object objstore.Match accepts. Outputs are never globs.
//
// The check is a snapshot: a path that changes between the check and the write
// (another process renaming files) is not covered.
package files
