pragma circom 2.0.0;

// Many public inputs: 24 public values, a private weight per value, and the
// public weighted sum of squares.
template WeightedSquares(n) {
    signal input in[n];
    signal input w[n];
    signal output out;
    signal sq[n];
    signal term[n];
    var acc = 0;
    for (var i = 0; i < n; i++) {
        sq[i] <== in[i] * in[i];
        term[i] <== sq[i] * w[i];
        acc += term[i];
    }
    out <== acc;
}

component main {public [in]} = WeightedSquares(24);
