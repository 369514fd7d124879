package app

import (
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/rdcn/rdcn/emulated"
	"github.com/rdcn/rdcn/rotor"
)

func boundsCommand() *cli.Command {
	flags := append(analysisFlags(),
		&cli.StringFlag{Name: "demand", Aliases: []string{"d"}, Value: "worst", Usage: "demand `SPEC` (default: the worst-case permutation)"},
		&cli.Float64Flag{Name: "gap", Value: emulated.DefaultGap, Usage: "target certified relative gap of θ"},
	)
	return &cli.Command{
		Name:  "bounds",
		Usage: "throughput bounds, delay and buffer of a schedule (Mars chapter, Theorems 14-16)",
		UsageText: "rdcn bounds (--schedule FILE | --kind K --tors N --uplinks U [...]) [--demand worst] [--link 400Gbps]\n" +
			"   [--format text|json|csv] [-o FILE]\n\n" +
			"example: rdcn bounds --kind rotornet --tors 16 --uplinks 2 --slot 100us --reconf 10us\n" +
			"example: rdcn bounds --kind opera --tors 16 --uplinks 4 --format csv -o bounds.csv",
		Description: "Prints θ(D) (certified), TUB (shortest paths), the ARL bound of Theorem 14 for the\n" +
			"certified flow, the average route delay ARD = ARL·Γ·Δ and the delay bound d·Δ/(U·θ) of Theorem 15,\n" +
			"and the buffer bound θ·M·ARD of Theorem 16 (total and per node). --demand worst (the default)\n" +
			"uses the permutation that maximises the total hop distance (Hungarian algorithm). JSON has demand,\n" +
			"nodes, degree, theta, lower, upper, tub, arl, arl_bound, ard_ps, delay_bound_ps, buffer_total_bytes,\n" +
			"buffer_per_node_bytes, single_hop_theta and vlb_theta (times in ps, sizes in bytes); CSV has a\n" +
			"header of the same names and one row.",
		Flags:  flags,
		Action: runBounds,
	}
}

type boundsJSON struct {
	Demand         string  `json:"demand"`
	Nodes          int     `json:"nodes"`
	Degree         int     `json:"degree"`
	Theta          float64 `json:"theta"`
	Lower          float64 `json:"lower"`
	Upper          float64 `json:"upper"`
	TUB            float64 `json:"tub"`
	ARL            float64 `json:"arl"`
	ARLBound       float64 `json:"arl_bound"`
	ARDps          int64   `json:"ard_ps"`
	DelayBoundps   int64   `json:"delay_bound_ps"`
	BufferTotal    int64   `json:"buffer_total_bytes"`
	BufferPerNode  int64   `json:"buffer_per_node_bytes"`
	SingleHopTheta float64 `json:"single_hop_theta"`
	VLBTheta       float64 `json:"vlb_theta"`
}

func runBounds(c *cli.Context) error {
	format, gap, err := analysisOptions(c)
	if err != nil {
		return err
	}
	g, err := loadGraph(c)
	if err != nil {
		return err
	}
	d, err := loadDemand(g, c.String("demand"), c.Uint64("seed"))
	if err != nil {
		return err
	}
	rep, _, err := emulated.Analyse(g, d, &emulated.Options{Gap: gap})
	var fe *emulated.FieldError
	if errors.As(err, &fe) {
		return badInput(fe.Field, "%s", fe.Problem)
	}
	if err != nil {
		return asInput("demand", err)
	}
	out := boundsJSON{Demand: c.String("demand"), Nodes: g.N, Degree: g.Degree(), Theta: rep.Theta,
		Lower: rep.Lower, Upper: rep.Upper, TUB: rep.TUB, ARL: rep.ARL, ARLBound: rep.ARLBound,
		ARDps: int64(rep.ARD), DelayBoundps: int64(rep.DelayBound),
		BufferTotal: int64(rep.BufferTotal), BufferPerNode: int64(rep.BufferPerNode)}
	if sh, err := emulated.SingleHop(g, d, nil); err == nil {
		out.SingleHopTheta = sh.Theta
	}
	if v, err := emulated.VLB(g, d, nil); err == nil {
		out.VLBTheta = v.Theta
	}
	return writeOutput(c.App.Writer, c.String("output"), func(w io.Writer) error {
		switch format {
		case "json":
			return writeJSON(w, out)
		case "csv":
			return writeRecordCSV(w, out)
		}
		_, err := fmt.Fprintf(w, "demand %s, %d nodes, emulated degree %d\n"+
			"theta        %s  %s\n"+
			"single-hop   %.6f\nvlb          %.6f\n"+
			"TUB          %.6f  (shortest paths)\n"+
			"ARL          %.4f hops; ARL bound %.6f (Theorem 14)\n"+
			"ARD          %v (ARL·Γ·Δ, Theorem 15)\n"+
			"delay bound  %v (d·Δ/(U·θ), Theorem 15)\n"+
			"buffer       %v total, %v per node (θ·M·ARD, Theorem 16)\n",
			out.Demand, out.Nodes, out.Degree, formatDirected(out.Theta, 6, false), formatInterval(out.Lower, out.Upper, 6), out.SingleHopTheta, out.VLBTheta,
			out.TUB, out.ARL, out.ARLBound, rep.ARD, rep.DelayBound, rotor.Bytes(out.BufferTotal), rotor.Bytes(out.BufferPerNode))
		return err
	})
}
