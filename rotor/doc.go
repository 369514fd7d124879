// Package rotor models periodic circuit schedules of reconfigurable datacenter
// networks and the physical units (picoseconds, bits per second, bytes) that
// the rest of rdcn uses.
package rotor
