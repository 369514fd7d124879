// Package plotgrid writes a grid of gonum plots as one PNG or SVG image:
// the figures of buffer-lab, predict and the Mars experiment, which are
// files of their own rather than parts of an HTML report.
package plotgrid

import (
	"fmt"
	"image/color"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Write draws plots (rows of columns) aligned on tiles into an image of
// width × height and writes it to w as format, "png" (on white) or "svg".
func Write(w io.Writer, plots [][]*plot.Plot, tiles draw.Tiles, width, height vg.Length, format string) error {
	var dc draw.Canvas
	var out io.WriterTo
	switch format {
	case "svg":
		img := vgsvg.New(width, height)
		dc, out = draw.New(img), img
	case "png":
		img := vgimg.New(width, height)
		dc, out = draw.New(img), vgimg.PngCanvas{Canvas: img}
		dc.SetColor(color.White)
		dc.Fill(dc.Rectangle.Path())
	default:
		return fmt.Errorf("plot: format %q, want svg or png", format)
	}
	canvases := plot.Align(plots, tiles, dc)
	for i := range plots {
		for j, p := range plots[i] {
			p.Draw(canvases[i][j])
		}
	}
	_, err := out.WriteTo(w)
	return err
}
