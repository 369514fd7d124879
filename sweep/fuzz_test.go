package sweep

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/rdcn/rdcn/internal/limits"
)

// FuzzSweepHugeValues parses specs of the analysis kinds with huge and
// odd values and checks each point as a run would before it builds
// anything (Check): no panic, a refusal is one line, and every point it
// lets through has ToRs, uplinks and a tradeoff degree within
// limits.MaxTors (issue 25, defect 1: 10⁵ ToRs allocated 80 GB, 10⁹
// panicked in makeslice). Nothing is run.
func FuzzSweepHugeValues(f *testing.F) {
	f.Add("kind=\"throughput\"\n[base]\n\"schedule.kind\"=\"rotornet\"\n\"topology.uplinks\"=2\n[axes]\n\"topology.tors\"=[100000, 9000]\n")
	f.Add("kind=\"throughput\"\n[axes]\n\"topology.tors\"=[1000000000, 8192, 8193, -1, 0, 1]\n")
	f.Add("kind=\"throughput\"\n[axes]\n\"topology.uplinks\"=[9223372036854775807, 1e300, \"1e400\"]\n")
	f.Add("kind=\"tradeoff\"\n[axes]\n\"tradeoff.degree\"=[1000000000, 4]\n\"topology.tors\"=[16, 8192]\n")
	f.Add("kind=\"tradeoff\"\n[base]\n\"schedule.slot\"=\"1000000s\"\n\"tradeoff.buffer\"=\"1e30B\"\n[axes]\n\"topology.tors\"=[16]\n")
	f.Add("kind=\"predict\"\n[axes]\n\"predict.samples\"=[100000000, 3]\n\"topology.tors\"=[8, 100000]\n")
	f.Add("kind=\"predict\"\n[base]\n\"predict.gamma\"=1e308\n\"predict.factor\"=-1e308\n[axes]\nseed=[1, 18446744073709551615]\n")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := Parse(strings.NewReader(text))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		kind, _ := LookupKind(s.Kind)
		check, ok := kind.(interface{ Check([][2]string) error })
		if !ok || s.Size() > 64 {
			return
		}
		for _, p := range s.Points() {
			err := check.Check(p.Config)
			if err != nil {
				var se *Error
				if strings.Contains(err.Error(), "\n") || (errors.As(err, &se) && kind.CheckKey(se.Field) != nil) {
					t.Fatalf("point %s: %q: not one line naming a key", p.Name, err)
				}
				continue
			}
			for _, key := range []string{"topology.tors", "topology.uplinks", "tradeoff.degree"} {
				v, set := "", false
				for _, kv := range p.Config {
					if kv[0] == key {
						v, set = kv[1], true
					}
				}
				if !set || v == "" {
					continue
				}
				if n, err := strconv.Atoi(v); err != nil || n > limits.MaxTors || n < 1 {
					t.Fatalf("point %s: %s = %q passed the checks", p.Name, key, v)
				}
			}
		}
	})
}
