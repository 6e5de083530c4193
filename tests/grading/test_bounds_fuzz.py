"""Every answer and proof is answered within 5 s and 500 MB, hostile ones included.

Towers of exponents, huge exponents inside the tolerance (whose value is right but whose
rebuilding once hung the parent), deep nesting and costly derivations, each through the
command (``main(argv)``, in this process): the wall clock of each call, the memory of its
workers and the growth of this process are measured.
"""

from __future__ import annotations

import random
import resource
import time

import pytest

from symattn.cli import main

SEED = 25
TOWERS = [
    r"1.95 + 10^{-10^{10}}",
    r"1.95 + 10^{-10^{10^{10}}}",
    r"1.96 + 0 \cdot 9^{9^{9^{9}}}",
    r"\frac{1.96 \cdot 10^{10^{10}}}{10^{10^{10}}}",
    r"2^{2^{2^{2^{2}}}}",
    r"e^{e^{e^{e^{e^{10}}}}}",
    r"1.96 + 2^{-2^{2^{2^{5}}}}",
    r"1.96^{10^{10^{10}}}",
    r"\sqrt[10^{10}]{1.96^{10^{10}}}",
]


def _nested(rng: random.Random) -> str:
    inner = "1.96"
    for _ in range(rng.randint(10, 39)):
        inner = rng.choice(
            [r"\left({}\right)", "{{{}}}", r"\frac{{1}}{{\frac{{1}}{{{}}}}}", r"\sqrt{{{}^{{2}}}}"]
        ).format(inner)
    return inner


def _answers() -> list[tuple[str, str]]:
    rng = random.Random(SEED)
    out = [("ex6.2", t) for t in TOWERS]
    out += [("ex6.2", _nested(rng)) for _ in range(6)]
    out += [
        ("ex6.5", r"N > 8192 + 10^{-10^{10}}"),
        ("ex6.5", r"N^{10^{10}} > 8192^{10^{10}}"),
        ("ex6.5", r"N > 2^{2^{2^{2^{2}}}}"),
        ("ex6.4", r"[[0, -10^{10^{10}}, -\infty], [0, 0, -\infty], [0, 0, 0]]"),
        (
            "ex6.4",
            r"\begin{bmatrix} 0 \cdot 10^{10^{10}} & -\infty & -\infty \\ 0 & 0 & -\infty \\ 0 & 0 & 0 \end{bmatrix}",  # noqa: E501
        ),
        ("ex6.6", r"\frac{1}{N}\sum_{j=1}^{N} v_j + 0 \cdot \sum_{j=1}^{999999999999} 1"),
        ("ex6.6", r"\frac{1}{N}\sum_{j=1}^{N^{4}} v_j"),
    ]
    for k in range(4):
        tower = "2" + "^{2" * (k + 3) + "}" * (k + 3)
        out.append(("ex6.2", rf"1.96 + {tower} - {tower}"))
    return out


def _proofs() -> list[tuple[str, str]]:
    deep = r"\operatorname{softmax}(" * 25 + "S" + ")" * 25
    many = "\n".join([r"\operatorname{Var}(z) = \sum_{i=1}^{d_k} \operatorname{Var}(q_i k_i)"] * 60)
    moments = r"\mathbb{E}[z^8] = \sum_{i=1}^{d_k}\sum_{j=1}^{d_k}\sum_{l=1}^{d_k}\sum_{m=1}^{d_k} \mathbb{E}[q_i^2 k_j^2 q_l^2 k_m^2]"  # noqa: E501
    return [
        ("ex6.7", f"{deep} = {deep}\n= P {deep} P^\\top"),
        ("ex6.3", many),
        ("ex6.3", moments),
        ("ex6.3", r"\operatorname{Var}(z^8) = \mathbb{E}[z^{16}] - \mathbb{E}[z^8]^2"),
        ("ex6.7", "\n".join([r"(P X W^Q)^\top = (W^Q)^\top X^\top P^\top"] * 60)),
    ]


