r"""LaTeX math as Unicode text, for the terminal: ``\mathbb{E}[q_i^2] = 1`` reads ``𝔼[qᵢ²] = 1``.

Only the small vocabulary the derivations' rules and titles use (Greek letters, operators,
``\frac``, ``\sqrt``, ``\operatorname``, accents, sub- and superscripts); anything else keeps
its name without the backslash, so no raw LaTeX reaches a terminal. Words outside ``$...$`` are
left alone by :func:`words`.
"""

from __future__ import annotations

import re

_SYMBOLS = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "theta": "θ", "lambda": "λ", "mu": "μ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ",
    "phi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω", "Sigma": "Σ", "Delta": "Δ", "Omega": "Ω",
    "sum": "∑", "prod": "∏", "partial": "∂", "infty": "∞", "times": "×", "cdot": "·",
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "neq": "≠", "ne": "≠", "approx": "≈",
    "sim": "~", "in": "∈", "to": "→", "iff": "⟺", "implies": "⟹", "top": "ᵀ", "pm": "±",
    "lVert": "‖", "rVert": "‖", "Vert": "‖", "lvert": "|", "rvert": "|", "mid": "|", "ldots": "…",
    "dots": "…", "cdots": "⋯", "quad": "  ", "qquad": "    ", ",": " ", ";": " ", "!": "", " ": " ",
    "{": "{", "}": "}", "%": "%", "_": "_", "&": "&", "#": "#", "$": "$", "\\": " ",
    "left": "", "right": "", "big": "", "Big": "", "bigl": "", "bigr": "", "displaystyle": "",
    "log": "log", "exp": "exp", "max": "max", "min": "min", "lim": "lim", "det": "det",
}
_BLACKBOARD = {"E": "𝔼", "R": "ℝ", "N": "ℕ", "Z": "ℤ", "Q": "ℚ", "P": "ℙ", "C": "ℂ"}
_BOLD_DIGITS = {"0": "𝟎", "1": "𝟏"}
_ACCENTS = {"tilde": "\u0303", "bar": "\u0305", "hat": "\u0302", "vec": "\u20d7", "dot": "\u0307"}
_SUPER = dict(zip("0123456789+-=()nijkTt", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱʲᵏᵀᵗ", strict=True))
_SUB = dict(zip("0123456789+-=()aeijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ", strict=True))
_TOKEN = re.compile(r"\\([A-Za-z]+|.)|([{}^_])|([^\\{}^_])", re.S)


def words(text: str) -> str:
    """Text with each ``$...$`` stretch of math turned into Unicode."""
    parts = text.split("$")
    return "".join(to_unicode(p) if k % 2 else p for k, p in enumerate(parts))


_MATRIX = re.compile(r"\\begin\{([bpvBV]?matrix\*?)\}(.*?)\\end\{\1\}", re.S)


def _matrix(m: re.Match) -> str:
    """A matrix as its rows: ``[[0, -∞], [0, 0]]``."""
    rows = [r for r in re.split(r"\\\\(?:\[[^\]]*\])?", m.group(2)) if r.strip()]
    return "[" + ", ".join("[" + ", ".join(to_unicode(c) for c in r.split("&")) + "]" for r in rows) + "]"


def to_unicode(latex: str) -> str:
    """One LaTeX math string as Unicode text."""
    latex = _MATRIX.sub(_matrix, latex)
    tokens = [m.group(0) for m in _TOKEN.finditer(latex)]
    out, _ = _sequence(tokens, 0, stop=None)
    text = re.sub(r" {2,}", " ", out).strip()
    return re.sub(r"\s*([=≤≥≠≈∈→⟺~])\s*", r" \1 ", text).replace("( ", "(").strip()


def _sequence(tokens: list[str], i: int, stop: str | None) -> tuple[str, int]:
    out = []
    while i < len(tokens):
        t = tokens[i]
        if t == stop:
            return "".join(out), i + 1
        piece, i = _atom(tokens, i)
        if i < len(tokens) and tokens[i] in ("^", "_"):
            while i < len(tokens) and tokens[i] in ("^", "_"):
                mark = tokens[i]
                arg, i = _atom(tokens, i + 1)
                piece += _script(arg, _SUPER if mark == "^" else _SUB, mark)
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
        a, i = _atom(tokens, i + 1)
        return f"√{_wrap(a)}", i
    if name == "mathcal":  # 𝒩 for \mathcal{N}; a letter without a script form stays itself
        a, i = _atom(tokens, i + 1)
        return "".join(_SCRIPT.get(c, c) for c in a), i
    if name in ("operatorname", "mathrm", "text", "textrm", "mathit", "mbox", "textbf", "mathsf"):
        return _atom(tokens, i + 1)
    if name == "mathbb":
        a, i = _atom(tokens, i + 1)
        return "".join(_BLACKBOARD.get(c, c) for c in a), i
    if name == "mathbf":
        a, i = _atom(tokens, i + 1)
        return "".join(_BOLD_DIGITS.get(c, c) for c in a), i
    if name in _ACCENTS:
        a, i = _atom(tokens, i + 1)
        return (a + _ACCENTS[name]) if len(a) == 1 else a + "~" if name == "tilde" else a, i
    return _SYMBOLS.get(name, name), i + 1


#: Script capitals (Unicode's mathematical script letters; B, E, F, H, I, L, M, R have their own).
_SCRIPT = {c: chr(0x1D49C + k) for k, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZ")} | {
    "B": "ℬ", "E": "ℰ", "F": "ℱ", "H": "ℋ", "I": "ℐ", "L": "ℒ", "M": "ℳ", "R": "ℛ",
}


def _script(arg: str, table: dict[str, str], mark: str) -> str:
    arg = arg.strip()
    if arg and all(c in table for c in arg):
        return "".join(table[c] for c in arg)
    if arg == "ᵀ":
        return arg
    return f"{mark}{arg}" if re.fullmatch(r"\w+", arg) else f"{mark}({arg})"


def _wrap(s: str) -> str:
    s = s.strip()
    return s if len(s) == 1 or re.fullmatch(r"[\w.]+|√\S+|\(.*\)", s) else f"({s})"
