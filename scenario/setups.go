package scenario

import "embed"

// BufferSetups holds the buffer papers' experiment set-ups, written once
// and shared: testdata/buffers/*.toml (configurations for rdcn simulate
// --config; run.sh runs them) and testdata/buffers/tdt/tdt.flows (the TDT
// paper's UDP trace, a flow file). Package experiment builds its named
// sweeps abm, credence, protean, tdt and reverie from them.
//
//go:embed testdata/buffers/*.toml testdata/buffers/tdt/tdt.flows
var BufferSetups embed.FS

// RDCNSetup holds the PowerTCP thesis's reconfigurable-network case study
// (§2.4): testdata/rdcn.toml and its flow file testdata/rdcn.flows.
// Package experiment builds its named sweep powertcp-rdcn from them.
//
//go:embed testdata/rdcn.toml testdata/rdcn.flows
var RDCNSetup embed.FS
