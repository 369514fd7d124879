package app

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/rdcn/rdcn/bufferlab"
	"github.com/rdcn/rdcn/stats"
	"github.com/rdcn/rdcn/tor"
)

func bufferLabCommand() *cli.Command {
	return &cli.Command{
		Name:  "buffer-lab",
		Usage: "shared-buffer policies on the discrete-time switch of the theory: throughput against the exact optimum",
		UsageText: "rdcn buffer-lab [--ports N] [--buffer B] [--traffic bursts|bernoulli|onoff|cs|dt|followlqd|trace]\n" +
			"   [--slots T] [--load ρ] [--on L] [--off L] [--rounds R] [--trace FILE] [--policies cs,dt,…]\n" +
			"   [--param POLICY.KEY=VALUE …] [--flip p] [--seed S] [--format text|json|csv] [-o FILE]\n" +
			"rdcn buffer-lab --fig14 [--setups spread,one-slot] [--ports N] [--buffer B] [--slots T] [--load ρ] [--runs R]\n" +
			"   [--flips 0,0.1,…] [--plot FILE.png]\n\n" +
			"example: rdcn buffer-lab --traffic cs --ports 8 --buffer 64 --rounds 2000\n" +
			"example (Credence paper, Fig. 14): rdcn buffer-lab --fig14 --plot fig14.png",
		Description: "N ports, a buffer of B unit packets; in each slot the arrivals come first, then every non-empty\n" +
			"port sends one packet. OPT is the exact offline optimum. Credence's predictions are LQD's own\n" +
			"decisions on the same arrivals, each flipped with probability --flip. --fig14 sweeps the flip\n" +
			"probability on bursts of B packets arriving as a Poisson process (load ρ of the ports' capacity)\n" +
			"and reports LQD's throughput over Credence's and over DT's (α = 0.5), and over Credence's with a\n" +
			"random forest trained on LQD's traces of --runs other sequences. Two set-ups (--setups):\n" +
			"spread (N = 8, B = 64, load 0.3, a burst delivered N packets a slot) and one-slot (N = 16,\n" +
			"B = 256, load 0.002, a burst arriving whole in one slot); --ports, --buffer and --load change\n" +
			"one set-up's values, --slots every set-up's.",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "ports", Value: 8, Usage: "ports N"},
			&cli.Int64Flag{Name: "buffer", Value: 64, Usage: "buffer B, unit packets"},
			&cli.StringFlag{Name: "traffic", Value: "bursts", Usage: "bursts, bernoulli, onoff, cs, dt, followlqd (adversarial constructions) or trace"},
			&cli.IntFlag{Name: "slots", Value: 20000, Usage: "slots of random traffic"},
			&cli.Float64Flag{Name: "load", Value: 0.3, Usage: "bursts: offered load ρ; bernoulli: probability a source sends in a slot"},
			&cli.Float64Flag{Name: "on", Value: 10, Usage: "onoff: mean on period, slots"},
			&cli.Float64Flag{Name: "off", Value: 30, Usage: "onoff: mean off period, slots"},
			&cli.IntFlag{Name: "rounds", Value: 1000, Usage: "adversarial constructions: rounds"},
			&cli.StringFlag{Name: "trace", Usage: "arrivals from `FILE` (lines: \"ports N\", then \"SLOT PORT [COUNT]\")"},
			&cli.StringFlag{Name: "policies", Value: strings.Join(bufferlab.LabPolicies, ","), Usage: "policies to run"},
			&cli.StringSliceFlag{Name: "param", Usage: "a policy parameter, POLICY.KEY=VALUE (e.g. dt.alpha=1)"},
			&cli.Float64Flag{Name: "flip", Usage: "probability of flipping each of Credence's predictions"},
			&cli.StringFlag{Name: "model", Usage: "Credence asks the random forest in `FILE` instead of LQD's own decisions"},
			&cli.StringFlag{Name: "train", Usage: "train Credence's forest on LQD's traces of --runs other sequences of the same traffic, write it to `FILE` and use it"},
			&cli.BoolFlag{Name: "fig14", Usage: "run the Credence paper's flip-probability study instead"},
			&cli.StringFlag{Name: "setups", Value: "spread,one-slot", Usage: "--fig14: traffic set-ups (spread, one-slot)"},
			&cli.StringFlag{Name: "flips", Value: "0,0.001,0.005,0.01,0.05,0.1,0.2,0.3,0.4,0.5,0.6,0.7", Usage: "--fig14: flip probabilities"},
			&cli.IntFlag{Name: "runs", Value: 5, Usage: "--fig14: sequences per point; --train: training sequences"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "random seed"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text, json or csv"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the table to `FILE` (default stdout)"},
			&cli.StringFlag{Name: "plot", Usage: "--fig14: draw the figure into `FILE` (.svg or .png)"},
		},
		Action: runBufferLab,
	}
}

