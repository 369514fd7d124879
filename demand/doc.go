// Package demand holds traffic demand matrices: their text and CSV formats,
// pattern generators, hose-model normalisation, prediction noise and
// Sinkhorn–Knopp balancing.
package demand
