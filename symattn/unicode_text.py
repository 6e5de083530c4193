r"""LaTeX math as Unicode text, for the terminal: ``\mathbb{E}[q_i^2] = 1`` reads ``𝔼[qᵢ²] = 1``.

:func:`to_unicode` knows the vocabulary the derivations, rules and titles use (Greek letters,
operators, ``\frac``, ``\sqrt``, ``\operatorname``, accents, bold, sub- and superscripts,
matrices); anything else keeps its name without the backslash, so no raw LaTeX reaches a
terminal. Words outside ``$...$`` are left alone by :func:`words`. What it writes can be read
again: :func:`from_unicode` turns it back into LaTeX, and ``verify`` reads every line the
terminal shows that way (:mod:`symattn.proof.shown`).
"""

from __future__ import annotations

import re

_GREEK = {
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "epsilon": "ε",
    "theta": "θ",
    "lambda": "λ",
    "mu": "μ",
    "pi": "π",
    "rho": "ρ",
    "sigma": "σ",
    "tau": "τ",
    "phi": "φ",
    "chi": "χ",
    "psi": "ψ",
    "omega": "ω",
    "zeta": "ζ",
    "eta": "η",
    "iota": "ι",
    "kappa": "κ",
    "nu": "ν",
    "xi": "ξ",
    "upsilon": "υ",
    "varphi": "ϕ",
    "Sigma": "Σ",
    "Delta": "Δ",
    "Omega": "Ω",
    "Gamma": "Γ",
    "Theta": "Θ",
    "Lambda": "Λ",
    "Xi": "Ξ",
    "Phi": "Φ",
    "Psi": "Ψ",
    "Pi": "Π",
}
_SYMBOLS = _GREEK | {
    "varepsilon": "ε",
    "|": "‖",
    "sum": "∑",
    "prod": "∏",
    "partial": "∂",
    "infty": "∞",
    "times": "×",
    "cdot": "·",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
    "neq": "≠",
    "ne": "≠",
    "approx": "≈",
    "sim": "~",
    "in": "∈",
    "to": "→",
    "iff": "⟺",
    "implies": "⟹",
    "top": "ᵀ",
    "pm": "±",
    "lVert": "‖",
    "rVert": "‖",
    "Vert": "‖",
    "lvert": "|",
    "rvert": "|",
    "mid": "∣",
    "ldots": "…",
    "dots": "…",
    "cdots": "⋯",
    "quad": "  ",
    "qquad": "    ",
    ",": " ",
    ";": " ",
    "!": "",
    " ": " ",
    "{": "{",
    "}": "}",
    "%": "%",
    "_": "_",
    "&": "&",
    "#": "#",
    "$": "$",
    "\\": " ",
    "left": "",
    "right": "",
    "big": "",
    "Big": "",
    "bigl": "",
    "bigr": "",
    "displaystyle": "",
    "log": "log",
    "exp": "exp",
    "max": "max",
    "min": "min",
    "lim": "lim",
    "det": "det",
}
_BLACKBOARD = {"E": "𝔼", "R": "ℝ", "N": "ℕ", "Z": "ℤ", "Q": "ℚ", "P": "ℙ", "C": "ℂ"}
_BOLD = {"0": "𝟎", "1": "𝟏"} | {  # and Unicode's bold letters, 𝐀 to 𝐳
    c: chr(base + k)
    for base, letters in ((0x1D400, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"), (0x1D41A, "abcdefghijklmnopqrstuvwxyz"))
    for k, c in enumerate(letters)
}
_ACCENTS = {"tilde": "\u0303", "bar": "\u0305", "hat": "\u0302", "vec": "\u20d7", "dot": "\u0307"}
# (a transpose, \top, is ᵀ; a power T is written ^T: never the same character)
_SUPER = dict(zip("0123456789+-=()nijkt", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱʲᵏᵗ", strict=True))
_SUB = dict(zip("0123456789+-=()aeijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ", strict=True))
_TOKEN = re.compile(r"\\([A-Za-z]+|.)|([{}^_])|([^\\{}^_])", re.S)


def words(text: str) -> str:
    """Text with each ``$...$`` stretch of math turned into Unicode."""
    parts = text.split("$")
    return "".join(to_unicode(p) if k % 2 else p for k, p in enumerate(parts))


#: A character of a script written as a bare word after ``^`` or ``_``: letters, digits and
#: subscripts (``e^zᵢ``, ``d_model``), never a superscript (``d_model²`` is d_model squared).
_WORD = re.compile(f"[A-Za-z0-9{''.join(_SUB.values())}]")
_UPRIGHT = {r"\text", r"\mathrm", r"\textrm", r"\operatorname"}
_ROOTS = {"3": "∛", "4": "∜"}
#: Each root sign and the index it writes: √ none, ∛ [3], ∜ [4] (others: ⁵√x).
_DEGREES = {"√": ""} | {sign: f"[{k}]" for k, sign in _ROOTS.items()}
_ROOT_SIGNS = "".join(_DEGREES)
#: A piece that ends in a fraction, a root or a bare script word: what follows it must be set
#: apart, or it would be read as part of it.
_GLUED = re.compile(f"[/{_ROOT_SIGNS}].*[\\w)\\]]\\Z|[\\^_]\\w+\\Z")
#: What a piece that follows a glued one may start with: it would be read as part of it.
_GLUES = re.compile(f"[\\w.({_ROOT_SIGNS}]")
#: A piece that already carries a power: another one groups it first, (x²)³.
_POWERED = re.compile(f"[\\^{''.join(_SUPER.values())}]")
_HELD = 0xE000  # the first of Unicode's private use characters
_MATRIX = re.compile(r"\\begin\{([bpvBV]?matrix\*?)\}(.*?)\\end\{\1\}", re.S)


def _matrix(m: re.Match) -> str:
    """A matrix as its rows: ``[[0, -∞], [0, 0]]``."""
    rows = [r for r in re.split(r"\\\\(?:\[[^\]]*\])?", m.group(2)) if r.strip()]
    return "[" + ", ".join("[" + ", ".join(to_unicode(c) for c in r.split("&")) + "]" for r in rows) + "]"


def to_unicode(latex: str) -> str:
    """One LaTeX math string as Unicode text."""
    # Each matrix is written on its own and stands in the rest as one character of Unicode's
    # private use area, so its cells' Unicode is not read as LaTeX a second time.
    matrices: list[str] = []
    # x _ {bs}: TeX sets no space before a script or between its mark and its argument
    latex = re.sub(r"(?<!\\)\s+(?=[_^])|(?<=[_^])\s+", "", latex)
    tokens = [m.group(0) for m in _TOKEN.finditer(_MATRIX.sub(lambda m: _held(m, matrices), latex))]
    out, _ = _sequence(tokens, 0, stop=None)
    out = re.sub(f"[{chr(_HELD)}-{chr(_HELD + 0x17FF)}]", lambda m: matrices[ord(m.group(0)) - _HELD], out)
    text = re.sub(r" {2,}", " ", out).strip()
    text = re.sub(r"\s*([=≤≥≠≈∈→⟺~])\s*", r" \1 ", text).replace("( ", "(").replace(" )", ")").strip()
    return re.sub(r"(\A|[(\[]|, )- ", r"\1-", text)  # a leading minus: -9 √2, x^(-d/2)


def _held(m: re.Match, matrices: list[str]) -> str:
    """The matrix ``m`` written, kept in ``matrices``; the character that stands for it."""
    matrices.append(_matrix(m))
    return chr(_HELD + len(matrices) - 1)


def _sequence(tokens: list[str], i: int, stop: str | None) -> tuple[str, int]:
    out = []
    while i < len(tokens):
        t = tokens[i]
        if t == stop:
            return "".join(out), i + 1
        piece, i = _atom(tokens, i)
        scripts: list[tuple[str, str, bool]] = []  # (mark, argument, an upright word)
        while i < len(tokens) and tokens[i] in ("^", "_"):
            mark = tokens[i]
            # an upright word (O_{\text{none}}) keeps its letters: Oₙₒₙₑ would read as O_{none}
            upright = bool(_UPRIGHT.intersection(tokens[i + 1 : i + 3]))
            arg, i = _atom(tokens, i + 1)
            scripts.append((mark, arg.strip(), upright))
        if scripts:
            stacked = any(mark == "^" for mark, _, _ in scripts) and _POWERED.search(piece)
            if _wrap(piece) != piece or piece[:1] in _ROOT_SIGNS or stacked:  # (√x)², (x²)³
                piece = f"({piece})"
            following = tokens[i][:1] if i < len(tokens) else ""
            written = ""
            for mark, arg, upright in reversed(scripts):
                written = _script(arg, mark, written[:1] or following, upright) + written
            piece += written
        if out and piece and _GLUED.search(out[-1]) and _GLUES.match(piece):
            out.append(" ")  # 1/2 X, √x y, e^z 1/2: not 1/2X, √xy, e^z1/2
        out.append(piece)
    return "".join(out), i


def _atom(tokens: list[str], i: int) -> tuple[str, int]:
    """One argument: a group {...}, a command with its arguments, or a single character."""
    if i >= len(tokens):
        return "", i
    t = tokens[i]
    if t == "{":
        return _sequence(tokens, i + 1, stop="}")
    if t in ("}", "^", "_"):
        return "", i + 1
    if not t.startswith("\\") or len(t) == 1:
        return t, i + 1
    name = t[1:]
    if name in ("frac", "tfrac", "dfrac"):
        a, i = _atom(tokens, i + 1)
        b, i = _atom(tokens, i)
        return f"{_wrap(a)}/{_wrap(b)}", i
    if name == "sqrt":
        degree = ""
        if i + 1 < len(tokens) and tokens[i + 1] == "[":  # \sqrt[4]{x}: ∜x; \sqrt[5]{x}: ⁵√x
            close = tokens.index("]", i + 1)
            degree, i = "".join(tokens[i + 2 : close]).strip(), close
        a, i = _atom(tokens, i + 1)
        if degree in ("", "2"):
            return f"√{_wrap(a)}", i
        if degree in _ROOTS:
            return f"{_ROOTS[degree]}{_wrap(a)}", i
        if degree and all(c in _SUPER for c in degree):
            return "".join(_SUPER[c] for c in degree) + f"√{_wrap(a)}", i
        return f"({a})^(1/({degree}))", i
    if name == "mathcal":  # 𝒩 for \mathcal{N}; a letter without a script form stays itself
        a, i = _atom(tokens, i + 1)
        return "".join(_SCRIPT.get(c, c) for c in a), i
    if name in ("operatorname", "mathrm", "text", "textrm", "mathit", "mbox", "textbf", "mathsf", "texttt"):
        return _atom(tokens, i + 1)
    if name in ("textcolor", "colorbox"):  # \textcolor{red}{KL}: the colour is not what is said
        _, i = _atom(tokens, i + 1)
        return _atom(tokens, i)
    if name == "mathbb":
        a, i = _atom(tokens, i + 1)
        return "".join(_BLACKBOARD.get(c, c) for c in a), i
    if name in ("mathbf", "boldsymbol"):
        a, i = _atom(tokens, i + 1)
        return "".join(_BOLD.get(c, c) for c in a), i
    if name in _ACCENTS:
        a, i = _atom(tokens, i + 1)
        return (a + _ACCENTS[name]) if len(a) == 1 else a + "~" if name == "tilde" else a, i
    return _SYMBOLS.get(name, name), i + 1


#: Script capitals (Unicode's mathematical script letters; B, E, F, H, I, L, M, R have their own).
_SCRIPT = {c: chr(0x1D49C + k) for k, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZ")} | {
    "B": "ℬ",
    "E": "ℰ",
    "F": "ℱ",
    "H": "ℋ",
    "I": "ℐ",
    "L": "ℒ",
    "M": "ℳ",
    "R": "ℛ",
}


def _script(arg: str, mark: str, following: str, upright: bool = False) -> str:
    """A super- or subscript: in Unicode's script letters where it has them all (``x²``,
    ``dₖ``), else after ``^`` or ``_`` as a bare word where :func:`from_unicode` reads the word
    back whole (``e^zᵢ``, ``d_model``), else in parentheses (``W^(O)₁``, ``e^(√2)``)."""
    table = _SUPER if mark == "^" else _SUB
    if " " in arg and not upright and all(c in table for c in arg.replace(" ", "")):
        arg = arg.replace(" ", "")  # δ_{i j} is δᵢⱼ
    if arg and all(c in table for c in arg) and not (upright and len(arg) > 1):
        return "".join(table[c] for c in arg)
    if arg == "ᵀ":
        return "ᵀ"  # a transpose (\top) is one already
    bare = bool(arg) and all(_WORD.fullmatch(c) for c in arg) and not _WORD.fullmatch(following or " ")
    return f"{mark}{arg}" if bare else f"{mark}({arg})"


def _wrap(s: str) -> str:
    """``s`` as one operand of a fraction or root: as it is where :func:`from_unicode` reads it
    as one (``x``, ``dₖ``, ``e^(√2)``, ``Var(z)``, ``(a + b)``), else in parentheses."""
    s = s.strip()
    return s if len(s) == 1 or _one_group(s) or _one_operand(s) else f"({s})"


def _one_operand(s: str) -> bool:
    try:
        return _Reader(s).operand(0)[1] == len(s)
    except (UnicodeReadError, IndexError):
        return False


def _one_group(s: str) -> bool:
    """``s`` is one parenthesised group: ``(a + b)``, not ``(a) + (b)``."""
    if not (s.startswith("(") and s.endswith(")")):
        return False
    depth = 0
    for k, c in enumerate(s):
        depth += {"(": 1, ")": -1}.get(c, 0)
        if depth == 0 and k < len(s) - 1:
            return False
    return True


# -- and back ------------------------------------------------------------------------------------
_FROM_SUPER = {v: k for k, v in _SUPER.items()} | {"ᵀ": "ᵀ"}  # ᵀ: a transpose, \top
_FROM_SUB = {v: k for k, v in _SUB.items()}
_FROM_SYMBOLS = (
    {
        "∑": r"\sum",
        "∏": r"\prod",
        "∂": r"\partial",
        "∞": r"\infty",
        "×": r"\times",
        "·": r"\cdot",
        "≤": r"\le",
        "≥": r"\ge",
        "≠": r"\neq",
        "≈": r"\approx",
        "~": r"\sim",
        "∈": r"\in",
        "→": r"\to",
        "⟺": r"\iff",
        "⟹": r"\implies",
        "±": r"\pm",
        "…": r"\ldots",
        "⋯": r"\cdots",
        "∣": r"\mid",
    }
    | {v: "\\" + k for k, v in _GREEK.items()}
    | {v: rf"\mathbb{{{k}}}" for k, v in _BLACKBOARD.items()}
    | {v: rf"\mathbf{{{k}}}" for k, v in _BOLD.items()}
    | {v: rf"\mathcal{{{k}}}" for k, v in _SCRIPT.items()}
)
_FROM_ACCENTS = {v: k for k, v in _ACCENTS.items()}
_SCRIPT_CHARS = set(_FROM_SUPER) | set(_FROM_SUB)
#: A word's parts: superscripts, subscripts, a name of three letters or more, one character.
_WORD_PARTS = re.compile(f"([{''.join(_FROM_SUPER)}]+)|([{''.join(_FROM_SUB)}]+)|([A-Za-z]{{3,}})|(.)")
#: The bars that open and close a value: ‖x‖ (a norm), |x| (an absolute value).
_BARS = {"‖": (r"\lVert ", r"\rVert "), "|": (r"\lvert ", r"\rvert ")}
#: Names LaTeX writes as commands (\sin, \log): read back as the command, not as letters.
_NAMED = ("log", "ln", "exp", "max", "min", "lim", "det", "sin", "cos", "tan", "sinh", "cosh", "tanh")


class UnicodeReadError(ValueError):
    """Unicode math that :func:`from_unicode` cannot read back."""


def from_unicode(text: str) -> str:
    r"""The Unicode text :func:`to_unicode` writes, as LaTeX again: ``1/√2 Q Kᵀ`` reads
    ``\frac{1}{\sqrt{2}} Q K^{\top}``. It reads the conventions ``to_unicode`` keeps (a bare
    script word ends where :data:`_WORD` does; a fraction's or root's argument is a word, a root
    or one parenthesised group; ``[[a, b], [c, d]]`` is a matrix), so a printer's slip shows as a
    different reading. Raises :class:`UnicodeReadError` on text it cannot read."""
    return _Reader(text).sequence(0, stop=None)[0]


def _is_run(c: str) -> bool:
    """A character of a word: a letter or digit (Greek, 𝔼 and 𝟏 too), a point, or a script."""
    return c in _SCRIPT_CHARS or c == "." or (c.isalnum() and c != "_")


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text

    def error(self, what: str, i: int) -> UnicodeReadError:
        return UnicodeReadError(f"{what} at character {i + 1} of '{self.text}'")

    def sequence(self, i: int, stop: str | None) -> tuple[str, int]:
        """LaTeX for the text from ``i`` to ``stop`` (a closing bracket) or the end."""
        items: list[list[str]] = []  # [latex, kind]: kind "atom" (takes scripts, fractions) or "op"
        opening = dict.fromkeys(_BARS, True)  # the next bar of each kind opens
        text = self.text
        while i < len(text):
            c = text[i]
            if c == stop:
                return self.join(items), i + 1
            if c in ")]":
                raise self.error(f"an unmatched '{c}'", i)
            if c in "^_":
                if not items or items[-1][1] != "atom":
                    raise self.error(f"a script '{c}' on nothing", i)
                arg, i = self.script_argument(i + 1)
                items[-1][0] += f"{c}{{{arg}}}"
            elif c == "/" and (not items or items[-1][1] != "atom" or text[i + 1 : i + 2] in ("", " ")):
                items.append(["/", "op"])  # a slash written with spaces (a / b) is the author's own
                i += 1
            elif c == "/":
                numerator = items.pop()[0]
                denominator, i = self.operand(i + 1)
                items.append([rf"\frac{{{_bare(numerator)}}}{{{_bare(denominator)}}}", "atom"])
            elif c in _FROM_ACCENTS:
                if not items or not re.search(r"[A-Za-z]\Z", items[-1][0]):
                    raise self.error("an accent on nothing", i)
                last = items[-1][0]
                items[-1][0] = last[:-1] + rf"\{_FROM_ACCENTS[c]}{{{last[-1]}}}"
                i += 1
            elif c in _BARS:
                items.append([_BARS[c][not opening[c]], "op" if opening[c] else "atom"])
                opening[c] = not opening[c]
                i += 1
            elif c in "([" or c in _ROOT_SIGNS or _is_run(c):
                latex, i = self.operand(i)
                if latex.startswith(("^", "_")):  # scripts on what comes before: Xᵀ after (…)
                    if not items or items[-1][1] != "atom":
                        raise self.error("a script on nothing", i)
                    items[-1][0] += latex
                else:
                    items.append([latex, "atom"])
            elif c in _FROM_SYMBOLS:
                kind = "atom" if c in "∑∏∂∞…⋯" or c.isalpha() else "op"
                items.append([_FROM_SYMBOLS[c] + " ", kind])
                i += 1
            elif c in " +-=<>,;:!'*":
                items.append([c, "atom" if c == "'" else "op"])
                i += 1
            else:
                raise self.error(f"'{c}' is not math this printer writes", i)
        if stop is not None:
            raise self.error(f"a '{stop}' is missing", i)
        return self.join(items), i

    @staticmethod
    def join(items: list[list[str]]) -> str:
        latex = re.sub(r" {2,}", " ", "".join(latex for latex, _ in items)).strip()
        return re.sub(r"\\text\{([^{}]*)\} \\text\{", r"\\text{\1 ", latex)  # words: weighted sum

    def operand(self, i: int) -> tuple[str, int]:
        """One word, root, parenthesised group or matrix, with a function's name applied to
        the group that follows it (``softmax(…)``)."""
        text = self.text
        if i >= len(text):
            raise self.error("an operand is missing", i)
        c = text[i]
        if c == "(":
            inner, i = self.sequence(i + 1, stop=")")
            return rf"\left({inner}\right)", i
        if c == "[":
            if text.startswith("[[", i):
                return self.matrix(i)
            inner, i = self.sequence(i + 1, stop="]")
            return rf"\left[{inner}\right]", i
        index, k = "", i
        while k < len(text) and text[k] in _FROM_SUPER:
            k += 1
        if k > i and text.startswith("√", k):  # ⁵√x: a root's index
            index, i, c = "".join(_FROM_SUPER[x] for x in text[i:k]), k, "√"
        if c in _ROOT_SIGNS:
            inner, i = self.operand(i + 1)
            degree = f"[{index}]" if index else _DEGREES[c]
            return rf"\sqrt{degree}{{{_bare(inner)}}}", i
        word, i = self.word(i)
        while i < len(text):  # d_model², e^zᵢ: a word with its scripts
            if text[i] in "^_":
                arg, k = self.script_argument(i + 1)
                word, i = f"{word}{text[i]}{{{arg}}}", k
            elif text[i] in _SCRIPT_CHARS:
                k = i
                while k < len(text) and text[k] in _SCRIPT_CHARS:
                    k += 1
                word, i = word + _word(text[i:k]), k
            else:
                break
        return word, i

    def word(self, i: int) -> tuple[str, int]:
        """One word: its letters, digits and scripts; a function's name with its group."""
        text = self.text
        c = text[i]
        k = i
        while k < len(text) and _is_run(text[k]):
            k += 1
        if k == i:
            raise self.error(f"'{c}' cannot start an operand", i)
        while k < len(text) and (text[k] in _FROM_ACCENTS or _is_run(text[k])):
            k += 1  # a word's accented letters: q̃ᵢ
        word = text[i:k]
        if word in _NAMED:
            return f"\\{word} ", k
        if len(word) > 1 and word.isascii() and word.isalpha() and text.startswith("(", k):
            inner, k = self.sequence(k + 1, stop=")")
            return rf"\operatorname{{{word}}}\left({inner}\right)", k
        return _word(word), k

    def script_argument(self, i: int) -> tuple[str, int]:
        """What follows ``^`` or ``_``: a parenthesised group or a bare word of :data:`_WORD`."""
        text = self.text
        if text.startswith("(", i):
            arg, k = self.sequence(i + 1, stop=")")
            if not arg:
                raise self.error("an empty script", i)
            return arg, k
        k = i
        while k < len(text) and _WORD.fullmatch(text[k]):
            k += 1
        if k == i:
            raise self.error("a script without its argument", i)
        return _word(text[i:k]), k

    def matrix(self, i: int) -> tuple[str, int]:
        """``[[a, b], [c, d]]`` as a bmatrix."""
        rows = []
        i += 1  # the outer [
        while True:
            if not self.text.startswith("[", i):
                raise self.error("a matrix row must start with '['", i)
            cells, i = self.cells(i + 1)
            rows.append(" & ".join(cells))
            if self.text.startswith("]", i):
                break
            if not self.text.startswith(", ", i):
                raise self.error("matrix rows are separated by ', '", i)
            i += 2
        return r"\begin{bmatrix}" + r" \\ ".join(rows) + r"\end{bmatrix}", i + 1

    def cells(self, i: int) -> tuple[list[str], int]:
        """The cells of one row, up to its closing bracket, split at the commas between them."""
        depth, start, cells = 0, i, []
        for k in range(i, len(self.text)):
            c = self.text[k]
            if c in "([":
                depth += 1
            elif c in ")]" and depth:
                depth -= 1
            elif (c == "," or c == "]") and depth == 0:
                cells.append(from_unicode(self.text[start:k].strip()))
                start = k + 1
                if c == "]":
                    return cells, k + 1
        raise self.error("a matrix row is not closed", i)


def _word(word: str) -> str:
    r"""A word's letters, digits and scripts as LaTeX: ``qᵢ`` is ``q_{i}``, ``Kᵀ`` is ``K^{\top}``."""
    out = []
    for m in _WORD_PARTS.finditer(word):
        sup, sub, name, other = m.groups()
        if name:  # a word (model, head), printed upright by \text; two letters are a product (aX)
            out.append(f"\\{name} " if name in _NAMED else rf"\text{{{name}}}")
        elif sup:
            for part in re.split("(ᵀ)", sup):  # a transpose beside a power: Xᵀ², one script each
                if part:
                    mapped = "".join(_FROM_SUPER[c] for c in part)
                    out.append("^{\\top}" if part == "ᵀ" else "^{" + mapped + "}")
        elif sub:
            out.append("_{" + "".join(_FROM_SUB[c] for c in sub) + "}")
        elif other in _FROM_ACCENTS:
            if not out or not re.fullmatch(r"[A-Za-z]|\\[A-Za-z]+ ", out[-1]):
                raise UnicodeReadError(f"an accent on nothing in '{word}'")
            out[-1] = rf"\{_FROM_ACCENTS[other]}{{{out[-1].strip()}}}"
        else:
            out.append(_FROM_SYMBOLS[other] + " " if other in _FROM_SYMBOLS else other)
    return "".join(out).strip()


def _bare(latex: str) -> str:
    r"""A group's content without its outer ``\left( … \right)``: the braces of a fraction or
    root group it already."""
    if latex.startswith(r"\left(") and latex.endswith(r"\right)"):
        inner = latex[len(r"\left(") : -len(r"\right)")]
        if "(" not in inner or _one_group("(" + inner.replace(r"\left(", "(").replace(r"\right)", ")") + ")"):
            return inner
    return latex


def visible(text: str) -> str:
    """``text`` with the characters a terminal would act on or hide written as ``⟨U+001B⟩``:
    controls (but a tab), format characters such as the bidirectional overrides (U+202E) and
    line or paragraph separators. A learner's text printed back can then neither move the
    cursor, ring a bell nor reorder what follows it."""
    import unicodedata

    return "".join(
        f"⟨U+{ord(c):04X}⟩"
        if c != "\t" and unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn")
        else c
        for c in text
    )


def first_refused(text: str, allowed: re.Pattern[str]) -> str | None:
    """Where ``text`` holds a character ``allowed`` does not match, the learner's sentence naming
    the first one and its position ("the dollar sign at position 3 is not accepted here"); a
    character that does not print is named by its code point. None where every one is allowed."""
    for pos, ch in enumerate(text, start=1):
        if not allowed.fullmatch(ch):
            shown = (
                "the dollar sign"
                if ch == "$"
                else f"the character {ch if ch.isprintable() else f'U+{ord(ch):04X}'!r}"
            )
            return f"{shown} at position {pos} is not accepted here"
    return None
