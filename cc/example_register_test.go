package cc_test

import (
	"fmt"

	"github.com/rdcn/rdcn/cc"
	"github.com/rdcn/rdcn/rotor"
)

// A law registers itself in an init function: "aimd" adds step bytes per
// window of ACKs and halves the window on a loss or a timeout. Its
// parameters are parsed, defaulted and range-checked by the registry;
// New reads them from Values.
func init() {
	cc.Register(cc.Spec{
		Name: "aimd",
		Doc:  "additive increase (step per window), multiplicative decrease (½ on loss)",
		Params: []cc.Param{
			{Key: "step", Kind: cc.Size, Default: "1pkt", Lo: 1, Hi: 1 << 30, Doc: "increase per window of ACKs"},
			{Key: cc.InitWindowKey, Kind: cc.Size, Default: cc.DefaultInitWindow, Lo: 1, Hi: 1 << 40, Doc: "initial window"},
		},
		New: func(e cc.Env, v cc.Values) cc.Law {
			return &aimd{w: float64(v.I(cc.InitWindowKey)), step: float64(v.I("step")), mss: float64(e.MSS)}
		},
	})
}

type aimd struct{ w, step, mss float64 }

func (a *aimd) OnAck(f *cc.Feedback)       { a.w += a.step * float64(f.Acked) / a.w }
func (a *aimd) OnLoss(rotor.Time)          { a.w = max(a.mss, a.w/2) }
func (a *aimd) OnTimeout(rotor.Time)       { a.w = a.mss }
func (a *aimd) OnCircuit(rotor.Time, bool) {}
func (a *aimd) Window() int64              { return int64(a.w) }
func (a *aimd) Rate() rotor.Rate           { return 0 }

func ExampleRegister() {
	law, err := cc.New("aimd", cc.Env{MSS: 1000, HostRate: 10 * rotor.Gbps, BaseRTT: 10 * rotor.Microsecond}, map[string]string{"step": "2pkt"})
	if err != nil {
		fmt.Println(err)
		return
	}
	law.OnAck(&cc.Feedback{Acked: 10_000}) // one window: +2 packets
	fmt.Println(law.Window())
	law.OnLoss(0)
	fmt.Println(law.Window())
	_, err = cc.New("aimd", cc.Env{MSS: 1000, HostRate: rotor.Gbps}, map[string]string{"step": "0"})
	fmt.Println(err)
	// Output:
	// 12000
	// 6000
	// aimd: step = "0": must be in [1B, 1GiB]
}