func runBufferLab(c *cli.Context) error {
	if c.Args().Present() {
		return badInput("arguments", "unexpected %q", c.Args().First())
	}
	n, b := c.Int("ports"), c.Int64("buffer")
	if n < 2 || n > 4096 {
		return badInput("ports", "%d: want 2..4096", n)
	}
	if b < 1 || b > 1<<24 {
		return badInput("buffer", "%d: want 1..%d unit packets", b, 1<<24)
	}
	if s := c.Int("slots"); s < 1 || s > 1<<24 {
		return badInput("slots", "%d: want 1..%d", s, 1<<24)
	}
	format, plotPath, plotFormat, err := tableOptions(c)
	if err != nil {
		return err
	}
	if err := refuseUnreadLabFlags(c); err != nil {
		return err
	}
	for _, flag := range []string{"output", "train", "plot"} {
		if err := checkOutputPath(flag, c.String(flag)); err != nil {
			return err
		}
	}
	rng := rand.New(rand.NewPCG(c.Uint64("seed"), 0x6275666c6162)) // "buflab"
	if c.Bool("fig14") {
		return runFig14(c, n, b, format, plotPath, plotFormat)
	}
	if plotPath != "" {
		return badInput("plot", "only --fig14 draws a figure")
	}
	seq, err := labSequence(c, n, b, rng)
	if err != nil {
		return err
	}
	policies := strings.Split(c.String("policies"), ",")
	for _, p := range policies {
		if _, err := tor.LookupPolicy(p); err != nil {
			return asInput("policies", err)
		}
	}
	params, err := labParams(c.StringSlice("param"), policies)
	if err != nil {
		return err
	}
	flip := c.Float64("flip")
	if !(flip >= 0 && flip <= 1) {
		return badInput("flip", "%v: must be a probability", flip)
	}
	if flip > 0 {
		if params["credence"] == nil {
			params["credence"] = map[string]float64{}
		}
		params["credence"]["flip"] = flip
	}
	var oracle tor.Oracle // nil: LQD's own decisions
	if path := c.String("model"); path != "" {
		m, err := tor.LoadForest(path)
		if err != nil {
			return badInput("model", "%v", err)
		}
		oracle = m
	}
	for _, p := range policies { // bad parameters are bad input, before any run
		if _, err := bufferlab.Policy(p, params[p], seq.N, b, tor.PerfectOracle{}, rng); err != nil {
			return asInput("policy "+p, err)
		}
	}
	if path := c.String("train"); path != "" {
		if oracle != nil {
			return badInput("train", "give --train or --model, not both")
		}
		m, q, err := trainLabModel(c, n, b, rng)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.App.ErrWriter, "rdcn: model trained on LQD's traces of %d other sequences; on this one: accuracy %.3f, precision %.3f, recall %.3f\n",
			c.Int("runs"), q.Accuracy(), q.Precision(), q.Recall())
		if err := writeOutput(c.App.Writer, path, m.Write); err != nil {
			return err
		}
		oracle = m
	}
	rows, err := bufferlab.Compare(seq, b, policies, params, oracle, rng)
	if err != nil {
		return err
	}
	return writeOutput(c.App.Writer, c.String("output"), func(w io.Writer) error {
		switch format {
		case "json":
			return writeJSON(w, rows)
		case "csv":
			cells := make([][]string, len(rows))
			for i, r := range rows {
				cells[i] = []string{r.Policy, fmt.Sprint(r.Transmitted), fmt.Sprint(r.Opt),
					strconv.FormatFloat(r.Ratio, 'g', -1, 64), strconv.FormatFloat(r.Bound, 'g', -1, 64)}
			}
			return stats.WriteCSV(w, []string{"policy", "sent", "opt", "opt_over_alg", "proven_bound"}, cells)
		}
		fmt.Fprintf(w, "%s: %d ports, buffer %d, %d slots, %d packets; OPT = %d\n",
			c.String("traffic"), seq.N, b, len(seq.Slots), seq.Packets(), rows[0].Opt)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "policy\tsent\tOPT/ALG\tproven bound\t")
		for _, r := range rows {
			bound := "-"
			if r.Bound > 0 {
				bound = strconv.FormatFloat(r.Bound, 'g', 4, 64)
			}
			fmt.Fprintf(tw, "%s\t%d\t%.4f\t%s\t\n", r.Policy, r.Transmitted, r.Ratio, bound)
		}
		return tw.Flush()
	})
}

