package ingest

// This file is where a reader of a mechanism table resolves its column names: the
// one place that follows the names graphdp's own outputs record (sink.Names: the
// outputs keep the inputs' id and answer names and record them in their metadata).

// The metadata keys under which graphdp's mechanisms record their id and answer
// columns' names: sink.MetaIDColumn and sink.MetaAnswerColumn, which this package
// cannot import (same floor); TestMechanismFollowsRecordedNames reads what the sink
// writes.
const (
	metaIDColumn     = "graphdp.columns.id"
	metaAnswerColumn = "graphdp.columns.answer"
)

// follow is cols resolved against a table whose metadata is meta and whose columns
// has tells: a table that records its names (graphdp's own mechanism) is read by
// them. Each role the caller reads takes the table's name for it — the recorded one
// for the id and answer, graphdp's own for the others (DefaultMechanismTableColumns,
// WithExplanation) — unless the caller named it otherwise and the table has a column
// of that name. So a command given the run's own names, the defaults, or names of
// another input (a hitting set's p_true) reads the run's output alike; a table that
// records nothing (CSV, another writer's) is read by the caller's names.
func (c MechanismTableColumns) follow(meta map[string]string, has func(string) bool) MechanismTableColumns {
	id, ok := meta[metaIDColumn]
	if !ok {
		return c
	}
	own := DefaultMechanismTableColumns().WithExplanation()
	own.ID = id
	if a, ok := meta[metaAnswerColumn]; ok {
		own.Answer = a
	}
	def := DefaultMechanismTableColumns().WithExplanation()
	for _, r := range []struct {
		given    *string
		own, def string
	}{
		{&c.ID, own.ID, def.ID}, {&c.Answer, own.Answer, def.Answer}, {&c.PTrue, own.PTrue, def.PTrue},
		{&c.POne, own.POne, def.POne}, {&c.Distance, own.Distance, def.Distance},
		{&c.Binding, own.Binding, def.Binding}, {&c.InHit, own.InHit, def.InHit},
	} {
		if *r.given == "" || (*r.given != r.def && has(*r.given)) {
			continue // not read, or a column the caller names on purpose
		}
		*r.given = r.own
	}
	return c
}

// Columns are the names the table was read by: the caller's, resolved by follow
// (what messages about its columns name).
func (m *MechanismTable) Columns() MechanismTableColumns { return m.cols }
