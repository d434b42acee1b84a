// Package files decides whether two paths a command was given name one file, so
// that no command writes over one of its own inputs or over another of its outputs.
//
// It is a package of its own because every command needs the same answer and the
// answer is not a string comparison: "a.csv", "./a.csv", "/abs/a.csv", a symlink to
// it and a hard link to it all name one file. A command lists every file it reads
// (tables, config file, weights, ids) and every file it writes (--out, --summary,
// --html, the ledger, …), each with the flag or key that named it, and Check
// reports each pair that is one file where at least one of the two is written,
// before any work.
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
//  3. Paths with a URL scheme (gs://, s3://) are compared by their URL (the key's
//     ".", ".." and doubled slashes resolved); one ending in "/" is a folder of
//     objects, so an output below an input folder is refused. Empty paths are not
//     compared.
//  4. Names are compared byte for byte: on a case-insensitive file system two
//     not-yet-existing outputs "A.csv" and "a.csv" are taken as different (once one
//     exists, its inode decides).
//  5. An output below an input that is an existing folder (a table of many files)
//     is refused too: a later run would read it as one of the table's files.
//
// The check is a snapshot: a path that changes between the check and the write
// (another process renaming files) is not covered.
package files
