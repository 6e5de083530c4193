r"""Math written in plain ASCII inside a sentence, as Markdown with ``$...$`` LaTeX.

Theorem statements are written as plain text ("Var(q . k) = d_k, so dividing by sqrt(d_k)
..."). For the site, :func:`markdown` finds the stretches that are math (tokens with ``_``,
``^``, ``=``, ``/``, ``sqrt`` or a function call, and the operators between them) and writes
them as LaTeX (``$\operatorname{Var}(q \cdot k) = d_k$``), leaving the words alone. A statement
that already marks its math with ``$`` is returned unchanged.
"""

from __future__ import annotations

import re

_FUNCTIONS = ("Var", "Cov", "softmax", "diag", "Attention", "rank", "exp", "log", "max", "min")
_GREEK = ("delta", "chi", "sigma", "mu", "alpha", "beta", "lambda", "pi")
_OPERATORS = {"=", "+", "-", ".", "~", "<", ">", "<=", ">=", "*", "x", "->", "!="}
_MATHY = re.compile(r"[_^=<>/]|sqrt|\w\(|\)\Z|\A\(|\|")
_TRAIL = ",.;:"
_WORDS = {
    "a",
    "an",
    "as",
    "at",
    "by",
    "if",
    "in",
    "is",
    "of",
    "or",
    "to",
    "and",
    "the",
    "for",
    "all",
    "one",
    "it",
    "be",
    "so",
    "on",
    "no",
    "are",
    "its",
    "has",
    "per",
    "two",
    "row",
    "set",
}


def markdown(text: str) -> str:
    """``text`` with its plain-ASCII math stretches written as inline LaTeX."""
    if "$" in text:
        return text
    tokens = text.split(" ")
    mathy = [_is_math(t) for t in tokens]
    # operators and short symbols next to math are math too: "Var(q . k) = d_k", "4 N d^2"
    changed = True
    while changed:
        changed = False
        for i, t in enumerate(tokens):
            core = t.rstrip(_TRAIL)
            short = t in _OPERATORS or (
                re.fullmatch(r"[(\[]?[A-Za-z0-9]{1,3}[)\],]?", t) is not None and core.lower() not in _WORDS
            )
            near = (i > 0 and mathy[i - 1] and not tokens[i - 1].endswith((".", ";", ":"))) or (
                i + 1 < len(tokens) and mathy[i + 1] and not t.endswith((".", ";", ":"))
            )
            if not mathy[i] and short and near:
                mathy[i] = changed = True
    out: list[str] = []
    i = 0
    while i < len(tokens):
        if not mathy[i]:
            out.append(tokens[i])
            i += 1
            continue
        j = i
        while j + 1 < len(tokens) and mathy[j + 1]:
            j += 1
        span = " ".join(tokens[i : j + 1])
        stripped = span.rstrip(_TRAIL)
        tail = span[len(stripped) :]
        out.append(f"${to_latex(stripped)}${tail}")
        i = j + 1
    return " ".join(out)


def _is_math(token: str) -> bool:
    core = token.rstrip(_TRAIL)
    return bool(core) and bool(_MATHY.search(core)) and not core.startswith("http")


def _power(m: re.Match[str]) -> str:
    return "^{" + ("\\top" if m.group(1) == "T" else m.group(1)) + "}"


def to_latex(s: str) -> str:
    """One stretch of ASCII math as LaTeX."""
    s = re.sub(r"sqrt\(([^()]*)\)", r"\\sqrt{\1}", s)
    s = re.sub(r"sqrt(\w+)", r"\\sqrt{\1}", s)
    s = re.sub(r"\bchi2_(\w+)", r"\\chi^2_{\1}", s)
    s = re.sub(r"\^(\\sqrt\{[^}]*\}|[A-Za-z0-9]+)", _power, s)
    s = re.sub(r"\b(" + "|".join(_GREEK) + r")_(\w+)", r"\\\1_{\2}", s)
    s = re.sub(r"\b([A-Za-z])_([A-Za-z]{2,})\b", r"\1_{\\text{\2}}", s)
    s = re.sub(r"\b([A-Za-z])_(\w+)", r"\1_{\2}", s)
    s = re.sub(r"\b(" + "|".join(_FUNCTIONS) + r")\(", r"\\operatorname{\1}(", s)
    s = re.sub(r"\b(" + "|".join(_FUNCTIONS) + r")_", r"\\operatorname{\1}_", s)
    s = s.replace(" . ", r" \cdot ").replace("<=", r"\le ").replace(">=", r"\ge ").replace("!=", r"\ne ")
    s = s.replace("...", r"\dots").replace("->", r"\to ")
    s = s.replace(" ~ ", r" \sim ")
    return s