// labReads lists the flags each traffic kind reads (and --fig14's run).
var labReads = map[string][]string{
	"bursts": {"slots", "load"}, "bernoulli": {"slots", "load"}, "onoff": {"slots", "on", "off"},
	"cs": {"rounds"}, "dt": {"rounds"}, "followlqd": {"rounds"}, "trace": {"trace"},
	"--fig14": {"slots", "load", "runs", "flips", "plot", "setups"},
}

// labFlags are the flags only some traffic kinds or modes read.
var labFlags = []string{"slots", "load", "on", "off", "rounds", "trace", "runs", "flips", "setups", "traffic", "policies", "param", "flip", "model", "train"}

// refuseUnreadLabFlags fails on a flag set that the chosen traffic (or
// --fig14) does not read, naming it.
func refuseUnreadLabFlags(c *cli.Context) error {
	mode := c.String("traffic")
	reads := append([]string{"traffic", "policies", "param", "flip", "model", "train"}, labReads[mode]...)
	if c.Bool("fig14") {
		mode, reads = "--fig14", labReads["--fig14"]
	} else if c.IsSet("train") {
		reads = append(reads, "runs")
	}
	if _, ok := labReads[mode]; !ok {
		return nil // an unknown traffic kind: labSequence names it
	}
	for _, f := range labFlags {
		if c.IsSet(f) && !slices.Contains(reads, f) {
			if mode == "--fig14" {
				return badInput(f, "is not read by --fig14 (it reads --%s)", strings.Join(reads, ", --"))
			}
			return badInput(f, "is not read with --traffic %s (it reads --%s)", mode, strings.Join(reads, ", --"))
		}
	}
	return nil
}

func labSequence(c *cli.Context, n int, b int64, rng *rand.Rand) (*bufferlab.Sequence, error) {
	slots, rounds := c.Int("slots"), c.Int("rounds")
	if rounds < 0 || rounds > 1<<22 {
		return nil, badInput("rounds", "%d: want 0..%d", rounds, 1<<22)
	}
	var seq *bufferlab.Sequence
	var err error
	field := "traffic"
	switch kind := c.String("traffic"); kind {
	case "bursts":
		load := c.Float64("load")
		if !(load > 0 && load <= 10) {
			return nil, badInput("load", "%v: want 0 < ρ ≤ 10", load)
		}
		seq, err = bufferlab.Bursts(n, int(b), slots, load*float64(n)/float64(b), rng)
	case "bernoulli":
		seq, err = bufferlab.Bernoulli(n, slots, c.Float64("load"), rng)
		field = "load"
	case "onoff":
		seq, err = bufferlab.OnOff(n, slots, c.Float64("on"), c.Float64("off"), rng)
		field = "on/off"
	case "cs":
		seq, err = bufferlab.CSAdversary(n, int(b), rounds)
	case "dt":
		seq, err = bufferlab.DTAdversary(n, int(b), rounds)
	case "followlqd":
		seq, err = bufferlab.FollowLQDAdversary(n, int(b), rounds)
	case "trace":
		path := c.String("trace")
		if path == "" {
			return nil, badInput("trace", "is required with --traffic trace")
		}
		f, ferr := os.Open(path)
		if ferr != nil {
			return nil, badInput("trace", "%v", ferr)
		}
		defer f.Close()
		seq, err = bufferlab.ReadTrace(f)
		field = "trace " + path
	default:
		return nil, badInput("traffic", "%q: want bursts, bernoulli, onoff, cs, dt, followlqd or trace", kind)
	}
	if err != nil {
		return nil, asInput(field, err)
	}
	return seq, nil
}

