package beam

import (
	sdk "github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// endAt ends a pipeline at fn, a DoFn whose work is its side effects (files in
// staging): fn's output — never written — goes to a GroupByKey that nothing reads.
//
// Why not ParDo0: Prism (v2.77) watches a bundle in a select loop whose "data done"
// channel is closed from the start when the stage has no outputs, so for the whole
// bundle the loop spins on it (selectgo, its channel locks and the progress ticker's
// clock: a core's worth of CPU while, say, the build's shards or the finish run; 22%
// of the 10^7-edge run's CPU). With an output the channel closes only when the
// bundle's output ends, at the bundle's end. The GroupByKey is a runner transform
// that receives nothing; other runners drop or ignore it.
func endAt(s sdk.Scope, fn any, col sdk.PCollection) {
	sdk.GroupByKey(s, sdk.ParDo(s, fn, col))
}

// spread is list as a PCollection that a runner may split: sdk.CreateList emits
// every element from one impulse, so the stage that reads it is one bundle of one
// element that Prism cannot split (the build's reads, a pipeline's first round and
// the finish's first stage each ran one element after another on one core). The
// Reshuffle is a fusion break (Prism elides it, making its consumer a stage root), so
// the consumer's input is the list's elements, which Prism splits among bundles.
func spread[T any](s sdk.Scope, list []T) sdk.PCollection {
	return sdk.Reshuffle(s, sdk.CreateList(s, list))
}
