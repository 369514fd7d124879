package scenario

import (
	"slices"

	"github.com/rdcn/rdcn/fabric"
	"github.com/rdcn/rdcn/rotor"
	"github.com/rdcn/rdcn/workload"
)

// incastSetupKeys set up the incast responses apart from the background
// flows; a run without incast flows must leave them empty.
var incastSetupKeys = []string{"transport.incast_init_window", "transport.incast_handshake", "transport.incast_mss"}

// flowSetup reads the per-class initial windows and handshakes and the
// send jitter (fabric's flowsetup.go). A key at its default is left to
// the fabric's default (so a law without an initial window does not read
// it).
func (s *Spec) flowSetup(p *specParser, cfg *fabric.Config, mtu rotor.Bytes) {
	mss, incastMSS := mtu, mtu
	if s.values["transport.mss"] != "" {
		cfg.MSS = int32(p.intIn("transport.mss", 1, int(mtu), "topology.mtu = "))
		mss, incastMSS = rotor.Bytes(cfg.MSS), rotor.Bytes(cfg.MSS)
	}
	if s.values["transport.incast_mss"] != "" {
		cfg.IncastMSS = int32(p.intIn("transport.incast_mss", 1, int(mtu), "topology.mtu = "))
		incastMSS = rotor.Bytes(cfg.IncastMSS)
	}
	if s.values["transport.init_window"] != defaultOf("transport.init_window") {
		cfg.InitWindow = int64(p.posSize("transport.init_window", mss, false, ""))
	}
	switch v := s.values["transport.incast_init_window"]; v {
	case "":
	case fabric.IncastWindowResponse:
		cfg.IncastInitWindow = fabric.InitWindowResponse
	default:
		cfg.IncastInitWindow = int64(p.posSize("transport.incast_init_window", incastMSS, false, ""))
	}
	cfg.Handshake = handshakeName(s.values["transport.handshake"])
	cfg.IncastHandshake = cfg.Handshake
	if v := s.values["transport.incast_handshake"]; v != "" {
		cfg.IncastHandshake = handshakeName(v)
	}
	if s.values["transport.syn_timeout"] != defaultOf("transport.syn_timeout") {
		cfg.SynTimeout = p.posTime("transport.syn_timeout", false, "")
	}
	if s.values["transport.syn_tries"] != defaultOf("transport.syn_tries") {
		cfg.SynTries = p.intIn("transport.syn_tries", 1, fabric.MaxSynTries, "")
	}
	cfg.DelayedAck = p.intIn("transport.delayed_ack", 1, fabric.MaxDelayedAck, "")
	cfg.DelayedAckTimeout = p.posTime("transport.delayed_ack_timeout", true, "")
	switch j := p.float("transport.send_jitter"); {
	case j < 0:
		p.fail("transport.send_jitter", "must not be negative (0: off)")
	case j == 0:
		cfg.SendJitter = fabric.NoSendJitter
	default:
		cfg.SendJitter = j
	}
}

// handshakeName is the fabric's name of a transport.handshake value:
// true and false, the key's values before the queued handshake, stand
// for idle and none (an unknown name is the Config's error).
func handshakeName(v string) string {
	switch v {
	case "true":
		return fabric.HandshakeIdle
	case "false":
		return fabric.HandshakeNone
	}
	return v
}

// checkIncastSetup refuses the incast set-up keys when the workload has
// no incast: workload.incast_senders is 0 and no flow (of a flow file) is
// an incast response.
func (s *Spec) checkIncastSetup(flows []workload.Flow) error {
	if s.values["workload.incast_senders"] != "0" || slices.ContainsFunc(flows, func(f workload.Flow) bool { return f.Query > 0 }) {
		return nil
	}
	for _, k := range incastSetupKeys {
		if s.values[k] != "" {
			return cfgErr(k, "is set, but the workload has no incast responses (workload.incast_senders = 0, or a flow file without queries)")
		}
	}
	return nil
}
