package main

import (
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"
)

// tableOptions checks the flags of the commands that print tables and can
// plot them: --format text|json|csv and --plot FILE.svg|png.
func tableOptions(c *cli.Context) (format, plotPath, plotFormat string, err error) {
	format = c.String("format")
	if format != "text" && format != "json" && format != "csv" {
		return "", "", "", badInput("format", "%q, want text, json or csv", format)
	}
	plotPath = c.String("plot")
	plotFormat = strings.TrimPrefix(strings.ToLower(filepath.Ext(plotPath)), ".")
	if plotPath != "" && plotFormat != "svg" && plotFormat != "png" {
		return "", "", "", badInput("plot", "%q, want a .svg or .png file", plotPath)
	}
	return format, plotPath, plotFormat, nil
}
