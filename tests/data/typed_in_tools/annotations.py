# ruff: noqa: E501  (tables of LaTeX as the tools wrote it, kept whole)
# Hand-made readings of the LaTeX that the editors produced (reviewed against
# raw_mathquill.json / raw_mathlive.json). run.py applies them; any LaTeX not listed
# here is marked UNREVIEWED instead of guessed.

# (input id, LaTeX) pairs whose LaTeX denotes what the learner meant.
MATCHES = {
    # ----- MathQuill (both configs unless noted) -----
    ("a01", r"\frac{\left(e^2+11\right)}{\left(e^2+2\right)}"),
    ("a02", r"\frac{\left(e^2+11\right)}{\left(e^2+2\right)}"),
    ("a05", r"\frac{e^2+11}{e^2+2}"),
    ("a06", r"\frac{\left(e^2+11\right)}{e^2+2}"),
    ("a08", r"\frac{\left(e\cdot e+11\right)}{\left(e\cdot e+2\right)}"),
    ("a09", r"\frac{\left(\exp\left(2\right)+11\right)}{\left(\exp\left(2\right)+2\right)}"),
    ("a10", r"\exp\left(2\right)"),
    ("a11", r"\sqrt{3.836}"),
    ("a12", r"\sqrt{3.836}"),
    ("a13", r"\sqrt{\left(3.836\right)}"),
    ("a14", "1.96"),
    ("a15", "1.9586"),
    ("a16", "2.1"),
    ("a17", "1.8"),
    ("a19", r"1+\frac{9}{\left(e^2+2\right)}"),
    ("a20", r"1+\frac{9}{e^2+2}"),
    ("a21", r"\frac{\left(e^2+1\right)}{\left(e^2+2\right)}"),
    ("a22", r"\frac{\left(e^2+11\right)}{\left(e^2+1\right)}"),
    ("a23", r"\frac{e^2}{\left(e^2+2\right)}"),
    ("a25", r"\frac{49}{25}"),
    ("a26", r"\frac{49}{25}"),
    ("a27", "2-0.04"),
    ("b01", "N>8192"),
    ("b02", r"N\ge8193"),
    ("b03", r"N>2^{13}"),
    ("b04", r"N>2^{13}"),
    ("b05", r"N>2\cdot4096"),
    ("b06", "N>4096"),
    ("b07", r"N\ge8192"),
    ("b08", "8192<N"),
    ("b09", r"N\ge\ 8193"),
    ("b09", r"N\ge8193"),
    ("b10", r"N\ge8193"),
    ("b11", r"N\ge\ 8193"),
    ("b11", r"N\geq8193"),
    ("b14", r"8193\le N"),
    ("b15", r"N\ge2^{13}+1"),
    ("b16", r"N\ge8193"),
    ("c01", r"\left[\left[0,-\infty\ ,-\infty\ \right],\left[0,0,-\infty\ \right],\left[0,0,0\right]\right]"),
    ("c02", r"\left[\left[0,-\infty,-\infty\right],\left[0,0,-\infty\right],\left[0,0,0\right]\right]"),
    ("d04", r"\frac{1}{N}\sum_{j=1}^Nv_j"),
    ("d06", r"\frac{\left(v_1+v_2+...+v_N\right)}{N}"),
    # ----- MathLive only -----
    ("a03", r"\frac{\left(e^2+11\right)}{\left(e^2+2\right)}"),
    ("a24", r"\frac{e^2}{\left(e^2+2\right)}"),
    ("b12", "N>8192"),
    (
        "c01",
        r"\left\lbrack\left\lbrack0,-\infty,-\infty\right\rbrack,\left\lbrack0,0,-\infty\right\rbrack,\left\lbrack0,0,0\right\rbrack\right\rbrack",
    ),
    ("d06", r"\frac{\left(v_1+v_2+\cdots+v_{N}\right)}{N}"),
    ("c90", r"\begin{pmatrix}0&-\infty&-\infty\\0&0&-\infty\\0&0&0\end{pmatrix}"),
}