// trainLabModel trains a forest on --runs fresh sequences of the same
// traffic and scores it on the run's own sequence.
func trainLabModel(c *cli.Context, n int, b int64, rng *rand.Rand) (*tor.Forest, tor.Quality, error) {
	runs := c.Int("runs")
	if runs < 1 || runs > 1000 {
		return nil, tor.Quality{}, badInput("runs", "%d: want 1..1000", runs)
	}
	train := make([]*bufferlab.Sequence, runs)
	for i := range train {
		s, err := labSequence(c, n, b, rng)
		if err != nil {
			return nil, tor.Quality{}, err
		}
		train[i] = s
	}
	m, err := bufferlab.TrainOracle(train, b, rng)
	if err != nil {
		return nil, tor.Quality{}, err
	}
	test, err := labSequence(c, n, b, rng)
	if err != nil {
		return nil, tor.Quality{}, err
	}
	x, y, err := bufferlab.Traces([]*bufferlab.Sequence{test}, b)
	if err != nil {
		return nil, tor.Quality{}, err
	}
	return m, m.Evaluate(x, y), nil
}

// labParams parses --param POLICY.KEY=VALUE.
func labParams(list []string, policies []string) (map[string]map[string]float64, error) {
	out := map[string]map[string]float64{}
	for _, s := range list {
		key, val, ok := strings.Cut(s, "=")
		pol, name, ok2 := strings.Cut(key, ".")
		if !ok || !ok2 {
			return nil, badInput("param", "%q: want POLICY.KEY=VALUE", s)
		}
		if _, err := tor.LookupPolicy(pol); err != nil {
			return nil, asInput("param "+key, err)
		}
		v, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return nil, badInput("param "+key, "%q is not a number", val)
		}
		if out[pol] == nil {
			out[pol] = map[string]float64{}
		}
		out[pol][name] = v
	}
	for pol := range out {
		found := false
		for _, p := range policies {
			found = found || p == pol
		}
		if !found {
			return nil, badInput("param", "policy %s is not among --policies", pol)
		}
	}
	return out, nil
}

