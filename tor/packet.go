package tor

import "github.com/rdcn/rdcn/packet"

// The packet types a switch handles live in package packet; these names
// let buffer policies written against package tor read naturally.
type (
	Packet   = packet.Packet
	Pool     = packet.Pool
	IntHop   = packet.IntHop
	IntStore = packet.IntStore
)
