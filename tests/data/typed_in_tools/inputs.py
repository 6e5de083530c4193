# Keystroke inputs. Tokens <Right> <Left> <Up> <Down> <Space> <Backspace> are key presses;
# everything else is typed character by character (a literal space is a typed space).
# "intended" is what the learner meant, in plain text.

INPUTS = [
    # ---------------- ex6.2 ----------------
    ("ex6.2", "a01", r"(e^2<Right>+11)/(e^2<Right>+2)", "(e^2 + 11) / (e^2 + 2)"),
    ("ex6.2", "a02", r"(e^2<Right>+11)/(e^2<Right>+2)<Right>", "(e^2 + 11) / (e^2 + 2)"),
    ("ex6.2", "a03", r"(e^2+11)/(e^2+2)", "(e^2 + 11) / (e^2 + 2)"),
    ("ex6.2", "a04", r"e^2<Right>+11/e^2<Right>+2", "(e^2 + 11) / (e^2 + 2)"),
    ("ex6.2", "a05", r"/e^2<Right>+11<Down>e^2<Right>+2", "(e^2 + 11) / (e^2 + 2)"),
    ("ex6.2", "a06", r"(e^2<Right>+11)/e^2<Right>+2", "(e^2 + 11) / (e^2 + 2)"),
    ("ex6.2", "a07", r"(e^{2}+11)/(e^{2}+2)", "(e^2 + 11) / (e^2 + 2)"),
    ("ex6.2", "a08", r"(e*e+11)/(e*e+2)", "(e*e + 11) / (e*e + 2)"),
    ("ex6.2", "a09", r"(exp(2)+11)/(exp(2)+2)", "(exp(2) + 11) / (exp(2) + 2)"),
    ("ex6.2", "a10", r"exp(2)", "exp(2)"),
    ("ex6.2", "a11", r"sqrt3.836", "sqrt(3.836)"),
    ("ex6.2", "a12", r"sqrt3.836<Right>", "sqrt(3.836)"),
    ("ex6.2", "a13", r"sqrt(3.836)", "sqrt(3.836)"),
    ("ex6.2", "a14", r"1.96", "1.96"),
    ("ex6.2", "a15", r"1.9586", "1.9586"),
    ("ex6.2", "a16", r"2.1", "2.1"),
    ("ex6.2", "a17", r"1.8", "1.8"),
    ("ex6.2", "a18", r"1,96", "1.96 (decimal comma)"),
    ("ex6.2", "a19", r"1+9/(e^2<Right>+2)", "1 + 9 / (e^2 + 2)"),
    ("ex6.2", "a20", r"1+9/e^2<Right>+2", "1 + 9 / (e^2 + 2)"),
    ("ex6.2", "a21", r"(e^2<Right>+1)/(e^2<Right>+2)", "(e^2 + 1) / (e^2 + 2)"),
    ("ex6.2", "a22", r"(e^2<Right>+11)/(e^2<Right>+1)", "(e^2 + 11) / (e^2 + 1)"),
    ("ex6.2", "a23", r"e^2<Right>/(e^2<Right>+2)", "e^2 / (e^2 + 2)"),
    ("ex6.2", "a24", r"e^2/(e^2<Right>+2)", "e^2 / (e^2 + 2)"),
    ("ex6.2", "a25", r"49/25", "49/25"),
    ("ex6.2", "a26", r"49/25<Right>", "49/25"),
    ("ex6.2", "a27", r"2-0.04", "2 - 0.04"),
    # ---------------- ex6.5 ----------------
    ("ex6.5", "b01", r"N>8192", "N > 8192"),
    ("ex6.5", "b02", r"N>=8193", "N >= 8193"),
    ("ex6.5", "b03", r"N>2^13", "N > 2^13"),
    ("ex6.5", "b04", r"N>2^13<Right>", "N > 2^13"),
    ("ex6.5", "b05", r"N>2*4096", "N > 2*4096"),
    ("ex6.5", "b06", r"N>4096", "N > 4096"),
    ("ex6.5", "b07", r"N>=8192", "N >= 8192"),
    ("ex6.5", "b08", r"8192<N", "8192 < N"),
    ("ex6.5", "b09", r"N\ge 8193", "N >= 8193"),
    ("ex6.5", "b10", r"N\ge<Space>8193", "N >= 8193"),
    ("ex6.5", "b11", r"N\geq 8193", "N >= 8193"),
    ("ex6.5", "b12", r"N>8 192", "N > 8192 (space as thousands separator)"),
    ("ex6.5", "b13", r"N>8,192", "N > 8192 (comma as thousands separator)"),
    ("ex6.5", "b14", r"8193<=N", "8193 <= N"),
    ("ex6.5", "b15", r"N>=2^13<Right>+1", "N >= 2^13 + 1"),
    ("ex6.5", "b16", "N\u22658193", "N >= 8193 (typed the Unicode character \u2265)"),
    # ---------------- ex6.4 ----------------
    (
        "ex6.4",
        "c01",
        r"[[0,-\infty ,-\infty ],[0,0,-\infty ],[0,0,0]]",
        "matrix rows [0,-inf,-inf], [0,0,-inf], [0,0,0]",
    ),
    (
        "ex6.4",
        "c02",
        r"[[0,-\infty,-\infty],[0,0,-\infty],[0,0,0]]",
        "matrix rows [0,-inf,-inf], [0,0,-inf], [0,0,0]",
    ),
    ("ex6.4", "c03", r"[[0,-inf,-inf],[0,0,-inf],[0,0,0]]", "matrix rows [0,-inf,-inf], [0,0,-inf], [0,0,0]"),
    (
        "ex6.4",
        "c04",
        r"\begin{pmatrix}0&-\infty &-\infty \\0&0&-\infty \\0&0&0\end{pmatrix}",
        "matrix rows [0,-inf,-inf], [0,0,-inf], [0,0,0]",
    ),
    # ---------------- ex6.6 ----------------
    ("ex6.6", "d01", r"1/N<Right>sum_j=1<Right>^N<Right>v_j", "(1/N) * sum_{j=1}^{N} v_j"),
    ("ex6.6", "d02", r"sum_j=1<Right>^N<Right>v_j<Right>/N", "(sum_{j=1}^{N} v_j) / N"),
    ("ex6.6", "d03", r"1/N-1<Right>sum_j=1<Right>^N<Right>v_j", "(1/(N-1)) * sum_{j=1}^{N} v_j"),
    ("ex6.6", "d04", r"1/N<Right>sumj=1<Up>N<Right>v_j", "(1/N) * sum_{j=1}^{N} v_j"),
    ("ex6.6", "d05", r"1/N<Right>\sum_j=1<Right>^N<Right>v_j", "(1/N) * sum_{j=1}^{N} v_j"),
    ("ex6.6", "d06", r"(v_1<Right>+v_2<Right>+...+v_N<Right>)/N", "(v_1 + v_2 + ... + v_N) / N"),
    ("ex6.6", "d07", r"(sum_j=1<Right>^N<Right>v_j<Right>)/N", "(sum_{j=1}^{N} v_j) / N"),
]

# Not keystrokes: LaTeX handed to the API (MathQuill mathField.write / MathLive mf.value).
WRITES = [
    (
        "ex6.4",
        "c90",
        r"\begin{pmatrix}0&-\infty&-\infty\\0&0&-\infty\\0&0&0\end{pmatrix}",
        "matrix rows [0,-inf,-inf], [0,0,-inf], [0,0,0]",
    ),
]
