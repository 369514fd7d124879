package plotgrid_test

import (
	"bytes"
	"fmt"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/rdcn/rdcn/internal/plotgrid"
)

// Two empty panels side by side, as SVG.
func ExampleWrite() {
	a, b := plot.New(), plot.New()
	a.Title.Text, b.Title.Text = "left", "right"
	var out bytes.Buffer
	err := plotgrid.Write(&out, [][]*plot.Plot{{a, b}}, draw.Tiles{Rows: 1, Cols: 2}, 6*vg.Inch, 3*vg.Inch, "svg")
	fmt.Println(err, strings.Contains(out.String(), "<svg"), strings.Contains(out.String(), ">right<"))
	fmt.Println(plotgrid.Write(&out, nil, draw.Tiles{}, vg.Inch, vg.Inch, "gif"))
	// Output:
	// <nil> true true
	// plot: format "gif", want svg or png
}
