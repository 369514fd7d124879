// Package testsched builds the small hand-made rotor schedules that tests
// of several packages share, so a test's reasoning about which circuit is
// up when rests on one definition.
//
//   - Cyclic is a RotorNet-style rotor: every ToR pair meets once a period.
//   - DarkCircuit is four ToRs where the circuit 0 → 1 goes dark for most
//     of the period while another path to 1 always stays up.
//
// Both return the schedule after rotor.Schedule.Validate, or its error.
package testsched
