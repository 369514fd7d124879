package fabric

import (
	"bytes"
	_ "embed"
	"fmt"
	"math/rand/v2"

	"github.com/rdcn/rdcn/tor"
)

// credenceDefault is the model rdcn ships for Credence's oracle (see
// docs/buffers.md for the command that trains it).
//
//go:embed testdata/credence/default.model
var credenceDefault []byte

// CredenceModel loads the forest in file (a model file of rdcn credence
// train), or the built-in one if file is empty: Credence's oracle for
// NamedPolicy.
func CredenceModel(file string) (*tor.Forest, error) {
	if file != "" {
		return tor.LoadForest(file)
	}
	m, err := tor.ReadForest(bytes.NewReader(credenceDefault))
	if err != nil {
		return nil, fmt.Errorf("built-in model: %v", err)
	}
	return m, nil
}

// CredenceTraces runs cfg with every switch under LQD and returns
// Credence's four features of every arrival at a switch, taken before
// LQD's decision, and LQD's verdict on it: true if LQD dropped it on
// arrival or pushed it out later (the training data of Credence's model,
// as the Credence paper trains on LQD's traces).
func CredenceTraces(cfg Config) (x []tor.Features, y []bool, r *Result, err error) {
	var entry []int32 // [packet index]: its trace entry at its current switch
	cfg.NewPolicy = func(int) tor.PolicyMaker {
		return func(c *tor.SwitchConfig) (tor.BufferPolicy, error) {
			p, err := tor.NewBufferPolicy("lqd", nil, tor.Env{Switch: c})
			if err != nil {
				return nil, err
			}
			p.(*tor.LQD).RecordFeatures(func(a *tor.Arrival, f *tor.Features) {
				for int(a.ID) >= len(entry) {
					entry = append(entry, -1)
				}
				entry[a.ID] = int32(len(x))
				x = append(x, *f)
				y = append(y, false)
			}, c.RTT)
			return p, nil
		}
	}
	cfg.switchDrop = func(idx int32) { y[entry[idx]] = true }
	r, err = Run(cfg)
	return x, y, r, err
}

// TrainCredence trains Credence's model (tor.TrainForest: 4 trees of
// depth 4) on the LQD traces of cfg's run; seed seeds the bootstrap and
// the feature choice. Same cfg and seed, same model.
func TrainCredence(cfg Config, seed uint64) (*tor.Forest, tor.Quality, error) {
	x, y, _, err := CredenceTraces(cfg)
	if err != nil {
		return nil, tor.Quality{}, err
	}
	m, err := tor.TrainForest(x, y, tor.TrainConfig{}, rand.New(rand.NewPCG(seed, 0xc4ed)))
	if err != nil {
		return nil, tor.Quality{}, err
	}
	return m, m.Evaluate(x, y), nil
}
