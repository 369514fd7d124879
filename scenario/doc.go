// Package scenario turns the text configuration of a run — the
// "[section] key = value" TOML of rdcn simulate --config and its
// --set key=value overrides — into a runnable setup: a circuit schedule
// (package schedules' generators or a schedule file), a workload
// (package workload's sizes, patterns, incast, or a flow file) and the
// fabric.Config that package fabric runs.
//
// A scenario is a set of keys that builds a runnable setup. The name
// says what the package holds (the scenario, not the engine): package
// fabric is the emulator and its typed Go API, and knows nothing of
// keys, TOML or strings to parse; this package is the one way from
// text to a fabric.Config, and depends on fabric, never the reverse.
//
// # Keys
//
// Keys lists every key once, with its default and a one-line doc. The
// parser starts from it, rdcn simulate --keys prints it, docs/simulate.md's
// key table is generated from it (go test ./cmd/rdcn/app -run
// TestSimulateDocs -update-docs), and an unknown key's error names the
// keys of its section.
//
// # One default
//
// A key whose value fills an optional fabric.Config field (topology.mtu,
// transport.window, transport.min_rto, buffer.policy, routing.bulk,
// run.sample_interval, …) takes its default from fabric's Default*
// constants, formatted with rotor's String methods (DefaultMinRTO is
// "1ms", DefaultBulkBytes "15MB"). Config's own defaults apply the same
// constants, so the CLI and the Go API cannot disagree: a default exists
// once, in fabric, and this package shows it. Keys whose Config field
// has no default (topology.host_link, topology.hosts_per_tor,
// workload.*, …) are this package's: a Config built in Go must set them.
// TestKeysDefaultsAreConfigDefaults checks that a Spec built at its
// defaults and a Config whose optional fields were left zero agree field
// by field.
//
// # Registries
//
// The keys that select a component each have a fabric.Registry: its
// entries' names, one-line docs and the keys only they read.
// topology.kind's registry (Topologies) is this package's, since a
// fabric.Config selects its topology by a field (Config.LeafSpine), not
// a name; buffer.policy, routing.mode, transport.kind and transport.cc
// are package fabric's, which Config's validation reads. Registries lists
// them all. From them Build refuses a key set where the choice made does
// not read it.
//
// # Building
//
// Spec.Build resolves the keys in order: the topology, the schedule (its
// generator's parameters are refused for a kind that does not read them,
// and beside schedule.file), the designed routing and transport for keys
// left empty (fabric.Config.DesignModes; Spec.Values echoes what they
// resolved to), the size of the routing's next-hop table
// (Config.CheckTable), the buffer policy (built once on a switch of the
// fabric's shape so a bad parameter names its key), the workload, and
// finally fabric's own defaults and validation (Config.Resolve) and
// whether the routing reaches every demanded pair (Config.CheckReach).
// The leaf-spine skips the schedule and takes ECMP. Every error is a
// one-line *fabric.ConfigError naming the key. BuildContext stops when
// its context is done, in every phase.
//
// # Set-ups
//
// BufferSetups and RDCNSetup embed the buffer papers' and the PowerTCP
// thesis's experiment configurations (testdata/buffers/*.toml,
// testdata/rdcn.toml and their flow files), from which package
// experiment builds its named sweeps.
//
// # Decisions where the issue was silent
//
//   - Package fabric keeps the registries of the choices Config names
//     (buffer policies, routers, transports, congestion controls) because
//     its validation reads them and the dependency runs scenario → fabric;
//     the topology registry moved here.
//   - fabric exports what Build needs of the engine's checks (Resolve,
//     DesignModes, CheckReach, CheckTable, DayProblem, ValidateLeafSpine,
//     the Max* limits) instead of this package repeating them.
//   - A cap on the flows a generated workload may hold (5 M) is this
//     package's: it bounds what a configuration may ask for, not the
//     engine.
package scenario
