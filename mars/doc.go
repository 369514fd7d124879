// Package mars designs Mars schedules (Addanki, thesis §7.4): a periodic
// reconfigurable network whose emulated graph is a d-regular deBruijn
// digraph, with the degree d chosen between the static topology (d = U, the
// uplinks) and the complete graph (d = n) to maximise throughput under a
// delay requirement and a per-node buffer.
//
// The pieces, in the order a design uses them:
//
//   - ChooseDegree picks d from the delay requirement L (Theorem 18,
//     d = ⌊e^{−W₋₁(k)}⌋ with k = −2·ln(n)·Δ/(U·L), see DelayDegree and the
//     Lambert W functions LambertW0 and LambertWm1) and from the buffer B per
//     node (Theorem 19, d = ⌊B/(c·Δ)⌋, see BufferDegree), then rounds d down
//     to a multiple of U.
//   - DeBruijn is the generalised deBruijn digraph u → (u·d + a) mod n; it is
//     d-regular for every n and has diameter at most ⌈log_d n⌉.
//   - Schedule factorises that digraph into d perfect matchings, shuffles
//     them with the caller's seed and gives d/U to each of the U circuit
//     switches, so every switch cycles through a period of d/U slots.
//
// Under Valiant load balancing a worst-case permutation travels
// 2·log_d(n) hops on average (VLBRouteLength), so θ ≈ 1/(2·log_d n)
// (Theorem 17) and the average route delay is 2·log_d(n)·(d/U)·Δ
// (VLBDelay, Theorem 15); per node, Mars then needs c·d·Δ of buffer.
package mars
