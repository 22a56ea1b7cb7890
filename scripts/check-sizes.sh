#!/usr/bin/env bash
# check-sizes.sh: no source file over 600 lines, no function over 150 lines.
#
# Scope: the git-tracked C++/CUDA sources (.cpp .hpp .cu .cuh .h) under src/,
# apps/, bench/ and tests/, less generated data, test vectors, node_modules and
# fuzz corpora (EXCLUDE below; none of them is C++ today, the list is there so
# that a generated table does not have to be split by hand).
#
# A function is found by matching braces on the text with comments, string and
# character literals and preprocessor lines blanked out: a `{` outside any
# function body (at namespace or class level) opens a function body when the
# text before it ends with `)` and optional qualifiers (const, noexcept,
# override, a trailing return type, ...), or with a constructor's initializer
# list. Everything up to the matching `}` belongs to that function: lambdas and
# local classes count as part of their enclosing function. A gtest `TEST(A, B)`
# body is a function named by its macro. Its length runs from the line of its
# name to the line of its closing brace.
#
# Output: one line per violation, `file:line: name: N lines (limit L)`, and a
# summary; exit status 1 on any violation, 2 when the scanner misreads the
# sample it checks itself on first. Usage: scripts/check-sizes.sh [-v | --list]
# (-v also lists the ten longest functions, --list every function and its
# length). Plain bash + python3, a second or two.
set -euo pipefail
cd "$(dirname "$0")/.."

MAX_FILE_LINES=600
MAX_FUNCTION_LINES=150
EXCLUDE='(^|/)(node_modules|corpus|testdata|vectors|generated)/'

read -r -d '' SCAN <<'PY' || true
import bisect, re, sys

max_file, max_fn, exclude, flag = int(sys.argv[1]), int(sys.argv[2]), re.compile(sys.argv[3]), sys.argv[4]
files = [f for f in sys.stdin.read().split("\0")
         if re.search(r"\.(cpp|hpp|cu|cuh|h)$", f) and not exclude.search(f)]

# Comments, literals and preprocessor lines, in the order a compiler sees them.
# Numbers are matched so that a digit separator (1'000) is not read as a quote.
LEXEME = re.compile(r"""
    (?P<line_comment>//[^\n]*)
  | (?P<block_comment>/\*.*?\*/)
  | (?P<raw>\b(?:u8|u|U|L)?R"(?P<delim>[^()\\\s]{0,16})\(.*?\)(?P=delim)")
  | (?P<string>(?:\b(?:u8|u|U|L))?"(?:[^"\\\n]|\\.)*")
  | (?P<number>(?<![\w.])\.?\d(?:[\w.']|[eEpP][+-])*)
  | (?P<char>(?:\b(?:u8|u|U|L))?'(?:[^'\\\n]|\\.)+')
  | (?P<preprocessor>^[ \t]*\#(?:[^\n\\]|\\.)*)
""", re.VERBOSE | re.DOTALL | re.MULTILINE)

def blank(m):
    kind, text = m.lastgroup, m.group(0)
    keep = "\n" * text.count("\n")
    if kind in ("raw", "string"):
        return '""' + keep
    if kind == "char":
        return "' '"
    if kind == "number":
        return text.replace("'", "")
    return " " + keep

QUALIFIER = re.compile(r"\s*\b(?:const|volatile|noexcept|override|final|mutable|try)\s*$|\s*&&?\s*$")
ATTRIBUTE_LIKE = {"noexcept", "__attribute__", "requires", "throw", "__launch_bounds__", "alignas", "__declspec"}
NAME = re.compile(r"((?:[\w<>~]+::)*(?:operator\s*(?:\(\)|\[\]|[^\w\s()]{1,3}|\w+)|~?\w+))\s*$")
SCOPE_KEYWORD = re.compile(r"\b(?:namespace|class|struct|union|enum)\b")

def strip_qualifiers(h):
    while True:
        m = QUALIFIER.search(h)
        if not m or m.start() == len(h):
            return h.rstrip()
        h = h[:m.start()]

def matching_open(h, close):
    depth = 0
    for i in range(close, -1, -1):
        if h[i] == ")":
            depth += 1
        elif h[i] == "(":
            depth -= 1
            if depth == 0:
                return i
    return -1

def function_name(h):
    """(name, offset of the name in h) for a head that ends with a parameter list, else None."""
    h = strip_qualifiers(h)
    while h.endswith(")"):
        open_ = matching_open(h, len(h) - 1)
        if open_ < 0:
            return None
        m = NAME.search(h[:open_])
        if not m:
            return None
        name = m.group(1)
        if name in ATTRIBUTE_LIKE:
            h = strip_qualifiers(h[:m.start(1)])
            continue
        if re.fullmatch(r"[A-Z][A-Z0-9_]*", name):  # TEST(Suite, Case) and friends
            name += re.sub(r"\s+", " ", h[open_:])[:80]
        return name, m.start(1)
    return None

def depth0_positions(h, pattern):
    depth = 0
    for m in re.finditer(r"[()]|" + pattern, h):
        t = m.group(0)
        if t == "(":
            depth += 1
        elif t == ")":
            depth -= 1
        elif depth == 0:
            yield m