func runFig14(c *cli.Context, n int, b int64, format, plotPath, plotFormat string) error {
	var flips []float64
	for _, f := range strings.Split(c.String("flips"), ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(v >= 0 && v <= 1) {
			return badInput("flips", "%q: want probabilities", f)
		}
		flips = append(flips, v)
	}
	if r := c.Int("runs"); r < 1 || r > 1000 {
		return badInput("runs", "%d: want 1..1000", r)
	}
	var setups []bufferlab.Fig14Setup
	for _, name := range strings.Split(c.String("setups"), ",") {
		su, err := bufferlab.LookupFig14Setup(strings.TrimSpace(name))
		if err != nil {
			return asInput("setups", err)
		}
		setups = append(setups, su)
	}
	for _, flag := range []string{"ports", "buffer", "load"} {
		if c.IsSet(flag) && len(setups) > 1 {
			return badInput(flag, "changes one set-up: name it with --setups")
		}
	}
	if c.IsSet("ports") {
		setups[0].N = n
	}
	if c.IsSet("buffer") {
		setups[0].B = b
	}
	if c.IsSet("load") {
		setups[0].Load = c.Float64("load")
	}
	for i := range setups {
		if c.IsSet("slots") {
			setups[i].Slots = c.Int("slots")
		}
		if load := setups[i].Load; !(load > 0 && load <= 10) {
			return badInput("load", "%v: want 0 < ρ ≤ 10", load)
		}
	}
	type study struct {
		Setup  bufferlab.Fig14Setup   `json:"setup"`
		Result *bufferlab.Fig14Result `json:"result"`
		cfg    bufferlab.Fig14Config
	}
	studies := make([]study, len(setups))
	for i, su := range setups {
		cfg := su.Config(c.Int("runs"), flips, 0.5)
		// Each set-up draws from its own stream (the first keeps the
		// stream of a plain run), so its numbers do not depend on which
		// other set-ups run beside it.
		stream := uint64(0x6275666c6162) + uint64(slices.IndexFunc(bufferlab.Fig14Setups, func(x bufferlab.Fig14Setup) bool { return x.Name == su.Name }))
		var res *bufferlab.Fig14Result
		err := interruptible(c, "buffer-lab --fig14", func(context.Context) (err error) {
			if res, err = bufferlab.Fig14(cfg, rand.New(rand.NewPCG(c.Uint64("seed"), stream))); err != nil {
				return asInput("fig14", err)
			}
			return nil
		})
		if err != nil {
			return err
		}
		studies[i] = study{su, res, cfg}
	}
	outs := []outputFile{{c.String("output"), func(w io.Writer) error {
		switch format {
		case "json":
			return writeJSON(w, studies)
		case "csv":
			var cells [][]string
			for _, st := range studies {
				for _, p := range st.Result.Points {
					cells = append(cells, []string{st.Setup.Name, strconv.FormatFloat(p.Flip, 'g', -1, 64), strconv.FormatFloat(p.LQDOverCredence, 'g', -1, 64),
						strconv.FormatFloat(p.LQDOverDT, 'g', -1, 64), strconv.FormatFloat(p.OptOverLQD, 'g', -1, 64)})
				}
			}
			return stats.WriteCSV(w, []string{"setup", "flip", "lqd_over_credence", "lqd_over_dt", "opt_over_lqd"}, cells)
		}
		for i, st := range studies {
			if i > 0 {
				fmt.Fprintln(w)
			}
			if err := writeFig14Text(w, st.Setup, st.cfg, st.Result); err != nil {
				return err
			}
		}
		return nil
	}}}
	if plotPath != "" {
		series := make([]bufferlab.Fig14Series, len(studies))
		for i, st := range studies {
			series[i] = bufferlab.Fig14Series{Setup: st.Setup, Points: st.Result.Points}
		}
		outs = append(outs, outputFile{plotPath, func(w io.Writer) error {
			return bufferlab.PlotFig14(w, series, plotFormat)
		}})
	}
	return writeOutputs(c.App.Writer, outs...)
}

// writeFig14Text prints one set-up's study as a table.
func writeFig14Text(w io.Writer, su bufferlab.Fig14Setup, cfg bufferlab.Fig14Config, res *bufferlab.Fig14Result) error {
	pts := res.Points
	fmt.Fprintf(w, "%s: %s; B = %d packets, %d ports, load %g, %d slots × %d runs; OPT/LQD = %.4f\n",
		su.Name, su.What, cfg.B, cfg.N, su.Load, cfg.Slots, cfg.Runs, pts[0].OptOverLQD)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "flip p\tLQD/Credence\tLQD/DT\t")
	for _, p := range pts {
		fmt.Fprintf(tw, "%g\t%.4f\t%.4f\t\n", p.Flip, p.LQDOverCredence, p.LQDOverDT)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	q := res.Quality
	_, err := fmt.Fprintf(w, "Credence with a random forest (4 trees, depth 4) trained on LQD's traces of %d other sequences: LQD/Credence = %.4f\n"+
		"  the forest on the test sequences: accuracy %.3f, precision %.3f, recall %.3f\n",
		cfg.Runs, res.LQDOverForest, q.Accuracy(), q.Precision(), q.Recall())
	return err
}
