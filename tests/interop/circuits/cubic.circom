pragma circom 2.0.0;

// x^3 + x + 5 == out: the classic toy circuit, one public output.
template Cubic() {
    signal input x;
    signal output out;
    signal x2;
    signal x3;
    x2 <== x * x;
    x3 <== x2 * x;
    out <== x3 + x + 5;
}

component main = Cubic();
