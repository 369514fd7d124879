package cc

import (
	"fmt"

	"github.com/rdcn/rdcn/rotor"
)

// Fixed keeps a constant window and never paces: the law "fixed", whose
// window is Env.Window.
type Fixed struct{ Bytes int64 }

func (f *Fixed) OnAck(*Feedback)            {}
func (f *Fixed) OnLoss(rotor.Time)          {}
func (f *Fixed) OnTimeout(rotor.Time)       {}
func (f *Fixed) OnCircuit(rotor.Time, bool) {}
func (f *Fixed) Window() int64              { return f.Bytes }
func (f *Fixed) Rate() rotor.Rate           { return 0 }

// Unlimited has no window and sends at the NIC's line rate: the law
// "none".
type Unlimited struct{ Line rotor.Rate }

func (u *Unlimited) OnAck(*Feedback)            {}
func (u *Unlimited) OnLoss(rotor.Time)          {}
func (u *Unlimited) OnTimeout(rotor.Time)       {}
func (u *Unlimited) OnCircuit(rotor.Time, bool) {}
func (u *Unlimited) Window() int64              { return 0 }
func (u *Unlimited) Rate() rotor.Rate           { return u.Line }

func init() {
	Register(Spec{Name: "fixed", Doc: "a fixed window of Env.Window bytes (the fabric's transport.window); no reaction to feedback",
		Check: func(e Env) error {
			if e.Window <= 0 {
				return fmt.Errorf("window %d: must be positive", e.Window)
			}
			return nil
		},
		New: func(e Env, _ Values) Law { return &Fixed{Bytes: e.Window} }})
	Register(Spec{Name: "none", Doc: "no window: send whenever the NIC is free (pacing rate = line rate)",
		New: func(e Env, _ Values) Law { return &Unlimited{Line: e.HostRate} }})
}