# (input id, LaTeX) whose reading genuinely depends on a notation convention.
AMBIGUOUS = {
    ("a18", "1,96"): "1,96: the digits 1 and 96 separated by a comma. Read as the list/pair (1, 96) in "
    "standard notation, or as 1.96 where a decimal comma is used.",
    ("b12", r"N>8\ 192"): r"N > 8\ 192: 8 and 192 separated by a control space (\ ). Read as N > 8192 with a "
    "thousands space, or as N > 8 192 with an implied product 8*192.",
    ("b13", "N>8,192"): "N > 8,192: read as N > 8192 with a thousands comma, or as 'N > 8' followed by a "
    "separate list item 192.",
}

# What a LaTeX string that is NOT what the learner meant denotes mathematically.
DENOTES = {
    # ----- MathQuill -----
    r"\left(e^{\frac{\left(2+11\right)}{\left(e^{\left(2+2\right)}\right)}}\right)": "( e^( (2+11) / (e^(2+2)) ) ), i.e. e raised to 13/e^4: everything after the first "
    "'^' stayed inside that exponent.",
    r"e^2+\frac{11}{e^2+2}": "e^2 + 11/(e^2 + 2)",
    r"\left(e^{\frac{\left(\left\{2\right\}+11\right)}{\left(e^{\left(\left\{2\right\}+2\right)}\right)}}\right)": "( e^( ({2}+11) / (e^({2}+2)) ) ): e raised to a fraction; the typed { } became "
    r"visible set braces \left\{2\right\} around 2 (not TeX grouping), and everything after "
    "the first '^' stayed inside that exponent.",
    "sqrt3.836": "s*q*r*t*3.836: the product of the variables s, q, r, t and 3.836.",
    r"sqrt\left(3.836\right)": "s*q*r*t*(3.836): the product of the variables s, q, r, t and (3.836).",
    r"e^{\frac{2}{\left(e^2+2\right)}}": "e^( 2/(e^2 + 2) )",
    r"\left[\left[0,-\inf,-\inf\right],\left[0,0,-\inf\right],\left[0,0,0\right]\right]": r"Nested list [[0, -inf, -inf], [0, 0, -inf], [0, 0, 0]] whose 'inf' entries are the "
    r"infimum operator \inf (with no argument), not infinity.",
    r"\left[\left[0,-inf,-inf\right],\left[0,0,-inf\right],\left[0,0,0\right]\right]": "Nested list [[0, -i*n*f, -i*n*f], [0, 0, -i*n*f], [0, 0, 0]]: 'inf' is the product "
    "of the variables i, n, f, not infinity.",
    r"\text{begin}\left\{pmatrix\right\}0\&-\infty\ \&-\infty\ \ 0\&0\&-\infty\ \ 0\&0\&0\text{end}\left\{pmatrix\right\}": "Not a matrix: the text word 'begin', a set-brace group {p*m*a*t*r*i*x}, then "
    "0 & -inf & -inf 0 & 0 & -inf 0 & 0 & 0 with literal ampersand symbols and control "
    "spaces (each typed '\\\\' became spaces), then the text word 'end' and {p*m*a*t*r*i*x}.",
    "": "Empty: MathQuill 0.10.1 has no matrix/environment support, and write() of the "
    r"\begin{pmatrix}...\end{pmatrix} LaTeX inserted nothing (no error was raised).",
    r"\frac{1}{N}sum_{j=1}^Nv_j": "(1/N) * s * u * m_{j=1}^{N} * v_j: the product of the variables s, u, m (m carrying "
    "subscript j=1 and superscript N) and v_j. No summation.",
    r"\frac{1}{N}\sum_{_{j=1}^Nv_j}^{ }": "(1/N) times a summation sign with an empty upper limit and no summand; its lower limit "
    "holds '_{j=1}^{N} v_j' (a subscript/superscript with no base, then v_j).",
    r"\frac{sum_{j=1}^Nv_j}{N}": "(s * u * m_{j=1}^{N} * v_j) / N: the product of the variables s, u, m (m carrying "
    "subscript j=1 and superscript N) and v_j, divided by N. No summation.",
    r"\sum_{\frac{_{j=1}^Nv_j}{N}}^{ }": "A summation sign with an empty upper limit and no summand; its lower limit holds the "
    "fraction (_{j=1}^{N} v_j) / N.",
    r"\frac{1}{N-1}sum_{j=1}^Nv_j": "(1/(N-1)) * s * u * m_{j=1}^{N} * v_j: the product of the variables s, u, m and v_j. "
    "No summation.",
    r"\frac{1}{N-1}\sum_{_{j=1}^Nv_j}^{ }": "(1/(N-1)) times a summation sign with an empty upper limit and no summand; its lower "
    "limit holds '_{j=1}^{N} v_j'.",
    r"\frac{1}{N}sumj=1Nv_j": "The equation (1/N) * s * u * m * j = 1 * N * v_j (letters as variables). No summation.",
    r"\frac{\left(sum_{j=1}^Nv_j\right)}{N}": "(s * u * m_{j=1}^{N} * v_j) / N: the product of the variables s, u, m and v_j, "
    "divided by N. No summation.",
    r"\left(\sum_{\frac{\left(_{j=1}^Nv_j\right)}{N}}^{ }\right)": "A parenthesized summation sign with an empty upper limit and no summand; its lower "
    "limit holds the fraction (_{j=1}^{N} v_j) / N.",
    # ----- MathLive -----
    r"\frac{\left(e^2+11\right)}{\left(e^2\right)}": "(e^2 + 11) / (e^2)",
    r"\frac{\left(e^2+1\right)}{\left(e^2\right)}": "(e^2 + 1) / (e^2)",
    r"e^2+\frac{11}{e^2}+2": "e^2 + 11/e^2 + 2",
    r"\frac{e^2}{+11e^2}+2": "e^2 / (+11 * e^2) + 2",
    r"\frac{\left(e^2+11\right)}{e^2}+2": "(e^2 + 11)/e^2 + 2",
    r"\frac{\left(e^{\left\lbrace2\right\rbrace+11}\right)}{\left(e^{\left\lbrace2\right\rbrace+2}\right)}": "( e^({2} + 11) ) / ( e^({2} + 2) ): the typed { } became visible braces "
    r"\left\lbrace 2 \right\rbrace, and '+11' / '+2' stayed inside the exponents.",
    r"1+\frac{9}{\left(e^2\right)}": "1 + 9/(e^2)",
    r"1+\frac{9}{e^2}+2": "1 + 9/e^2 + 2",
    r"\frac{e^2}{\left(e^2\right)}": "e^2 / (e^2)",
    "N>2^13": "N > 2^1 3: TeX reads 2^13 as 2 to the power 1 followed by 3 (i.e. 2^1 * 3 = 6), not 2^13.",
    r"N\ge2^13+1": "N >= 2^1 3 + 1: TeX reads 2^13 as 2 to the power 1 followed by 3 (i.e. 2^1 * 3 + 1 = 7).",
    r"\left\lbrack\left\lbrack0,-\right\rbrack\right\rbrack": "[[0, -]]: an incomplete expression (the rest of the input is not in the value).",
    r"\left\lbrack\left\lbrack0,-inf,-inf\right\rbrack,\left\lbrack0,0,-inf\right\rbrack,\left\lbrack0,0,0\right\rbrack\right\rbrack": "Nested list [[0, -i*n*f, -i*n*f], [0, 0, -i*n*f], [0, 0, 0]]: 'inf' is the product "
    "of the variables i, n, f, not infinity.",
    r"\begin{pmatrix}0 & -\infty\end{pmatrix}\&-\infty\\0\&0\&-\infty": "A 1x2 matrix (0, -inf) followed by a literal '&', -inf, a line break, and "
    "0 & 0 & -inf with literal ampersands; the last row and \\end{pmatrix} are not in the value.",
    r"\frac{1}{N}\sum_{_{j=1}^{N}v_{j}}^{\placeholder{}}": "(1/N) times a summation sign with an empty placeholder as upper limit and no summand; "
    "its lower limit holds '_{j=1}^{N} v_j' (a subscript/superscript with no base, then v_j).",
    r"\sum_{\frac{_{j=1}^{N}v_{j}}{N}}^{\placeholder{}}": "A summation sign with an empty placeholder as upper limit and no summand; its lower "
    "limit holds the fraction (_{j=1}^{N} v_j) / N.",
    r"\frac{1}{N-1}\sum_{_{j=1}^{N}v_{j}}^{\placeholder{}}": "(1/(N-1)) times a summation sign with an empty placeholder as upper limit and no "
    "summand; its lower limit holds '_{j=1}^{N} v_j'.",
    r"\frac{1}{N}\sum_{j=1N}^{v_{j}}": "(1/N) times a summation sign with lower limit j = 1N (1*N), upper limit v_j, and no summand.",
    r"\frac{1}{N}\sum_{j}=1^{N}v_{j}": "The equation (1/N) * (summation sign over j, with no summand) = 1^N * v_j.",
    r"\frac{\left(\sum_{_{j=1}^{N}v_{j}}^{\placeholder{}}\right)}{N}": "( summation sign with an empty placeholder as upper limit and no summand, whose lower "
    "limit holds '_{j=1}^{N} v_j' ) / N.",
}

