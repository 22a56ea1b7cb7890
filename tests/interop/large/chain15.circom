pragma circom 2.0.0;

// 2^14 rounds: 2^15 multiplication constraints, domain 2^16 in snarkjs. Not
// a test: the middle of the snarkjs comparison (scripts/bench-vs-snarkjs.sh).
include "chain_rounds.circom";

component main {public [seed]} = Chain(16384);
