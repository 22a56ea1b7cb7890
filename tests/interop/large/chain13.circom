pragma circom 2.0.0;

// 2^12 rounds: 2^13 multiplication constraints, domain 2^14 in snarkjs. Not
// a test: the small end of the snarkjs comparison (scripts/bench-vs-snarkjs.sh).
include "chain_rounds.circom";

component main {public [seed]} = Chain(4096);
