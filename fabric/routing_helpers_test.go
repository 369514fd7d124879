package fabric

import "github.com/rdcn/rdcn/routing"

// flowHash is the paths tables' multipath hash, as the tests here name it.
var flowHash = routing.FlowHash