# Specific notes for a mismatch: key (id, LaTeX).
NOTES = {
    (
        "a03",
        r"\left(e^{\frac{\left(2+11\right)}{\left(e^{\left(2+2\right)}\right)}}\right)",
    ): "The learner never pressed Right after '^2', so '+11)/(e^2+2)' was all typed inside "
    "the exponent; ')' inside the exponent made a new parenthesis pair there.",
    (
        "a04",
        r"e^2+\frac{11}{e^2+2}",
    ): "Without parentheses, '/' took only '11' (the run after the last '+') as numerator; the "
    "cursor stayed in the denominator, so 'e^2+2' all went into the denominator.",
    ("a11", "sqrt3.836"): "Config without autoCommands: 'sqrt' stays four letters.",
    ("a12", "sqrt3.836"): "Config without autoCommands: 'sqrt' stays four letters.",
    ("a13", r"sqrt\left(3.836\right)"): "Config without autoCommands: 'sqrt' stays four letters.",
    (
        "a24",
        r"e^{\frac{2}{\left(e^2+2\right)}}",
    ): "'/' was typed while the cursor was still in the exponent, so the fraction 2/(e^2+2) "
    "was built inside the exponent.",
    (
        "c03",
        r"\left[\left[0,-\inf,-\inf\right],\left[0,0,-\inf\right],\left[0,0,0\right]\right]",
    ): "Default autoOperatorNames include 'inf', so the letters became the operator \\inf.",
    (
        "c04",
        r"\text{begin}\left\{pmatrix\right\}0\&-\infty\ \&-\infty\ \ 0\&0\&-\infty\ \ 0\&0\&0\text{end}\left\{pmatrix\right\}",
    ): "MathQuill 0.10.1 cannot enter environments: '\\begin' becomes \\text{begin}, '{' a "
    "brace pair, '&' a literal \\&.",
    ("c90", ""): "MathQuill 0.10.1 does not support matrices: ex6.4 cannot be entered as a matrix in it.",
    (
        "d01",
        r"\frac{1}{N}\sum_{_{j=1}^Nv_j}^{ }",
    ): "When \\sum is created MathQuill puts the cursor in its lower limit, so the typed '_' "
    "made a nested subscript and the later Right presses never left the lower limit "
    "(MathQuill's own entry is 'sum' j=1 <Up> N <Right>, see d04).",
    (
        "d02",
        r"\frac{sum_{j=1}^Nv_j}{N}",
    ): "Config without autoCommands: 'sum' stays letters; '/' took the whole run 'sum_{j=1}^Nv_j' "
    "(up to the start of the field) as numerator, not just the last token.",
    (
        "d02",
        r"\sum_{\frac{_{j=1}^Nv_j}{N}}^{ }",
    ): "All keystrokes after 'sum' went into the lower limit, including the '/'.",
    (
        "d05",
        r"\frac{1}{N}\sum_{_{j=1}^Nv_j}^{ }",
    ): "'\\sum' typed as a backslash command behaves like the autoCommand: cursor in the lower limit.",
    # MathLive
    (
        "a01",
        r"\frac{\left(e^2+11\right)}{\left(e^2\right)}",
    ): "MathLive's smartSuperscript already leaves the exponent after one digit, so the learner's "
    "Right arrow in the denominator jumped past the (auto-closed) parenthesis; the '+2' typed "
    "after it disappeared when ')' was typed (it is gone from the value and from the rendered "
    "field). In the numerator the same ')' instead pulled '+11' into the parentheses.",
    (
        "a02",
        r"\frac{\left(e^2+11\right)}{\left(e^2\right)}",
    ): "Same as a01: the '+2' typed after the Right arrow was lost when ')' was typed.",
    (
        "a21",
        r"\frac{\left(e^2+1\right)}{\left(e^2\right)}",
    ): "Same as a01: the '+2' typed after the Right arrow was lost when ')' was typed.",
    (
        "a22",
        r"\frac{\left(e^2+11\right)}{\left(e^2\right)}",
    ): "Same as a01: the '+1' typed after the Right arrow was lost when ')' was typed.",
    (
        "a19",
        r"1+\frac{9}{\left(e^2\right)}",
    ): "Same as a01: the '+2' typed after the Right arrow was lost when ')' was typed.",
    (
        "a23",
        r"\frac{e^2}{\left(e^2\right)}",
    ): "Same as a01: the '+2' typed after the Right arrow was lost when ')' was typed.",
    (
        "a24",
        r"\frac{e^2}{\left(e^2\right)}",
    ): "Same as a01: the '+2' typed after the Right arrow was lost when ')' was typed.",
    (
        "a04",
        r"e^2+\frac{11}{e^2}+2",
    ): "smartSuperscript left the exponent after '2', so the Right arrow left the denominator.",
    (
        "a05",
        r"\frac{e^2}{+11e^2}+2",
    ): "smartSuperscript left the exponent after '2', so the Right arrow moved from the numerator "
    "into the denominator; Down then did nothing visible.",
    (
        "a06",
        r"\frac{\left(e^2+11\right)}{e^2}+2",
    ): "smartSuperscript left the exponent after '2', so the Right arrow left the denominator.",
    (
        "a20",
        r"1+\frac{9}{e^2}+2",
    ): "smartSuperscript left the exponent after '2', so the Right arrow left the denominator.",
    ("b03", "N>2^13"): "MathLive's smartSuperscript leaves the exponent after the first digit.",
    ("b04", "N>2^13"): "MathLive's smartSuperscript leaves the exponent after the first digit.",
    ("b15", r"N\ge2^13+1"): "MathLive's smartSuperscript leaves the exponent after the first digit.",
    (
        "c02",
        r"\left\lbrack\left\lbrack0,-\right\rbrack\right\rbrack",
    ): "The first '\\' put MathLive into LaTeX-entry mode, which only a space/Enter closes; "
    "',' did not close it, so all later keystrokes are pending in that mode (mode_at_end = "
    "'latex') and not part of getValue().",
    (
        "c04",
        r"\begin{pmatrix}0 & -\infty\end{pmatrix}\&-\infty\\0\&0\&-\infty",
    ): "Typed LaTeX is committed at each space; the final chunk after the last space is still "
    "pending in LaTeX-entry mode (mode_at_end = 'latex').",
    (
        "d01",
        r"\frac{1}{N}\sum_{_{j=1}^{N}v_{j}}^{\placeholder{}}",
    ): "MathLive's 'sum' shortcut puts the cursor in the lower limit, so '_' made a nested subscript.",
    (
        "d04",
        r"\frac{1}{N}\sum_{j=1N}^{v_{j}}",
    ): "The Up arrow did not move from the lower to the upper limit; Right did.",
}