def _modules() -> list[str]:
    """Module texts whose formulas are towers, huge powers and deep nesting."""
    deep = "(" * 39 + "2" + ")" * 39
    formulas = [
        r"$2^{10^{8}} = 1$",
        r"$e^{e^{e^{10}}} = 5$",
        r"$(1+10^{-50})^{10^{60}} = 3$",
        r"$9^{9^{9}} \approx 1.0 \times 10^{5}$",
        f"${deep} = 2$",
        r"$\sum_{i=1}^{10^{9}} i = 5$",
    ]
    one = "# M\n\nLet the entries be independent with mean 0 and variance 1.\n\n" + " ".join(formulas) + "\n"
    many = "# M\n\n" + "\n\n".join(
        f"Here $e^{{{k}.5}} \\approx {k}$ and ${k}^{{{k}}} = {k}$." for k in range(400)
    )
    return [one, many]


def _run(argvs: list[list[str]]) -> tuple[list[tuple[str, float, float, int]], float, float]:
    """In a worker of its own, so that the memory measured is these calls' only: each call's
    time and exit code, the peak of the calls' workers, and this process's growth, in MB."""
    import contextlib
    import io

    def cpu() -> float:
        own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out = []
    for argv in argvs:
        start, start_cpu = time.monotonic(), cpu()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = main(argv)
        out.append((" ".join(argv[1:])[:80], time.monotonic() - start, cpu() - start_cpu, code))
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    return out, children, grown


#: One worker runs this module, so its costly module fixture is computed once, not once
#: per worker (CI runs with --dist loadgroup).
pytestmark = pytest.mark.xdist_group("bounds_fuzz")


@pytest.fixture(scope="module")
def measured(tmp_path_factory) -> tuple[list[tuple[str, float, float, int]], float, float]:
    from symattn.grading.worker import isolated

    folder = tmp_path_factory.mktemp("proofs")
    argvs = [["check", ex, "--", text] for ex, text in _answers()]
    for k, (ex, text) in enumerate(_proofs()):
        path = folder / f"p{k}.tex"
        path.write_text(text, encoding="utf-8")
        argvs.append(["check", ex, "--steps", str(path)])
    for k, text in enumerate(_modules()):
        path = folder / f"m{k}.md"
        path.write_text(text, encoding="utf-8")
        argvs.append(["audit", str(path)])
    return isolated(_run, argvs, timeout=900, memory_mb=3000, cpu_seconds=900, plain=False)


#: CPU seconds a hostile call may spend (its own and its workers'): 5 for an answer or an audit;
#: a derivation, 5 or half a second a line, whichever is more (the sixty-line proof below, each
#: line judged, spends 4.5 s on an idle machine and 5.7 s beside the browser tests).
CPU_BUDGET, CPU_A_LINE = 5.0, 0.5


def test_every_hostile_input_is_answered_within_its_cpu_budget(measured):
    """Each call stays within its CPU budget: the workers' CPU limits hold. Wall-clock time
    depends on how busy the machine is: bench/limits.py measures it."""
    calls, _, _ = measured
    assert len(calls) == len(_answers()) + len(_proofs()) + len(_modules())
    lines = [len([ln for ln in text.splitlines() if ln.strip()]) for _, text in _proofs()]
    budgets = [CPU_BUDGET] * len(_answers()) + [max(CPU_BUDGET, CPU_A_LINE * n) for n in lines]
    budgets += [CPU_BUDGET] * len(_modules())
    costly = [(what, round(c, 1), b) for (what, _, c, _), b in zip(calls, budgets, strict=True) if c > b]
    assert costly == []
    assert {code for _, _, _, code in calls} <= {0, 1, 2}


def test_memory_stays_under_500_mb(measured):
    """No worker of these calls reached 500 MB, and the process that ran them grew by less than
    50 MB: no expression from a learner's text was built outside a worker's limits."""
    _, children, grown = measured
    assert children < 500
    assert grown < 50
