// Package bufferlab is the discrete-time shared-memory switch of the
// buffer-sharing theory.
package bufferlab