# Extra notes by (tool, id), appended whatever the LaTeX.
EXTRA_NOTES = {
    ("MathQuill", "b09"): "Through mathField.typedText() the typed space after '\\ge' ends the "
    "command AND is written as a control space '\\ '; with real key presses "
    "(latex_real_keyboard) the space only ends the command.",
    ("MathQuill", "b11"): "Same as b09: the typedText() space is kept as '\\ '; real keys give N\\ge8193.",
    ("MathQuill", "c01"): "Written as nested brackets (a list of rows), not as a matrix. Through "
    "typedText() each space after '\\infty' is also kept as '\\ '; real keys "
    "give the same LaTeX without them.",
    ("MathQuill", "c02"): "Written as nested brackets (a list of rows), not as a matrix.",
    ("MathQuill", "d06"): "'...' is three literal periods.",
    ("MathLive", "c01"): "Written as nested brackets (a list of rows), not as a matrix.",
    ("MathLive", "d06"): "MathLive turned the typed '...' into \\cdots.",
    ("MathLive", "c90"): "Not keystrokes: LaTeX assigned to mf.value; MathLive supports pmatrix.",
}

# Fallback notes by LaTeX alone (used when NOTES has no (id, LaTeX) entry).
NOTES_BY_LATEX = {
    r"\frac{1}{N}sum_{j=1}^Nv_j": "Config without autoCommands: 'sum' stays three letters.",
    r"\frac{1}{N-1}sum_{j=1}^Nv_j": "Config without autoCommands: 'sum' stays three letters.",
    r"\frac{1}{N}sumj=1Nv_j": "Config without autoCommands: 'sum' stays three letters, and Up had nothing to move into.",
    r"\frac{\left(sum_{j=1}^Nv_j\right)}{N}": "Config without autoCommands: 'sum' stays three letters.",
    r"\frac{1}{N-1}\sum_{_{j=1}^Nv_j}^{ }": "Cursor starts in the lower limit of \\sum, so '_' made a nested subscript (see d01).",
    r"\left(\sum_{\frac{\left(_{j=1}^Nv_j\right)}{N}}^{ }\right)": "All keystrokes after 'sum' went into the lower limit, including ')' and '/'.",
    r"\left[\left[0,-inf,-inf\right],\left[0,0,-inf\right],\left[0,0,0\right]\right]": "'inf' is not in this config's autoOperatorNames, so it stays letters.",
    r"\left(e^{\frac{\left(\left\{2\right\}+11\right)}{\left(e^{\left(\left\{2\right\}+2\right)}\right)}}\right)": "In MathQuill '{' makes a visible brace pair, not a TeX group; '}' closes it but does not leave the exponent.",
    r"\frac{\left(e^{\left\lbrace2\right\rbrace+11}\right)}{\left(e^{\left\lbrace2\right\rbrace+2}\right)}": "In MathLive '{' makes a visible brace pair, not a TeX group.",
    r"\left\lbrack\left\lbrack0,-inf,-inf\right\rbrack,\left\lbrack0,0,-inf\right\rbrack,\left\lbrack0,0,0\right\rbrack\right\rbrack": "MathLive has no inline shortcut for 'inf'.",
    r"\frac{1}{N}\sum_{j}=1^{N}v_{j}": "'\\sum' typed in LaTeX-entry mode was committed by '_'; the subscript held only 'j', and '=1' landed outside it.",
    r"\sum_{\frac{_{j=1}^{N}v_{j}}{N}}^{\placeholder{}}": "All keystrokes after 'sum' went into the lower limit, including the '/'.",
    r"\frac{1}{N-1}\sum_{_{j=1}^{N}v_{j}}^{\placeholder{}}": "MathLive's 'sum' shortcut puts the cursor in the lower limit, so '_' made a nested subscript.",
    r"\frac{\left(\sum_{_{j=1}^{N}v_{j}}^{\placeholder{}}\right)}{N}": "MathLive's 'sum' shortcut puts the cursor in the lower limit, so '_' made a nested subscript.",
}
