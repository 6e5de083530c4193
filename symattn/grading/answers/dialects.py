r"""The ways learners produce an answer, read into the LaTeX the checker reads (issue 48).

A learner rarely types LaTeX by hand: they copy it out of a math input tool (MathLive, Word or
OneNote, Overleaf with siunitx), type Unicode straight from a keyboard or a phone (``√``, ``²``,
``×``, digits of another script), paste a calculator's or a program's syntax (Excel, MATLAB,
NumPy, Mathematica, Maple) or wrap the answer the way a model's output does ("Final answer:
$1.96$"). A careful teacher reads every one of these. :data:`DIALECTS` is the table of them: each
row names the form, the tool it comes from, an example as the tool writes it and what it is read
as; :func:`normalise` applies the rows in order and notes each reading that was not literal, so
the verdict can say "read as". The table is also the documentation (``symattn/present``) and the
tests' list of forms: one registry, nothing listed twice.

Characters are read with :mod:`unicodedata`: a decimal digit of any script is its value (Arabic-
Indic ``١٫٩٦``, Persian ``۱٫۹۶``, full-width ``１.９６``), full-width and compatibility forms are
their plain letters (NFKC), except superscripts and subscripts, which are exponents and indices
(``²`` is ``^{2}``, not 2) and are read before NFKC would flatten them.

A form that is truly ambiguous is never guessed: ``1,959`` may be a decimal comma or a thousands
separator, and the checker asks (:mod:`.notation`); ``1,95856`` or ``8192,0``, which no thousands
grouping writes, are decimal commas.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Dialect:
    """One form learners produce, how to read it, and an example with its reading."""

    name: str
    tool: str
    example: str
    reads_as: str
    rewrite: Callable[[str], str]
    #: What the verdict's notes say when this row changed the answer.
    note: str


def _sub(pattern: str, repl: str | Callable, flags: int = 0) -> Callable[[str], str]:
    compiled = re.compile(pattern, flags)
    return lambda text: compiled.sub(repl, text)


def group_end(text: str, start: int) -> int:
    """Index of the brace closing the group that opens at ``text[start] == '{'`` (-1 if none);
    an escaped character (``\\{``) is no brace."""
    depth = 0
    i = start
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _command_args(name: str, keep: int | None, count: int, options: bool = True) -> Callable[[str], str]:
    """``\\name[opts]{a}{b}`` replaced by its argument ``keep`` (0-based; None: by nothing)."""

    def rewrite(text: str) -> str:
        pattern = re.compile(
            re.escape(name) + r"(?![A-Za-z])\s*" + (r"(?:\[[^\[\]]*\])?\s*" if options else "")
        )
        while m := pattern.search(text):
            args, at = [], m.end()
            for _ in range(count):
                while at < len(text) and text[at] == " ":
                    at += 1
                end = group_end(text, at) if at < len(text) and text[at] == "{" else -1
                if end < 0:
                    return text  # not the command's form: left for the reader to refuse
                args.append(text[at + 1 : end])
                at = end + 1
            text = text[: m.start()] + (f" {args[keep]} " if keep is not None else " ") + text[at:]
        return text

    return rewrite


def _over(text: str) -> str:
    """``{A \\over B}`` (plain TeX's fraction: all of the group before it over all after it), and
    ``A \\over B`` as a whole answer."""
    pattern = re.compile(r"\{\s*([^{}]*?)\s*\\over(?![A-Za-z])\s*([^{}]*?)\s*\}")
    while (after := pattern.sub(r"\\frac{\1}{\2}", text)) != text:
        text = after
    m = re.fullmatch(r"([^{}]*?)\\over(?![A-Za-z])([^{}]*)", text)
    return rf"\frac{{{m.group(1).strip()}}}{{{m.group(2).strip()}}}" if m else text


def _num_groups(text: str) -> str:
    """siunitx groups digits with spaces inside ``\\num{}``: ``\\num{1.958 56}`` is 1.95856."""
    return re.sub(
        r"\\num\s*(\[[^\[\]]*\])?\s*\{([\d.,\s]*)\}",
        lambda m: r"\num" + (m.group(1) or "") + "{" + re.sub(r"(?<=\d)\s+(?=\d)", "", m.group(2)) + "}",
        text,
    )


def _quantities(text: str) -> str:
    """``\\SI{8192}{tokens}``, ``\\qty{196}{\\percent}``: the number, then its unit as the reader
    judges units (a word in ``\\text``, which may be refused; ``\\percent`` a hundredth); an
    empty unit is none."""
    for name in (r"\SI", r"\qty"):
        pattern = re.compile(
            re.escape(name) + r"(?![A-Za-z])\s*(?:\[[^\[\]]*\])?\s*\{([^{}]*)\}\s*\{([^{}]*)\}"
        )

        def unit(m: re.Match) -> str:
            word = m.group(2).strip()
            if not word:
                return f" {m.group(1)} "
            if word == r"\percent":
                return f" {m.group(1)}\\% "
            return f" {m.group(1)} \\text{{{word}}} "

        text = pattern.sub(unit, text)
    return text


# -- Unicode, by character class -----------------------------------------------------------
_SUPERSCRIPTS = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵀ", "0123456789+-=()niT", strict=True))
_SUBSCRIPTS = dict(zip("₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₖᵢⱼₙₘₜ", "0123456789+-=()kijnmt", strict=True))


def _scripts(text: str) -> str:
    """Runs of superscript characters as an exponent, of subscripts as an index (``x²`` is
    ``x^{2}``, ``q₁`` is ``q_{1}``, ``Pᵀ`` is ``P^{T}``)."""
    out, i = [], 0
    while i < len(text):
        for table, mark in ((_SUPERSCRIPTS, "^"), (_SUBSCRIPTS, "_")):
            j = i
            while j < len(text) and text[j] in table:
                j += 1
            if j > i:
                out.append(mark + "{" + "".join(table[c] for c in text[i:j]) + "}")
                i = j
                break
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def _digits(text: str) -> str:
    """A decimal digit of any script as its ASCII digit (``١`` and ``۱`` are 1)."""
    return "".join(
        str(unicodedata.decimal(c)) if not c.isascii() and unicodedata.decimal(c, None) is not None else c
        for c in text
    )


def _compatibility(text: str) -> str:
    """Full-width and other compatibility forms as their plain characters (NFKC), one character at a
    time, leaving the characters the reader knows as they are (``√``, ``×``, ``−``)."""
    return "".join(
        unicodedata.normalize("NFKC", c)
        if unicodedata.decomposition(c).startswith(("<wide>", "<narrow>"))
        or "\U0001d400" <= c <= "\U0001d7ff"  # mathematical letters and digits (Word's 𝑒): not ℕ, a set
        else c
        for c in text
    )


def _root(text: str) -> str:
    """``√(3.836)`` is ``\\sqrt{3.836}``; ``√3`` and ``√d`` the root of what follows; ``∛`` a cube root."""
    text = re.sub(r"([√∛∜])\s*\(([^()]*)\)", lambda m: _ROOTS[m.group(1)] + "{" + m.group(2) + "}", text)
    return re.sub(
        r"([√∛∜])\s*(\d+(?:[.,]\d+)?|[A-Za-z](?:_\{?\w+\}?)?)",
        lambda m: _ROOTS[m.group(1)] + "{" + m.group(2) + "}",
        text,
    )


_ROOTS = {"√": r"\sqrt", "∛": r"\sqrt[3]", "∜": r"\sqrt[4]"}

# -- calculators and programs ---------------------------------------------------------------
_EXCEL = {"EXP": r"\exp", "SQRT": r"\sqrt", "LN": r"\ln"}


def _excel(text: str) -> str:
    """``=(EXP(2)+11)/(EXP(2)+2)``: a spreadsheet formula, its leading ``=`` and its functions."""
    if not re.match(r"^\s*=\s*[-+(\dA-Z]", text) or not re.search(r"\b(?:EXP|SQRT|LN|PI)\s*\(", text):
        return text
    text = re.sub(r"^\s*=\s*", "", text)
    # a spreadsheet's minus sign binds before its power: =-0.2^2 is (-0.2)^2
    text = re.sub(r"(?<![\w)\]])-\s*(\d+(?:\.\d+)?|[A-Z]+\([^()]*\))\s*\^", r"(-\1)^", text)
    text = re.sub(r"\bPI\s*\(\s*\)", r"\\pi ", text)
    for word, command in _EXCEL.items():
        if command == r"\sqrt":
            text = _call_to_group(text, word, command)
        else:
            text = re.sub(rf"\b{word}\s*\(", command.replace("\\", "\\\\") + "(", text)
    return text


def _call_to_group(text: str, word: str, command: str) -> str:
    """``SQRT(x)`` or ``Sqrt[x]``: the call as ``\\sqrt{x}`` (its parentheses matched)."""
    pattern = re.compile(rf"\b{word}\s*([(\[])")
    while m := pattern.search(text):
        end = _balanced(text, m.end() - 1, m.group(1), ")" if m.group(1) == "(" else "]")
        if end < 0:
            return text
        text = text[: m.start()] + command + "{" + text[m.end() : end] + "}" + text[end + 1 :]
    return text


def _mathematica(text: str) -> str:
    """``Exp[2]``, ``Sqrt[3.836]``, ``Infinity``, ``{{0, -Infinity}, {0, 0}}``: Mathematica's forms
    (read only where a bracketed call or a brace of braces says the answer is Mathematica's)."""
    if not re.search(
        r"\b(?:Exp|Sqrt|Log|N|Sum|Subscript|MatrixForm)\[|\{\s*\{|\bInfinity\b|//\s*N\s*$|\bE\s*\^", text
    ):
        return text
    text = re.sub(r"\s*//\s*(?:N|MatrixForm)\s*$", "", text)  # postfix: x // N
    text = _bracket_call(text, "MatrixForm", lambda a: a[0] if len(a) == 1 else None)
    text = _bracket_call(text, "N", lambda a: f"({a[0]})" if len(a) == 1 else None)  # N[x, k] rounds
    text = _bracket_call(text, "Subscript", lambda a: f"{a[0]}_{{{a[1]}}}" if len(a) == 2 else None)
    text = re.sub(r"\b([A-Za-z])\[\[\s*([A-Za-z]|\d+)\s*\]\]", r"\1_{\2}", text)  # v[[j]]
    text = re.sub(r"(?<![A-Za-z\\])([a-z])\[\s*([A-Za-z]|\d+)\s*\]", r"\1_{\2}", text)  # v[j]
    text = _bracket_call(text, "Sum", _mathematica_sum)
    text = re.sub(r"(?<![\\A-Za-z{])E(?![A-Za-z\[(_{])", r"\\mathrm{e}", text)  # the constant e
    text = re.sub(r"(?<![\\A-Za-z])Pi(?![A-Za-z])", r"\\pi ", text)
    text = _call_to_group(text, "Sqrt", r"\sqrt")
    text = re.sub(r"\bExp\[([^\[\]]*)\]", r"\\exp(\1)", text)
    text = re.sub(r"\bLog\[([^\[\]]*)\]", r"\\ln(\1)", text)
    text = re.sub(r"\bInfinity\b", r"\\infty ", text)
    if re.match(r"^\s*\{\s*\{", text):  # a matrix as a list of rows
        text = text.replace("{", "[").replace("}", "]")
    return text


def _numpy(text: str) -> str:
    """``array([[0., -inf], [0., 0.]])``, ``np.float64(1.96)``, ``-inf``: NumPy's reprs."""
    text = re.sub(
        r"^\s*(?:np\.|numpy\.)?(?:array|float64|float32|matrix)\(\s*(.*?)\s*(?:,\s*dtype=\w+)?\)\s*$",
        r"\1",
        text,
        flags=re.S,
    )
    if re.match(r"^\s*\[\s*\[", text) and "," not in text:  # NumPy's print: entries by spaces
        text = re.sub(r"\]\s*\[", "], [", text)
        text = re.sub(r"(?<=[\d.f])\s+(?=[-\d])", ", ", text)
    if re.search(r"(?<![\\A-Za-z])inf\b", text) or re.match(r"^\s*\[", text):
        text = re.sub(r"(?<![\\A-Za-z])inf\b", r"\\infty ", text)
        text = re.sub(r"(\d)\.(?![\d])", r"\1", text)  # 0. is 0
    return text


def _matlab(text: str) -> str:
    """``[0 -Inf; 0 0]`` (rows by ``;``, entries by spaces), its display (a row a line), ``Inf``,
    a trailing ``;``."""
    text = re.sub(r"(?<!\\);\s*$", "", text)
    if re.search(r"\bInf\b", text):
        text = re.sub(r"\bInf\b", r"\\infty ", text)
    lines = [ln for ln in re.sub(r"^\s*[A-Za-z]\w*\s*=\s*\n", "", text).splitlines() if ln.strip()]
    entry = r"-?\s*(?:\d+(?:\.\d+)?|\\infty)"
    if len(lines) > 1 and all(re.fullmatch(rf"\s*(?:{entry}\s*)+", ln) for ln in lines):
        # MATLAB's display of a matrix ("ans =", then a row a line, entries by spaces)
        rows = [re.findall(entry, ln) for ln in lines]
        return "[" + ", ".join("[" + ", ".join(e.replace(" ", "") for e in row) + "]" for row in rows) + "]"
    m = re.fullmatch(r"\s*\[([^\[\]]*;[^\[\]]*)\]\s*", text)
    if m:
        rows = [re.split(r"\s*,\s*|\s+(?=[-\d\\])", r.strip()) for r in m.group(1).split(";")]
        text = "[" + ", ".join("[" + ", ".join(e for e in row if e) + "]" for row in rows) + "]"
    return text


_OPPOSITE = {
    r"\leq": ">",
    r"\le": ">",
    "<": r"\geq",
    r"\lt": r"\geq",
    r"\geq": "<",
    r"\ge": "<",
    ">": r"\leq",
    r"\gt": r"\leq",
    "=": r"\neq",
}


def _negated(text: str) -> str:
    """``\\neg(N \\leq 8192)``, ``\\lnot(N < 8192)``: the relation's opposite (N > 8192, N ≥ 8192)."""

    def flip(m: re.Match) -> str:
        return f"{m.group(1)} {_OPPOSITE[m.group(2)]} {m.group(3)}"

    relations = "|".join(re.escape(r) + (r"(?![A-Za-z])" if r[-1].isalpha() else "") for r in _OPPOSITE)
    # a side holds no relation: the negation of a chain (8192 ≥ N ≥ 4096) is no one relation's opposite
    side = rf"(?:(?!{relations}|\\text\b)[^()<>=])+?"
    return re.sub(
        rf"^\s*\\(?:neg|lnot)\s*(?:\\left)?\(\s*({side})\s*({relations})\s*({side})\s*(?:\\right)?\)\s*$",
        flip,
        text,
    )


def _set_difference(text: str) -> str:
    """``N \\in \\mathbb{N} \\setminus \\{1, \\ldots, K\\}``: every whole number past K."""
    text = re.sub(
        r"^\s*([A-Za-z])\s*\\notin\s*\\?\{\s*[01]\s*,\s*(?:[12]\s*,\s*)?"
        + _DOTS
        + r"\s*,\s*(\d+)\s*\\?\}\s*$",
        r"\1 > \2",
        text,
    )
    return re.sub(
        r"^\s*([A-Za-z])\s*\\in\s*\\mathbb\s*\{?\s*N\s*\}?\s*(?:_\{?\s*\+?\s*\}?)?\s*\\setminus\s*"
        r"\\?\{\s*[01]\s*,\s*(?:\\ldots|\\cdots|\\dots|\.\.\.|…|⋯)\s*,\s*(\d+)\s*\\?\}\s*$",
        r"\1 > \2",
        text,
    )


_DOTS = r"(?:\\ldots|\\cdots|\\dots|\.\.\.|…|⋯)"
#: A tuple written with an ellipsis: ``(1, \ldots, 1)`` or ``(v_1, \ldots, v_N)``.
_TUPLE = (
    r"\(\s*(?:(?P<{o}>1)\s*,\s*"
    + _DOTS
    + r"\s*,\s*1|(?P<{x}>[a-z])_\{{?1\}}?\s*,\s*"
    + _DOTS
    + r"\s*,\s*(?P={x})_\{{?(?P<{n}>[A-Za-z]|\d+)\}}?)\s*\)"
)
_DOT_PRODUCT = re.compile(
    _TUPLE.format(o="o1", x="x1", n="n1")
    + r"\s*(?:\\cdot|·|\\bullet)\s*"
    + _TUPLE.format(o="o2", x="x2", n="n2")
)


def _tuples(text: str) -> str:
    """``(1, \\ldots, 1) \\cdot (v_1, \\ldots, v_N)``: a dot product of tuples, as its sum."""

    def as_sum(m: re.Match) -> str:
        sizes = {m.group(k) for k in ("n1", "n2") if m.group(k)}
        if len(sizes) > 1 or (m.group("o1") and m.group("o2")):
            return m.group(0)
        n = sizes.pop() if sizes else None
        if n is None:
            return m.group(0)
        factors = [f"{m.group(x)}_j" for x in ("x1", "x2") if m.group(x)]
        return rf"\sum_{{j=1}}^{{{n}}} " + " ".join(factors)

    return _DOT_PRODUCT.sub(as_sum, text)


def _index_sets(text: str) -> str:
    """``\\sum_{j \\in [N]}``, ``\\sum_{j \\in \\{1, \\ldots, N\\}}``, ``\\sum_{1 \\le j \\le N}``:
    a sum over 1..N, written with its bounds."""
    text = re.sub(
        r"\\sum_\{\s*([a-z])\s*\\in\s*(?:\[\s*([A-Za-z]|\d+)\s*\]|\\\{\s*1\s*,\s*"
        + _DOTS
        + r"\s*,\s*([A-Za-z]|\d+)\s*\\\})\s*\}",
        lambda m: rf"\sum_{{{m.group(1)}=1}}^{{{m.group(2) or m.group(3)}}}",
        text,
    )
    return re.sub(
        r"\\sum_\{\s*1\s*\\le(?:q)?\s*([a-z])\s*\\le(?:q)?\s*([A-Za-z]|\d+)\s*\}",
        lambda m: rf"\sum_{{{m.group(1)}=1}}^{{{m.group(2)}}}",
        text,
    )


def _whole_numbers_from(text: str) -> str:
    """``N \\in \\{8193, 8194, \\ldots\\}``: every whole number from the first on, N > 8192; and
    a domain said beside a threshold (``N \\in \\mathbb{N}, N > 8192``; ``N > 8192 \\; (N \\in
    \\mathbb{N})``), which the threshold's reading already takes (N counts tokens)."""
    m = re.fullmatch(r"\s*([A-Za-z])\s*\\in\s*\\\{\s*(\d+)\s*,\s*(\d+)\s*,\s*" + _DOTS + r"\s*\\\}\s*", text)
    if m and int(m.group(3)) == int(m.group(2)) + 1:
        return f"{m.group(1)} > {int(m.group(2)) - 1}"
    domain = r"([A-Za-z])\s*\\in\s*\\mathbb\s*\{?\s*N\s*\}?"
    first = re.fullmatch(rf"\s*{domain}\s*,\s*(\1\s*[<>].*)", text)
    if first:
        return first.group(2)
    after = re.fullmatch(
        r"\s*((?P<v>[A-Za-z])\s*[<>][^,()]*?)\s*(?:,|\\[,;:]|\\q?quad)?\s*\(?\s*(?P=v)\s*\\in\s*"
        r"\\mathbb\s*\{?\s*N\s*\}?\s*\)?\s*",
        text,
    )
    return after.group(1) if after else text


def _maple(text: str) -> str:
    """``sum(v_j, j=1..N)``: Maple's (and Wolfram Alpha's) sum, as ``\\sum_{j=1}^{N} v_j``."""
    return re.sub(
        r"\bsum\(\s*([^(),]+?)\s*,\s*([A-Za-z])\s*=\s*([^.,()]+?)\s*\.\.\s*([^.,()]+?)\s*\)",
        r"\\sum_{\2=\3}^{\4} \1",
        text,
    )


def _balanced(text: str, start: int, open_: str = "(", close: str = ")") -> int:
    """Index of the bracket closing the one at ``text[start]`` (-1 if none)."""
    depth = 0
    for i in range(start, len(text)):
        depth += text[i] == open_
        depth -= text[i] == close
        if depth == 0:
            return i
    return -1


def _parenthesised_scripts(text: str) -> str:
    """``e^(2)``, ``∑_(j=1)^N▒v_j``: an exponent or an index in parentheses (calculators, Word's
    linear format, Desmos' plain text) as a LaTeX group; Word's ``▒`` (the operand of a sum
    follows) and its ``〖 〗`` grouping brackets as a space and braces."""
    text = text.replace("\u2592", " ").replace("\u3016", "{").replace("\u3017", "}")
    out, i = [], 0
    while i < len(text):
        if text[i] in "^_" and i + 1 < len(text) and text[i + 1] == "(" and (i == 0 or text[i - 1] != "\\"):
            end = _balanced(text, i + 1)
            if end > 0:
                out.append(text[i] + "{" + text[i + 2 : end] + "}")
                i = end + 1
                continue
        out.append(text[i])
        i += 1
    return "".join(out)


_APPROXIMATELY = r"(?:about|approximately|approx\.?|roughly|around|circa|ca\.|nearly)"
_ROUNDING = (
    r"(?:,?\s*\(?\s*(?:rounded\s+)?(?:correct\s+)?(?:to\s+)?\d+\s*(?:d\.\s*p\.?|dp|s\.\s*f\.?|sf|"
    r"decimal\s+places?|significant\s+(?:figures|digits))\s*\)?|,?\s*\(\s*rounded\s*\))"
)


def _approximately(text: str) -> str:
    """ "about 1.96", "1.96 (to 2 d.p.)": a word of approximation as ``\\approx``, a remark on
    rounding dropped (the digits are judged as written)."""
    text = re.sub(rf"^\s*{_APPROXIMATELY}\s+(?=[-\d.(\\])", r"\\approx ", text, flags=re.I)
    m = re.search(rf"(?<=[\d}}])\s*{_ROUNDING}\s*\.?\s*$", text, flags=re.I)
    if m is None or not _rounding_says_true(text[: m.start()], m.group(0)):
        return text  # no remark, or one the digits do not bear out: left for the reader to refuse
    return text[: m.start()]


def _rounding_says_true(value: str, remark: str) -> bool:
    """Whether a plain number has the digits its remark claims ("to 2 d.p.": two decimals; "3
    s.f.": three significant digits); a remark after a formula, or without a count, is kept."""
    count = re.search(r"\d+", remark)
    number = re.fullmatch(r"\s*(?:\\approx\s*)?-?(\d*)\.?(\d*)\s*", value)
    if count is None:  # "(rounded)": no claim to check
        return True
    if number is None:  # a count after a formula: nothing to compare it with
        return False
    whole, decimals = number.groups()
    if re.search(r"s\.?\s*f|significant", remark, re.I):
        return len((whole + decimals).lstrip("0")) == int(count.group())
    return len(decimals) == int(count.group())


_RELATION_PHRASES = (
    (r"(?:is\s+)?not\s+(?:greater|more|larger|bigger)\s+than", r"\\leq"),
    (r"(?:is\s+)?not\s+(?:less|fewer|smaller)\s+than", r"\\geq"),
    (r"(?:is\s+)?(?:greater|more|larger|bigger)\s+than\s+or\s+equal\s+to", r"\\geq"),
    (r"(?:is\s+)?(?:less|fewer|smaller)\s+than\s+or\s+equal\s+to", r"\\leq"),
    (r"(?:is\s+)?(?:at\s+least|no\s+(?:less|fewer|smaller)\s+than)", r"\\geq"),
    (r"(?:is\s+)?(?:at\s+most|no\s+(?:more|greater|larger)\s+than)", r"\\leq"),
    (
        r"(?:is\s+)?(?:strictly\s+)?(?:greater|more|larger|bigger|longer)\s+than|exceeds|exceeding|(?:is\s+)?above",
        ">",
    ),
    (r"(?:is\s+)?(?:strictly\s+)?(?:less|fewer|smaller|shorter)\s+than|(?:is\s+)?below", "<"),
)


def _relations_in_words(text: str) -> str:
    """ "N greater than 8192", "more than 8192 tokens", "when N exceeds 8192": the relation said in
    words as its symbol (a subject left out is the exercise's variable; a leading "for", "when" or
    "once" is dropped)."""
    if re.search(r"\d", text) and not re.search(r"[<>=]|\\[lg]e", text):
        for phrase, symbol in _RELATION_PHRASES:
            text = re.sub(rf"(?<![A-Za-z]){phrase}(?![A-Za-z])", f" {symbol} ", text, flags=re.I)
    return re.sub(
        r"^\s*(?:for|when|whenever|once|if|as\s+soon\s+as)\s+(?=[A-Za-z]\s*[<>\\])", "", text, flags=re.I
    )


_SET_VAR = r"\\mathbb\s*\{?\s*[NZ]\s*\}?(?:_\{?\s*\+?\s*\}?)?"


def _set_builder(text: str) -> str:
    """``\\{N : N > 8192\\}``, ``N \\in \\{n \\in \\mathbb{N} \\mid n > 8192\\}``, ``N \\in
    \\mathbb{Z}_{>8192}``: the set's condition on the answer's variable."""
    m = re.fullmatch(
        r"\s*(?:(?P<outer>[A-Za-z])\s*\\in\s*)?\\?\{\s*(?P<inner>[A-Za-z])\s*(?:\\in\s*"
        + _SET_VAR
        + r")?\s*(?::|\\mid|\\colon|\\vert|\|)\s*(?P<cond>.+?)\s*\\?\}\s*",
        text,
    )
    if m and re.search(rf"(?<![A-Za-z\\]){m.group('inner')}(?![A-Za-z])", m.group("cond")):
        outer = m.group("outer") or m.group("inner")
        return re.sub(rf"(?<![A-Za-z\\]){m.group('inner')}(?![A-Za-z])", outer, m.group("cond"))
    return re.sub(
        r"^\s*([A-Za-z])\s*\\in\s*\\mathbb\s*\{?\s*[NZ]\s*\}?\s*_\s*\{\s*(>|\\geq|\\ge|\\gt)\s*(\d+)\s*\}\s*$",
        r"\1 \2 \3",
        text,
    )


def split_top(text: str, sep: str = ",") -> list[str]:
    """``text`` cut at each ``sep`` outside brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return [*parts, text[start:]]


def _bracket_call(text: str, word: str, build: Callable[[list[str]], str | None]) -> str:
    """Each ``word[a, b, ...]`` (its brackets matched) replaced by ``build([a, b, ...])``."""
    pattern = re.compile(rf"(?<![A-Za-z\\]){word}\[")
    at = 0
    while m := pattern.search(text, at):
        end = _balanced(text, m.end() - 1, "[", "]")
        if end < 0:
            return text
        made = build([a.strip() for a in split_top(text[m.end() : end])])
        if made is None:
            at = m.end()
            continue
        text = text[: m.start()] + made + text[end + 1 :]
    return text


def _mathematica_sum(args: list[str]) -> str | None:
    """``Sum[body, {j, 1, N}]`` (or ``{j, N}``, from 1) as ``\\sum_{j=1}^{N} (body)``."""
    if len(args) != 2 or not (args[1].startswith("{") and args[1].endswith("}")):
        return None
    spec = [a.strip() for a in split_top(args[1][1:-1])]
    if len(spec) == 2:
        spec = [spec[0], "1", spec[1]]
    if len(spec) != 3 or not re.fullmatch(r"[A-Za-z]", spec[0]):
        return None
    return rf"\sum_{{{spec[0]}={spec[1]}}}^{{{spec[2]}}} ({args[0]})"


_MEAN = r"\frac{1}{N}\sum_{j=1}^{N} v_j"
_LIBRARY = r"(?:np|numpy|torch|jnp|jax\.numpy)"
#: The axis of the rows, with the options that keep its value: axis=0, dim=-2, keepdim=True.
_ROWS = r"(?:(?:axis|dim)\s*=\s*)?(?:0|-2)\s*(?:,\s*keepdims?\s*=\s*True\s*)?"


def _program_mean(text: str) -> str:
    """``np.mean(V, axis=0)``, ``V.mean(dim=0)``, MATLAB's ``mean(V)``, ``\\operatorname{mean}_j
    v_j``: the mean of the value rows, as a sum (other axes are left for the judge to refuse)."""
    forms = (
        rf"{_LIBRARY}\.(?:mean|average)\(\s*V\s*,\s*{_ROWS}\)",
        rf"V\.mean\(\s*{_ROWS}\)",
        rf"(?:{_LIBRARY}\.sum\(\s*V\s*,\s*{_ROWS}\)|V\.sum\(\s*{_ROWS}\))\s*/\s*N",
        r"mean\(\s*V\s*(?:,\s*1\s*)?\)",  # MATLAB and Octave: the mean of each column
        r"\\(?:operatorname|mathrm|text)\s*\{\s*mean\s*\}\s*_\s*\{?\s*j\s*\}?\s*\(?\s*v_\{?\s*j\s*\}?\s*\)?",
        r"\\(?:operatorname|mathrm|text)\s*\{\s*mean\s*\}\s*\(\s*v_\{?1\}?\s*,\s*"
        + _DOTS
        + r"\s*,\s*v_\{?N\}?\s*\)",
    )
    text = re.sub(r"^\s*(?:" + "|".join(forms) + r")\s*;?\s*$", lambda _m: _MEAN, text)
    sums = rf"{_LIBRARY}\.sum\(\s*V\s*,\s*{_ROWS}\)|V\.sum\(\s*{_ROWS}\)"  # the rows' sum, not their mean
    return re.sub(rf"^\s*(?:{sums})\s*;?\s*$", lambda _m: r"\sum_{j=1}^{N} v_j", text)


def _qualifier(text: str) -> str:
    """``... \\quad \\text{for every } i``, ``..., \\forall i``: a clause saying the answer holds
    for every token, dropped (it adds no value)."""
    return re.sub(
        r"(?:\s|,|\\q?quad|\\[,;: ])*"
        r"(?:\\text\s*\{\s*(?:for\s+(?:every|all|each|any)|\\forall)\s*(?:token\s*)?\}\s*\$?\s*[a-z]\s*\$?|\\forall\s*[a-z]|\(\s*\\forall\s*[a-z]\s*\)|for\s+(?:every|all|each)\s+[a-z])"
        r"(?:\s*\\in\s*\[\s*N\s*\])?\s*\.?\s*$",
        "",
        text,
    )


_SIZED = re.compile(
    r"\\(?:left|right|bigl|bigr|Bigl|Bigr|biggl|biggr|Biggl|Biggr|big|Big|bigg|Bigg)\s*"
    r"(\(|\)|\[|\]|\\lbrack(?![A-Za-z])|\\rbrack(?![A-Za-z])|\\lparen(?![A-Za-z])|\\rparen(?![A-Za-z]))"
)
_PLAIN_BRACKET = {r"\lbrack": "[", r"\rbrack": "]", r"\lparen": "(", r"\rparen": ")"}


def _sized_brackets(text: str) -> str:
    """``\\left[ ... \\right]``, ``\\left\\lbrack``, ``\\bigl(``: brackets sized for display, as
    plain brackets (MathQuill, MathLive and Word write every bracket so); around an environment
    (``\\left[\\begin{array}``) they are the matrix's own delimiters and stay."""
    if "\\begin" in text:  # \left\lbrack is \left[, \bigl( is \left(: the reader's own forms
        text = re.sub(
            r"\\(?:left|bigl|Bigl|biggl|Biggl)\s*\\lbrack(?![A-Za-z])|\\(?:bigl|Bigl|biggl|Biggl)\s*\[",
            r"\\left[",
            text,
        )
        text = re.sub(
            r"\\(?:right|bigr|Bigr|biggr|Biggr)\s*\\rbrack(?![A-Za-z])|\\(?:bigr|Bigr|biggr|Biggr)\s*\]",
            r"\\right]",
            text,
        )
        text = re.sub(r"\\(?:bigl|Bigl|biggl|Biggl)\s*\(", r"\\left(", text)
        return re.sub(r"\\(?:bigr|Bigr|biggr|Biggr)\s*\)", r"\\right)", text)
    text = _SIZED.sub(lambda m: _PLAIN_BRACKET.get(m.group(1), m.group(1)), text)
    bare = re.compile(r"\\(lbrack|rbrack|lparen|rparen)(?![A-Za-z])")
    return bare.sub(lambda m: _PLAIN_BRACKET["\\" + m.group(1)], text)


def _infinity_words(text: str) -> str:
    """In a list of rows, ``inf`` (and MathQuill's ``\\inf``, the infimum, which its field makes of
    typed "inf") is infinity: ``[[0, -inf], ...]``."""
    if not re.match(r"^\s*\[\s*\[", text):
        return text
    return re.sub(r"(?<![A-Za-z])\\?inf(?![A-Za-z_{])", r"\\infty", text)


def _bare_commands(text: str) -> str:
    """``sum_{j=1}^N``, ``sqrt3.836``: a sum or a root typed without its backslash (a math field
    without auto-commands keeps the letters), and ``...`` between terms as an ellipsis."""
    text = re.sub(r"(?<![\\A-Za-z])sum(?=\s*_)", r"\\sum", text)
    text = re.sub(r"(?<![\\A-Za-z])sqrt\s*(\d+(?:\.\d+)?)", r"\\sqrt{\1}", text)
    return re.sub(r"(?<=[+,])\s*\.\.\.\s*(?=[+,])", r" \\ldots ", text)


_CHAT_TOKENS = re.compile(r"<\|im_(?:start|end)\|>\s*(?:user|assistant|system)?|</?think>")
#: "the final answer is", "The answer is:", "Therefore, answer is" (the value follows)
_STATED_ANSWER = re.compile(r"(?:final\s+answer|answer)\s*(?:is\s*:?|:)", re.I)
_HOPE = re.compile(r"\s*\.?\s*(?:I\s+hope\s+it\s+is\s+correct\.?)?\s*$", re.I)


def boxed_contents(text: str) -> list[str]:
    """The contents of every ``\\boxed{...}`` and ``\\fbox{...}`` (braces matched)."""
    out = []
    for m in re.finditer(r"\\(?:boxed|fbox|framebox)\s*\{", text):
        end = group_end(text, m.end() - 1)
        if end > 0 and not re.match(r"\s*\\(?:boxed|fbox|framebox)\s*\{", text[m.end() :]):
            out.append(text[m.end() : end].strip())  # a box in a box: the inner one counts
    return out


def worked_answer(text: str) -> str:
    """A worked text that ends in its answer, as a model writes it (Math-Verify's tests,
    lm-evaluation-harness' Minerva prompt): the boxed value, where every box holds the same one;
    else the value after "the final answer is" on the last line. Chat tokens are dropped. A text
    whose boxes differ is left whole, to be refused, never guessed between."""
    if "<|im_start|>" in text:  # a chat transcript: the assistant's last turn only (a model's own
        # completion comes before the first token; a turn opened later names its role)
        first, *rest = text.split("<|im_start|>")
        turns = [first] if first.strip() else []
        turns += [t.lstrip().removeprefix("assistant") for t in rest if t.lstrip().startswith("assistant")]
        text = turns[-1].strip() if turns else ""
    text = _CHAT_TOKENS.sub(" ", text).strip()
    boxes = boxed_contents(text)
    last = text.rsplit("\n", 1)[-1]
    stated = list(_STATED_ANSWER.finditer(last))
    value = _HOPE.sub("", last[stated[-1].end() :]) if stated else ""  # what the last line says
    if boxes and stated and stated[-1].start() > 0:  # a box and a last line that says otherwise
        said = re.sub(r"\$|\\[()\[\]]", " ", value.lstrip("*_ ")).strip()
        in_box = boxed_contents(said)
        words = re.search(r"(?<![\\A-Za-z])[A-Za-z]{3,}", said)  # a sentence, not a value
        if any(b != boxes[-1] for b in in_box) or (not in_box and not words and said != boxes[-1]):
            return text
    if boxes:

        def bare(t: str) -> str:
            return re.sub(r"[\s$.]|\\[()\[\]]", "", t)

        alone = bare(text) in (bare(rf"\boxed{{{boxes[0]}}}"), bare(rf"\fbox{{{boxes[0]}}}"))
        if len(set(boxes)) == 1 and not alone:
            return boxes[0]
        return text
    if stated and (stated[-1].start() > 0 or "\n" in text):  # "answer:" first is the lead-in's
        answer = value.strip().lstrip("*_ ").strip()
        return answer[1:-1].strip() if len(answer) > 2 and answer[0] == answer[-1] == "$" else answer
    return text


#: The forms, in the order they are read. Wrappers first (they enclose everything else), then
#: characters (so that later rows see plain digits and letters), then tools' commands.
DIALECTS: tuple[Dialect, ...] = (
    Dialect(
        "a worked text that ends in its answer",
        "language models (Math-Verify's and lm-evaluation-harness' cases)",
        r"Therefore, $\boxed{1.96}$ is our answer.",
        "1.96",
        worked_answer,
        "the answer was taken from the worked text (its box, or its last line)",
    ),
    Dialect(
        'a lead-in such as "Final answer:"',
        "language models, worked solutions",
        r"Final answer: $1.96$",
        "1.96",
        _sub(
            r"^\s*(?:#+\s*)?(?:\*\*)?(?:the\s+)?(?:final\s+answer|answer|result)(?:\s+is)?(?![\w'’])\s*(?:\*\*)?\s*[:=]?\s*(?:\*\*)?\s*",
            "",
            re.I,
        ),
        "the words before the answer are ignored",
    ),
    Dialect(
        "a word of approximation or a rounding remark",
        "worked solutions, a model's wrapper",
        "about 1.96 (to 2 d.p.)",
        r"\approx 1.96",
        _approximately,
        "the rounding remark is ignored: the digits are judged as written",
    ),
    Dialect(
        "a relation in words",
        "plain text, a model's wrapper",
        "more than 8192 tokens",
        "> 8192 tokens",
        _relations_in_words,
        "the relation in words read as its symbol",
    ),
    Dialect(
        "a clause saying the answer holds for every token",
        "worked solutions",
        r"1.96 \quad \text{for every } i",
        "1.96",
        _qualifier,
        "",
    ),
    Dialect(
        "math in a sentence",
        "a model's wrapper, worked solutions",
        r"\( N > 8192 \) tokens.",
        r"N > 8192 tokens",
        _sub(r"^\s*(?:\\\(|\$)(.*?)(?:\\\)|\$)\s*([a-z][a-z -]*?)\s*\.?\s*$", r"\1 \2"),
        "",
    ),
    Dialect(
        "an equation number or label",
        "LaTeX, Overleaf, Word",
        r"1.96 \tag{1}",
        "1.96",
        lambda t: _command_args(r"\label", None, 1, options=False)(
            _command_args(r"\tag*", None, 1, options=False)(
                _command_args(r"\tag", None, 1, options=False)(
                    re.sub(r"\\(?:nonumber|notag)(?![A-Za-z])", " ", t)
                )
            )
        ),
        "the equation number is ignored",
    ),
    Dialect(
        "an equation number after a quad",
        "LaTeX by hand",
        r"1.96 \qquad (2)",
        "1.96",
        _sub(r"\s*\\q?quad\s*\(\s*\d{1,3}\s*\)\s*$", ""),
        "the equation number is ignored",
    ),
    Dialect(
        "invisible delimiters",
        "Word, OneNote",
        r"\left. \frac{e^2+11}{e^2+2} \right.",
        r"\frac{e^2+11}{e^2+2}",
        _sub(r"\\(?:left|right|middle)\s*\.", " "),
        "",
    ),
    Dialect(
        "brackets sized for display",
        "MathQuill (Desmos), MathLive, Word",
        r"\left\lbrack1, 2\right\rbrack",
        "[1, 2]",
        _sized_brackets,
        "",
    ),
    Dialect(
        "a command typed without its backslash",
        "MathQuill (Desmos) without auto-commands, plain text",
        "sqrt3.836",
        r"\sqrt{3.836}",
        _bare_commands,
        "",
    ),
    Dialect(
        "an exponent or an index in parentheses",
        "calculators, Desmos' plain text, Word's linear format",
        "∑_(j=1)^N▒v_j",
        r"∑_{j=1}^{N} v_j",
        _parenthesised_scripts,
        "",
    ),
    Dialect(
        "plain TeX's \\over",
        "plain TeX, old notes",
        r"{e^2+11 \over e^2+2}",
        r"\frac{e^2+11}{e^2+2}",
        _over,
        "",
    ),
    Dialect(
        "an apostrophe between thousands",
        "Swiss and Liechtenstein keyboards",
        "N > 8'192",
        "N > 8192",
        _sub(
            r"(?<![\d'.])(\d{1,3})((?:'\d{3})+)(?![\d'])", lambda m: m.group(1) + m.group(2).replace("'", "")
        ),
        "the apostrophes read as thousands separators",
    ),
    Dialect(
        "siunitx numbers and quantities",
        "Overleaf (siunitx)",
        r"\num{8192}",
        "8192",
        lambda t: _quantities(_command_args(r"\num", 0, 1)(_num_groups(t))),
        "siunitx's number read as its value",
    ),
    Dialect(
        "MathLive's named constants",
        "MathLive",
        r"\frac{\exponentialE^2+11}{\exponentialE^2+2}",
        r"\frac{e^2+11}{e^2+2}",
        _sub(r"\\exponentialE(?![A-Za-z])\s*|\\operatorname\s*\{\s*e\s*\}", r"\\mathrm{e}"),
        "",
    ),
    Dialect(
        "a function in \\operatorname",
        "MathLive, Google Docs",
        r"\operatorname{exp}(2)",
        r"\exp(2)",
        _sub(r"\\operatorname\s*\{\s*(exp|ln|log|sqrt|max|min|sin|cos|tan)\s*\}(?=\s*[(\[{])", r"\\\1"),
        "",
    ),
    Dialect(
        "digits of another script",
        "Arabic-Indic, Persian and full-width keyboards",
        "١٫٩٦",
        "1.96",
        lambda t: _digits(t.replace("\u066b", ".").replace("\u066c", "")),
        "digits of another script read as ASCII digits",
    ),
    Dialect(
        "full-width forms",
        "CJK input methods",
        "（e^2+11）／（e^2+2）",
        "(e^2+11)/(e^2+2)",
        lambda t: _compatibility(t.replace("\u3000", " ").replace("。", ".").replace("、", " , ")),
        "",
    ),
    Dialect(
        "superscripts and subscripts",
        "Unicode keyboards, phones, Word's linear format",
        "e² + 11",
        "e^{2} + 11",
        _scripts,
        "",
    ),
    Dialect(
        "a root sign",
        "Unicode keyboards, Word's linear format",
        "√(3.836)",
        r"\sqrt{3.836}",
        _root,
        "",
    ),
    Dialect(
        "a fraction or division slash",
        "Unicode, Word",
        "1⁄2",
        "1/2",
        lambda t: t.replace("\u2044", "/").replace("\u2215", "/").replace("÷", "/"),
        "",
    ),
    Dialect(
        "Unicode relations, sets and dots",
        "Unicode keyboards",
        "¬(N ≤ 8192)",
        r"\neg (N \leq  8192)",
        lambda t: t.translate(_SYMBOLS),
        "",
    ),
    Dialect(
        "digit groups after the point",
        "MathLive, siunitx",
        r"1.958\,56",
        "1.95856",
        _sub(r"(\d\.\d{3})((?:\\,\d{1,3})+)(?![\d])", lambda m: m.group(1) + m.group(2).replace("\\,", "")),
        "",
    ),
    Dialect(
        "a negated relation",
        "MathLive (\\lnot), logic",
        r"\neg(N \leq 8192)",
        "N > 8192",
        _negated,
        "the negated relation read as its opposite",
    ),
    Dialect(
        "whole numbers less a finite set",
        "set notation",
        r"N \in \mathbb{N} \setminus \{1, \ldots, 8192\}",
        "N > 8192",
        _set_difference,
        "the whole numbers less {1, ..., K} read as N > K",
    ),
    Dialect(
        "functions without a backslash",
        "Wolfram Alpha, MATLAB, Python, calculators",
        "(exp(2)+11)/(exp(2)+2)",
        r"(\exp(2)+11)/(\exp(2)+2)",
        lambda t: _call_to_group(
            re.sub(
                r"(?<![\\A-Za-z])log\s*\(",
                r"\\ln(",
                re.sub(r"(?<![\\A-Za-z])(exp|ln|sin|cos|tan)\s*\(", r"\\\1(", t),
            ),
            "(?<!\\\\)sqrt",
            r"\sqrt",
        ),
        "",
    ),
    Dialect(
        "a unit word without \\text",
        "plain text, a model's wrapper",
        "N > 8192 tokens",
        r"N > 8192 \text{tokens}",
        _sub(r"(?<=[\d}])\s+\(?([a-z]{3,}(?:[ -][a-z]{3,})*)\)?\s*\.?\s*$", r" \\text{\1}"),
        "",
    ),
    Dialect(
        "whole numbers from a first one",
        "set notation",
        r"N \in \{8193, 8194, \ldots\}",
        "N > 8192",
        _whole_numbers_from,
        "",
    ),
    Dialect(
        "a set by its condition",
        "set notation",
        r"N \in \{n \in \mathbb{N} \mid n > 8192\}",
        "N > 8192",
        _set_builder,
        "the set read as its condition",
    ),
    Dialect(
        "a sum over an index set",
        "other textbooks",
        r"\sum_{j \in [3]} j^2",
        r"\sum_{j=1}^{3} j^2",
        _index_sets,
        "",
    ),
    Dialect(
        "a dot product of tuples",
        "other textbooks",
        r"(x_1, \ldots, x_3) \cdot (y_1, \ldots, y_3)",
        r"\sum_{j=1}^{3} x_j y_j",
        _tuples,
        "",
    ),
    Dialect(
        "a spreadsheet formula",
        "Excel, LibreOffice, Google Sheets",
        "=(EXP(2)+11)/(EXP(2)+2)",
        r"(\exp(2)+11)/(\exp(2)+2)",
        _excel,
        "the spreadsheet formula read as mathematics",
    ),
    Dialect(
        "Mathematica's syntax",
        "Mathematica, Wolfram Alpha",
        "{{0, -Infinity}, {0, 0}}",
        r"[[0, -\infty ], [0, 0]]",
        _mathematica,
        "Mathematica's syntax read as mathematics",
    ),
    Dialect(
        "NumPy's reprs",
        "Python, NumPy",
        "array([[0., -inf], [0., 0.]])",
        r"[[0, -\infty ], [0, 0]]",
        _numpy,
        "NumPy's output read as mathematics",
    ),
    Dialect(
        "inf in a list of rows",
        "MathQuill (Desmos), Python",
        r"[[0, -\inf], [0, 0]]",
        r"[[0, -\infty], [0, 0]]",
        _infinity_words,
        "",
    ),
    Dialect(
        "MATLAB's matrices and Inf",
        "MATLAB, Octave",
        "[0 -Inf; 0 0]",
        r"[[0, -\infty], [0, 0]]",
        _matlab,
        "",
    ),
    Dialect(
        "a sum written as a function",
        "Maple, Wolfram Alpha",
        "sum(j^2, j=1..3)",
        r"\sum_{j=1}^{3} j^2",
        _maple,
        "",
    ),
    Dialect(
        "a mean computed by a program",
        "NumPy, PyTorch, MATLAB",
        "np.mean(V, axis=0)",
        _MEAN,
        _program_mean,
        "the program's mean over the rows of V read as the mean of the values",
    ),
)

#: Unicode symbols a learner types for LaTeX commands (those the reader's own table does not know).
_SYMBOLS = str.maketrans(
    {
        "¬": r"\neg ",
        "≤": r"\leq ",
        "≥": r"\geq ",
        "⩽": r"\leq ",
        "⩾": r"\geq ",
        "≦": r"\leq ",
        "≧": r"\geq ",
        "≯": r"\leq ",
        "≮": r"\geq ",
        "≰": ">",
        "≱": "<",
        "∈": r"\in ",
        "∉": r"\notin ",
        "∖": r"\setminus ",
        "ℕ": r"\mathbb{N} ",
        "ℝ": r"\mathbb{R} ",
        "∪": r"\cup ",
        "∩": r"\cap ",
        "⋯": r"\cdots ",
        "⋅": r"\cdot ",
        "∑": r"\sum ",
        "√": "√",
        "ⅇ": r"\mathrm{e}",  # Word's exponential e (\ee)
        "ℯ": r"\mathrm{e}",
    }
)


def normalise(text: str, notes: list[str]) -> str:
    """``text`` with every form of :data:`DIALECTS` read, each row's note added once when it
    changed the text."""
    for dialect in DIALECTS:
        after = dialect.rewrite(text)
        if after != text:
            if dialect.note and dialect.note not in notes:
                notes.append(dialect.note)
            text = after
    return text
