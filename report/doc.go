// Package report writes self-contained HTML reports: inline SVG plots
// (gonum/plot's SVG backend), tables and the configuration, with no
// scripts, fonts or anything else loaded from elsewhere.
//
// Sweep reports a sweep's results (package sweep): the published values
// beside ours when given (Info.Published), each with the verdict its
// declared Tolerance gives (within band, same direction, differs, not
// run: colour and symbol) under the tally "k of n published values
// reproduced, m same direction only"; combined figures (Info.Combined),
// then each metric that varies across the points against each numeric
// axis — one line per combination of the other axes' values, the mean
// over replicates (the "seed" axis) with its 95 % confidence interval
// (stats.MeanCI, Student t) as error bars — the FCT and ToR buffer
// occupancy CDFs of simulate points (the first MaxCDFLines points; the
// FCT CDF over the measured flows, the unfinished ones censored at the
// run's end and counted in the legend), a table of the mean ± interval
// over seeds, and a table of every point whose cells are formatted
// exactly as rdcn collect's CSV. A line under each table and figure says
// what it aggregates. Metrics equal at every point appear in the tables
// only. Without a numeric axis the first axis is the x axis, by name.
//
// Run reports one rdcn simulate output directory (or one simulate point
// of a sweep): FCT by size bucket and, from flows.csv, FCT against flow
// size (at most MaxScatter flows, every k-th), utilisation and buffer
// occupancy over time, the occupancy CDF, drops, FCT by bucket with each
// bucket's unfinished flows, and the configuration.
//
// Each figure carries data-points, the number of finite points drawn,
// so a test (or a reader of the HTML) can tell an empty plot.
package report
