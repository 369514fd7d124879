package cc

import (
	"fmt"

	"github.com/rdcn/rdcn/packet"
	"github.com/rdcn/rdcn/rotor"
)

// Ack is the feedback one acknowledgement brings to a Controller.
type Ack struct {
	Now          rotor.Time
	Cum          int64           // cumulative bytes acknowledged
	Newly        int64           // bytes newly acknowledged by this ack
	RTT          rotor.Time      // round-trip sample, 0 if none (retransmission)
	ECE          bool            // the data packet was ECN-marked
	Circuit      bool            // the data packet crossed a circuit
	Int          []packet.IntHop // the data packet's INT records, data path in order (nil: INT off)
	IntTruncated bool            // the data path had more hops than Int holds
}

// Controller is a congestion-control law.
type Controller interface {
	// OnAck is called for every ACK that acknowledges new data.
	OnAck(a *Ack)
	// OnRTT is called once per round trip, when the cumulative ACK passes
	// the highest byte sent at the previous call.
	OnRTT(now rotor.Time)
	// OnLoss is called on a retransmission timeout.
	OnLoss(now rotor.Time)
	// OnCircuit tells the sender that the circuit from its ToR to the
	// destination's ToR came up (day) or went down (night).
	OnCircuit(now rotor.Time, up bool)
	// Window is the congestion window in bytes; ≤ 0 means unlimited.
	Window() int64
	// PacingRate is the sending rate; 0 means the NIC's line rate.
	PacingRate() rotor.Rate
}

// Params are what a controller may need to know about its flow and host.
type Params struct {
	Window   int64 // configured window in bytes (Fixed)
	MSS      int32
	HostRate rotor.Rate
	BaseRTT  rotor.Time
}

// Fixed keeps a constant window and never paces.
type Fixed struct{ Bytes int64 }

func (f *Fixed) OnAck(*Ack)                     {}
func (f *Fixed) OnRTT(rotor.Time)               {}
func (f *Fixed) OnLoss(rotor.Time)              {}
func (f *Fixed) OnCircuit(rotor.Time, bool)     {}
func (f *Fixed) Window() int64                  { return f.Bytes }
func (f *Fixed) PacingRate() rotor.Rate         { return 0 }
func (u *Unlimited) OnAck(*Ack)                 {}
func (u *Unlimited) OnRTT(rotor.Time)           {}
func (u *Unlimited) OnLoss(rotor.Time)          {}
func (u *Unlimited) OnCircuit(rotor.Time, bool) {}
func (u *Unlimited) Window() int64              { return 0 }
func (u *Unlimited) PacingRate() rotor.Rate     { return 0 }

// Unlimited sends at line rate with no window.
type Unlimited struct{}

// NewController returns the controller called name: "fixed" (window
// p.Window bytes) or "none" (unlimited).
func NewController(name string, p Params) (Controller, error) {
	switch name {
	case "fixed":
		if p.Window <= 0 {
			return nil, fmt.Errorf("window %d: must be positive", p.Window)
		}
		return &Fixed{Bytes: p.Window}, nil
	case "none":
		return &Unlimited{}, nil
	}
	return nil, fmt.Errorf("unknown congestion control %q (want fixed or none)", name)
}
