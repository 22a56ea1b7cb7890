pragma circom 2.0.0;

// The interop chain circuit (../circuits/chain.circom) with a round count:
// 2·rounds multiplication constraints (compile with --O2, which folds the
// linear t[i] rows away). chain5k, chain13, chain15 and chain16.circom
// instantiate it.
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
