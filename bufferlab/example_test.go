package bufferlab_test

import (
	"fmt"

	"github.com/rdcn/rdcn/bufferlab"
)

// Complete Sharing on its adversarial sequence: port 0 fills the buffer,
// then every slot brings one packet to each port, port 0's first. CS keeps
// sending one packet a slot; the optimum sends four.
func Example() {
	seq, _ := bufferlab.CSAdversary(4, 8, 100)
	rows, _ := bufferlab.Compare(seq, 8, []string{"cs", "dt", "lqd"}, nil, nil, nil)
	for _, r := range rows {
		fmt.Printf("%s sends %d of OPT's %d (OPT/ALG %.2f)\n", r.Policy, r.Transmitted, r.Opt, r.Ratio)
	}
	// Output:
	// cs sends 110 of OPT's 407 (OPT/ALG 3.70)
	// dt sends 405 of OPT's 407 (OPT/ALG 1.00)
	// lqd sends 407 of OPT's 407 (OPT/ALG 1.00)
}
