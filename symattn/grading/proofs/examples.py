r"""Learner derivations shown on the exercises page: the model solutions, and a slip each.

The correct ones are the module's own model solutions written as a learner would; the wrong
ones plant the slips learners make (Var(aX) = a Var(X); softmax(P S P^T) = P^T softmax(S) P).
``symattn build`` checks each with :func:`symattn.grading.proofs.proof_judge.check_derivation`.
"""

from __future__ import annotations

EXAMPLES: dict[str, dict[str, str]] = {
    "ex6.3": {
        "correct": r"""% Rule 4: the variances of the d_k independent products add.
\operatorname{Var}(z) = \sum_{i=1}^{d_k} \operatorname{Var}(q_i k_i)
= d_k \cdot 1
= d_k
% Rule 3: a constant comes out squared.
\operatorname{Var}\left(\frac{z}{\sqrt{d_k}}\right) = \frac{1}{d_k}\operatorname{Var}(z)
= 1
""",
        "wrong": r"""\operatorname{Var}(z) = \sum_{i=1}^{d_k} \operatorname{Var}(q_i k_i)
= d_k
\operatorname{Var}\left(\frac{z}{\sqrt{d_k}}\right) = \frac{1}{\sqrt{d_k}}\operatorname{Var}(z)
= \sqrt{d_k}
""",
    },
    "ex6.7": {
        "correct": r"""% The scores of PX: the transpose of a product reverses it.
(PQ)(PK)^\top = P Q K^\top P^\top
\operatorname{Attention}(PX) = \operatorname{softmax}\left(\frac{(PQ)(PK)^\top}{\sqrt{d_k}}\right) PV
= \operatorname{softmax}\left(\frac{P Q K^\top P^\top}{\sqrt{d_k}}\right) PV
% Softmax works row by row, so it commutes with reordering.
= P \operatorname{softmax}\left(\frac{Q K^\top}{\sqrt{d_k}}\right) P^\top P V
% P^T P = I.
= P \operatorname{softmax}\left(\frac{Q K^\top}{\sqrt{d_k}}\right) V
= P \operatorname{Attention}(X)
""",
        "wrong": r"""% The slip: P^T on the left, P on the right.
\operatorname{Attention}(PX) = \operatorname{softmax}\left(\frac{(PQ)(PK)^\top}{\sqrt{d_k}}\right) PV
= \operatorname{softmax}\left(\frac{P Q K^\top P^\top}{\sqrt{d_k}}\right) PV
= P^\top \operatorname{softmax}\left(\frac{Q K^\top}{\sqrt{d_k}}\right) P P V
= P \operatorname{Attention}(X)
""",
    },
}
