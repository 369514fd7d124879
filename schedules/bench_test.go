package schedules

import (
	"fmt"
	"testing"
)

func BenchmarkRotorNet(b *testing.B) {
	for _, u := range []int{4, 8} {
		b.Run(fmt.Sprintf("n=1024/U=%d", u), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := RotorNet(Params{Nodes: 1024, Uplinks: u}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkOpera(b *testing.B) {
	for _, n := range []int{256, 1024} {
		b.Run(fmt.Sprintf("n=%d/U=4", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Opera(Params{Nodes: n, Uplinks: 4, Seed: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
