// Package beam is graphdp's cluster runner: the same job as package pipeline, as an
// Apache Beam pipeline (Go SDK) that runs on Flink, Spark or Dataflow, and in tests on
// Beam's in-process Prism runner.
//
// This folder exists to keep the Beam SDK — a large dependency, minutes of cold build —
// out of the single-machine path: it is the only package that imports
// github.com/apache/beam, and only cmd/graphdp-beam imports it (cmd/graphdp's
// TestNoBeamInGraphdp checks the import graph). The math is not here: every shard step calls the same
// functions as bfs.Rounds (bfs/rounds.go), so both runners compute the same bits.
//
// What beam holds and what it calls (one kernel, one driver, two backends):
//
//  0. The run is pipeline's: Run is pipeline.Drive over New, the Beam backend
//     (pipeline.Backend: Build in run.go, Solve and Write in solve.go). pipeline
//     calls them in order and owns the stages' timing, logging, errors, repair
//     policy (bfs.Repair, passed to Solve), decisions, summary figures,
//     deterministic-dataset rule and the output's metadata; the backend begins the
//     stages it runs (pipeline.Stages) and returns their figures and its own report
//     (beamopt.Report: the summary's "beam" object). Its options are the job's beam: keys
//     (beamopt.Options), read once by New into the Conf every DoFn carries to the
//     workers: what to stage and whether to cache (Options.StageOffers, StageArcs,
//     NoWorkerCache) and how to reach the stores (job.Job.Store, applied by
//     Conf.context), never a package variable or the runner's name at the point of use.
//  1. beam holds only what is Beam: the transforms (build.go, join.go, broadcast.go,
//     shard.go, plan.go; rounds.go, with offers.go, the offers through staging;
//     finish.go: DoFns and the pipelines that wire
//     them; the lists a stage starts from pass a Reshuffle so a runner can split
//     it: sinkstage.go), the
//     coders of their elements (elements.go, blocks.go, codec.go), their registration
//     (run.go), the staging layout (rounds.go) and the worker cache (cache.go), the
//     ids' index of the joins (idindex.go), the arrays by Cut number of a shard's
//     foreign neighbours (foreign.go), the end of a pipeline at a stage with
//     outputs (sinkstage.go: Prism spins on a stage without), the launcher's reading of the staged
//     figures (gather.go), Beam's filesystems as an ingest.Opener (fs.go) with gs:// and
//     s3:// read by byte ranges through the cloud clients Beam links (ranged.go,
//     gcs.go, s3.go), and the launcher (run.go, submit.go, worker.go), with the
//     memory model it checks a Prism run against before any pipeline (memory.go).
//  2. Reading is ingest's, in every input format alike (beam has no case for one): the
//     launcher lists each input's files with ingest.ListParts (files, folders,
//     globs, several sources, and the checks across files) and plans each with
//     ingest.PlanFile (its columns checked as the readers check them, its rows and
//     read units, the vertices' id and answer types; plan.go). A split is one read
//     unit of one file (a Parquet row group, a CSV file whole), read by
//     ingest.ReadSplit over beamFiles (ingest.WithOpener; build.go). Rows are numbered
//     across a table's files; every rejection is an *ingest.InputError built by
//     ingest (ingest.Parts.UnknownID and DuplicateID for the joins, naming the file
//     and its row), with its Err kind, which survives the trip between workers
//     (ingest.Kinds). beam types no error wording of its own for bad input. The
//     inputs' fingerprints are ingest.Fingerprint over Beam's streams, joined by
//     ingest.Parts.Fingerprint.
//  3. The per-vertex rules are bfs's: the hitting-set check (check.HitCheck.Edge, on
//     each shard's edges u < v), settling and offers (bfs.Pass.NewStepper),
//     feasibility and its violations (Pass.Beyond, Pass.Violation), the repair of
//     one value (Pass.Repaired), and the repair loop itself (bfs.Repair.Run, which
//     bfs.Solve runs too: which solve, which pass to repair, when to stop, what is
//     kept — bfs.RepairKept — and what is rejected; solve.go's cluster is only its
//     bfs.Solver, each shard counting its bfs.Excess), the assembly of each vertex's exact value (bfs.OutputExact, dp.ExactColumns), the tails' check (bfs.Pass.TailViolation), the audit
//     (check.Auditor per shard, merged in position order by check.Audit.Merge and
//     made exact by Audit.Exact: check.Verify's result). beam applies them per
//     shard and sums.
//  4. The graph is graph's: a shard's CSR block is graph.BuildShard over the arcs the
//     joins sent it (graph doc.go invariant 3: the block graph.ShardOf cuts from
//     graph.Build's graph), and shards are a graph.Layout of consecutive positions.
//     With the broadcast index and at most 4096 edge row groups times shards, a row
//     group's arcs go to each shard through staging (arcs-G/: one file per row group
//     and shard, the shuffle carrying the row group's number; broadcast.go). With
//     the broadcast index, staged or shuffled, the shards read their neighbours'
//     answers and hit flags from the index, not from the arcs.
//  5. Elements cross the shuffle as blocks of columns, integer columns as varint
//     gaps and flags as bits (codec.go; arc blocks ordered by tail, blocks.go);
//     every element and staging file decodes to exactly what was encoded
//     (candidates bit for bit, −0 kept); reading past the end of one fails with
//     errCorrupt.
//
// Invariants (cited from the code as "beam doc.go invariant N"):
//
//  1. Every staging file is written once per version (round), and a retried bundle
//     rewrites the same bytes: a stage's output depends only on its inputs in staging
//     and its elements, never on which worker ran it or how often.
//  2. A round shuffles only offers (at most one per changed cut vertex, neighbouring
//     shard and colour) and one token per shard to itself: never a CSR block, never a
//     shard's candidates (BEAM.md, "Cost model"). With offers staged (beam.offers;
//     the default on Prism) the same offers go through staging, one file per sending
//     and receiving shard and round, and the shuffle carries only a reference to each
//     file (Prism holds a shuffle in this process several times over; BEAM.md,
//     "Memory on Prism").
//  3. A shard's CSR block never changes after the build (item 4 above), so a worker
//     may keep it for the whole run; a shard's candidates are kept only under the
//     version (round) that wrote them and are read from staging otherwise. Once the
//     finish is over the launcher drops the cache of its own process, and on Prism
//     the process returns its free memory to the system after every pipeline.
//  4. The rounds stop only when no offer is pending after a round; each shard settles
//     to its local fixed point every round (bfs doc.go invariant 8), so the result is
//     the label-setting engine's bit for bit.
//  5. Components are joined over roots, not vertices: a shard names each local
//     component by its smallest position (graph doc.go invariant 5) and sends the
//     launcher its count, a spanning set of its cut links and the roots its
//     deterministic datasets and hitting-set vertices lie in; the launcher's work and
//     memory follow the cut and the hitting set.
//  6. The launcher reads footers, per-shard reports and, for the output, the shards'
//     info and output blocks, one shard at a time, streamed into the output file
//     (sink.Outputs.WriteBatches, published with the summary: sink doc.go invariant
//     5): never a graph block, and never the whole output in memory (it holds one
//     shard's rows, one row group and the hitting set's ids).
//  7. A split of a gs:// or s3:// input transfers the footer and the column chunks
//     it decodes, plus at most one 64 KiB read-ahead window per small read, never
//     the whole object (BEAM.md, "Ranged reads"); every read of one open is of the
//     object version (generation, ETag) measured when it was opened.
//
// Deployment (worker.go, submit.go; docs/BEAM.md, "Submitting to a cluster"):
//
//  1. The launcher is its own worker binary. InitWorker, first in main, serves the
//     harness when the process was started as a worker — with --worker, or with the
//     boot loader's --id and --provision_endpoint (a PROCESS environment) — and
//     returns at once when the first argument is not a flag (a CLI command).
//  2. A job sent to a job server is followed by the launcher, not by the SDK's
//     universal runner, and always ends: with the job (DONE, or FAILED with the
//     runner's message), with a *WorkerError once Options.WorkerTimeout passes
//     without a worker's progress (the job is cancelled), or with ctx (the job is
//     cancelled). The worker binary is never cross-compiled: --worker_binary, else
//     the running binary.
//  3. During Run, slog's default logger is the run's: Beam's and Prism's lines
//     follow the CLI's --log-level and --log-format.
//  4. Prism in this process (no --endpoint) is a job server like any other: started
//     once per process (inProcessPrism) and followed as in 2, LOOPBACK workers in
//     this process. A run leaves nothing in the temporary folder (the SDK's own
//     runner left a placeholder file there at every pipeline).
package beam
