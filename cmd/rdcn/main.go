// Command rdcn designs, analyses and emulates reconfigurable datacenter
// network schedules: see package app (its doc lists the commands) and run
// "rdcn --help".
package main

import (
	"os"

	"github.com/rdcn/rdcn/cmd/rdcn/app"
)

func main() { os.Exit(app.Main(os.Args)) }
