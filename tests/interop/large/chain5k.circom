pragma circom 2.0.0;

// 2,500 rounds: 5,000 multiplication constraints, domain 2^13 in snarkjs.
// Not a test: the bottom of the 5k-70k range in the snarkjs
// comparison (scripts/bench-vs-snarkjs.sh chain5k).
// ptau power: 13
include "chain_rounds.circom";

component main {public [seed]} = Chain(2500);
