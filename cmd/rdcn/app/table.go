package app

import (
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"
)

// checkFormat checks a --format value: every command writes text, json and
// csv (docs/model.md, command-line contract).
func checkFormat(format string) error {
	if format != "text" && format != "json" && format != "csv" {
		return badInput("format", "%q: want text, json or csv", format)
	}
	return nil
}

// outputFormat is --format of the commands that infer it from -o when it is
// not given (schedule, demand): json for FILE.json, csv for FILE.csv (any
// case), else text.
func outputFormat(c *cli.Context) (string, error) {
	format := c.String("format")
	if format == "" {
		format = "text"
		switch strings.ToLower(filepath.Ext(c.String("output"))) {
		case ".json":
			format = "json"
		case ".csv":
			format = "csv"
		}
	}
	return format, checkFormat(format)
}

// tableOptions checks the flags of the commands that print tables and can
// plot them: --format text|json|csv and --plot FILE.svg|png.
func tableOptions(c *cli.Context) (format, plotPath, plotFormat string, err error) {
	format = c.String("format")
	if err := checkFormat(format); err != nil {
		return "", "", "", err
	}
	plotPath = c.String("plot")
	if plotFormat, err = plotOption(plotPath); err != nil {
		return "", "", "", err
	}
	return format, plotPath, plotFormat, nil
}

// plotOption checks a --plot file name and returns its format, svg or png
// ("" for no plot).
func plotOption(plotPath string) (string, error) {
	plotFormat := strings.TrimPrefix(strings.ToLower(filepath.Ext(plotPath)), ".")
	if plotPath != "" && plotFormat != "svg" && plotFormat != "png" {
		return "", badInput("plot", "%q, want a .svg or .png file", plotPath)
	}
	return plotFormat, nil
}
