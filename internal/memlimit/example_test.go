package memlimit_test

import (
	"fmt"
	"strings"

	"github.com/rdcn/rdcn/internal/memlimit"
)

func ExampleParseMeminfo() {
	b, err := memlimit.ParseMeminfo(strings.NewReader("MemTotal: 2048 kB\nMemAvailable: 1024 kB\n"))
	fmt.Println(b, err)
	// Output: 1048576 <nil>
}
