package operasim

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzRead: any input is read into a topology that passes Check and
// writes back to the same topology, or refused with an error naming a
// line, the topology or a slice; never a panic.
func FuzzRead(f *testing.F) {
	tp, err := FromSchedule(opera(f, 8, 4, 1), 0)
	if err != nil {
		f.Fatal(err)
	}
	var good bytes.Buffer
	if err := Write(&good, tp); err != nil {
		f.Fatal(err)
	}
	s := good.String()
	f.Add(s)
	f.Add(s + "\n")
	f.Add(s[:len(s)/2])
	f.Add(strings.Replace(s, "\n0\n", "\n1\n", 1))
	f.Add("32 4 4 8\n24 1 2 3")
	f.Add("32 4 4 8\n-3 1 2 3\n")
	f.Add("4 2 2 2\n3 1 0 0\n1 1 0 0\n1 1 0 0\n1 1 0 0\n0\n0 1 2\n1 0 2\n1\n0 1 2\n1 0 2\n2\n0 1 2\n1 0 2")
	f.Add("x")
	f.Fuzz(func(t *testing.T, in string) {
		tp, err := Read(strings.NewReader(in))
		if err != nil {
			if e, ok := err.(*Error); ok && e.Field == "" {
				t.Fatalf("error names nothing: %v", err)
			}
			return
		}
		if err := tp.Check(); err != nil {
			t.Fatalf("Read accepted a topology Check refuses: %v", err)
		}
		var out bytes.Buffer
		if err := Write(&out, tp); err != nil {
			t.Fatal(err)
		}
		back, err := Read(bytes.NewReader(out.Bytes()))
		if err != nil {
			t.Fatalf("rewritten file refused: %v", err)
		}
		var again bytes.Buffer
		if err := Write(&again, back); err != nil || !bytes.Equal(again.Bytes(), out.Bytes()) {
			t.Fatalf("write/read/write is not stable (%v)", err)
		}
	})
}
