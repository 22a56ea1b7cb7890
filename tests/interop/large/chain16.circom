pragma circom 2.0.0;

// 2^15 rounds: 2^16 multiplication constraints, domain 2^17 in snarkjs (it
// adds one row per public signal).
include "chain_rounds.circom";

component main {public [seed]} = Chain(32768);
