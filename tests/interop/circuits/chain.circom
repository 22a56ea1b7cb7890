pragma circom 2.0.0;

// A deep private chain (MiMC-like rounds x <- (x + k_i)^3 with fixed round
// constants), public seed and result: ~2 constraints per round.
template Chain(rounds) {
    signal input seed;
    signal input key;
    signal output out;
    signal t[rounds];
    signal sq[rounds];
    signal x[rounds + 1];
    x[0] <== seed;
    for (var i = 0; i < rounds; i++) {
        t[i] <== x[i] + key + i * 7919;
        sq[i] <== t[i] * t[i];
        x[i + 1] <== sq[i] * t[i];
    }
    out <== x[rounds];
}

component main {public [seed]} = Chain(60);