def classify(h):
    """What a `{` outside function bodies opens, given the text since the last `;`, `{` or `}`:
    ('fn', name, offset) | ('scope',) | ('init',)."""
    s = h.rstrip()
    # A constructor with an initializer list: `X::X(int a) : a_(a), b_{2} {` (the name is before
    # the `:`). Its body's `{` follows a `)` or a `}`; one after a member's name is that member's.
    for m in depth0_positions(s, r"(?<!:):(?!:)"):
        found = function_name(s[:m.start()])
        if found:
            return ("fn",) + found if s.endswith((")", "}")) else ("init",)
    found = function_name(s)
    if found:
        return ("fn",) + found
    # A trailing return type: `auto f(int x) -> std::vector<int> {`.
    for m in reversed(list(depth0_positions(s, r"->"))):
        found = function_name(s[:m.start()])
        if found:
            return ("fn",) + found
    if s == "" or re.search(r'\bextern\s*""$', s):
        return ("scope",)
    if not s.endswith("=") and SCOPE_KEYWORD.search(s):
        return ("scope",)
    return ("init",)

violations, all_functions, warnings = [], [], []
for path in files:
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError as e:
        warnings.append(f"{path}: cannot read: {e}")
        continue
    n_lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    if n_lines > max_file:
        violations.append((path, 1, "file", n_lines, max_file))
    code = LEXEME.sub(blank, text)
    newlines = [m.start() for m in re.finditer("\n", code)]
    line_of = lambda pos: bisect.bisect_left(newlines, pos) + 1

    stack = []          # 'scope' | 'init' | 'fn' per open brace outside function bodies
    head_start = 0      # where the current declaration began (outside function bodies)
    paren = 0
    fn = None           # (name, start line, body depth) while inside a function body
    for m in re.finditer(r"[{}();]", code):
        c, pos = m.group(0), m.start()
        if fn is not None:
            if c == "{":
                fn[2] += 1
            elif c == "}":
                fn[2] -= 1
                if fn[2] == 0:
                    length = line_of(pos) - fn[1] + 1
                    all_functions.append((length, path, fn[1], fn[0]))
                    if length > max_fn:
                        violations.append((path, fn[1], fn[0], length, max_fn))
                    fn, head_start, paren = None, pos + 1, 0
            continue
        if c == "(":
            paren += 1
        elif c == ")":
            paren -= 1
        elif c == ";":
            if paren == 0 and (not stack or stack[-1] == "scope"):
                head_start = pos + 1
        elif c == "{":
            if paren > 0 or (stack and stack[-1] == "init"):
                stack.append("init")
                continue
            kind = classify(code[head_start:pos])
            if kind[0] == "fn":
                fn = [kind[1], line_of(head_start + kind[2]), 1]
            elif kind[0] == "scope":
                stack.append("scope")
                head_start = pos + 1
            else:
                stack.append("init")
        else:  # "}"
            if not stack:
                warnings.append(f"{path}:{line_of(pos)}: unmatched '}}' (preprocessor branches?)")
                continue
            if stack.pop() == "scope":
                head_start = pos + 1
    if fn is not None or stack:
        warnings.append(f"{path}: braces do not balance at the end of the file")

for w in warnings:
    print(f"sizes: warning: {w}", file=sys.stderr)
for path, line, name, n, limit in sorted(violations):
    what = "file" if name == "file" else name
    print(f"{path}:{line}: {what}: {n} lines (limit {limit})")
if flag == "--list":
    for length, path, line, name in sorted(all_functions, key=lambda f: (f[1], f[2])):
        print(f"{path}:{line}: {name}: {length}")
    sys.exit(0)
if flag == "-v":
    for length, path, line, name in sorted(all_functions, reverse=True)[:10]:
        print(f"  {length:4d}  {path}:{line}: {name}")
print(f"sizes: {len(files)} files, {len(all_functions)} functions checked, {len(violations)} violations "
      f"(limits: {max_file} lines a file, {max_fn} a function)")
sys.exit(1 if violations else 0)
PY

# First the scanner on a sample with braces in every place that must not
# count (comments, strings, raw strings, character literals, digit
# separators, macros, initializers), so that a broken scan fails here
# instead of passing everything.
sample=$(mktemp -d)
trap 'rm -rf "$sample"' EXIT
cat > "$sample/sample.cpp" <<'CPP'
// braces in comments { { {
#define OPEN_BRACE {
namespace a {
namespace {
const char* kText = "}{ \" }";
const char* kRaw = R"x( } { )x";
constexpr char kOpen = '{';
constexpr long kBig = 1'000'000;
int table[] = {1, 2, {3}};
}  // namespace

struct Point {
  int x{0}, y = {1};
  Point(int a) : x{a}, y(a) {
    x++;
  }
  int sum() const noexcept { return x + y; }
  bool operator()(int v) const {
    return v > 0;
  }
  auto twice() -> int {
    auto f = [this](int k) {
      return k * 2;
    };
    return f(x);
  }
};

enum class Color { red, green };

int Point_free(int v) {
  if (v) {
    return 1;
  }
  return 0;  /* } */
}

TEST(Suite, Case) {
  EXPECT_EQ('}', '}');
}

}  // namespace a
CPP
expected="S:14: Point: 3
S:17: sum: 1
S:18: operator(): 3
S:21: twice: 6
S:31: Point_free: 6
S:38: TEST(Suite, Case): 3"
got=$(printf '%s\0' "$sample/sample.cpp" |
  python3 -c "$SCAN" "$MAX_FILE_LINES" "$MAX_FUNCTION_LINES" "$EXCLUDE" --list | sed "s|^$sample/sample.cpp|S|")
if [[ "$got" != "$expected" ]]; then
  echo "sizes: the scanner misreads its sample; expected:" >&2
  echo "$expected" >&2
  echo "got:" >&2
  echo "$got" >&2
  exit 2
fi

git ls-files -z -- 'src/*' 'apps/*' 'bench/*' 'tests/*' |
  python3 -c "$SCAN" "$MAX_FILE_LINES" "$MAX_FUNCTION_LINES" "$EXCLUDE" "${1:-}"
