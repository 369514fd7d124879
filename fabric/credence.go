package fabric

import (
	"bytes"
	_ "embed"
	"fmt"

	"github.com/rdcn/rdcn/tor"
)

// credenceDefault is the model rdcn ships for Credence's oracle (see
// docs/buffers.md for the command that trains it).
//
//go:embed testdata/credence/default.model
var credenceDefault []byte

// credenceModel loads the forest in file, or the built-in one if file is
// empty.
func credenceModel(file string) (*tor.Forest, error) {
	if file != "" {
		return tor.LoadForest(file)
	}
	m, err := tor.ReadForest(bytes.NewReader(credenceDefault))
	if err != nil {
		return nil, fmt.Errorf("built-in model: %v", err)
	}
	return m, nil
}
