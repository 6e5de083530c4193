"""Counts a text carries (symattn/grading/audit/counts.py, issue 47): a set or a dataset stated as
parts, counted again later. Sentences after UvA's tutorial 6; each count worked by hand (9 + 1 =
10; 600 × 100 = 60,000 = 50,000 + 10,000)."""

from __future__ import annotations

import pytest

from symattn.grading.audit.counts import RULE
from symattn.grading.audit.keys import audit_claims
from symattn.grading.audit.notclaims import NOT_A_CLAIM, REPORT

SET = "We will show the model a set of 9 images of one class, and 1 image from another class.\n"
DATA = "CIFAR100 has 600 images for 100 classes each with a resolution of 32x32.\n"


def _verdicts(text: str) -> list[tuple[str, str | None]]:
    return [(c.verdict, c.value) for c in audit_claims(text) if c.rule == RULE]


@pytest.mark.parametrize(
    ("later", "verdicts"),
    [
        ("The set of 10 images is finally returned.", [("certified", "the set: 10 (9 + 1 stated before)")]),
        (
            "The set of 11 images is finally returned.",
            [("wrong", "the set: 10 (9 + 1 stated before), not 11")],
        ),
        (
            "Each row shows an input set, where the first 9 are from the same class.",
            [("certified", "the alike part: 9 (9 + 1 stated before)")],
        ),
        (
            "Each row shows an input set, where the first 10 are from the same class.",
            [("wrong", "the alike part: 9 (9 + 1 stated before), not 10")],
        ),
        (
            "Mistakes are predictions other than 9, as the anomaly is always at the last position.",
            [("certified", "the last position: 9 (9 + 1 stated before)")],
        ),
        (
            "Mistakes are predictions other than 8, as the anomaly is always at the last position.",
            [("wrong", "the last position: 9 (9 + 1 stated before), not 8")],
        ),
        # counted from 1, as the text says: the last of 10 is 10
        (
            "Positions are numbered from 1, so a prediction other than 9 is a mistake, as the anomaly is "
            "always at the last position.",
            [("wrong", "the last position: 10 (9 + 1 stated before), not 9")],
        ),
    ],
)
def test_a_set_stated_as_parts_is_counted_again(later, verdicts):
    assert _verdicts(SET + later + "\n") == verdicts


@pytest.mark.parametrize(
    ("later", "verdicts"),
    [
        (
            "The training should have 50k elements, and the test 10k images.",
            [
                (
                    "certified",
                    "50,000 + 10,000 = 600 × 100 = 60,000: the training and test sets make up the dataset",
                )
            ],
        ),
        (
            "The training should have 40k elements, and the test 10k images.",
            [
                (
                    "wrong",
                    "40,000 + 10,000 ≠ 600 × 100 = 60,000: the training and test sets make up the dataset",
                )
            ],
        ),
        (
            "The validation set has the same number of images for all 100 labels.",
            [("certified", "the number of classes: 100 (600 × 100 stated before)")],
        ),
        (
            "The validation set has the same number of images for all 10 labels.",
            [("wrong", "the number of classes: 100 (600 × 100 stated before), not 10")],
        ),
    ],
)
def test_a_dataset_of_classes_is_counted_again(later, verdicts):
    assert _verdicts(DATA + later + "\n") == verdicts


def test_a_dataset_is_a_report_and_a_set_stays_a_claim_of_its_sentence():
    claims = audit_claims(SET + DATA)
    assert [c.verdict for c in claims] == ["unchecked", NOT_A_CLAIM]
    assert claims[1].rule == REPORT


@pytest.mark.parametrize(
    "text",
    [
        # another set, described anew or qualified (a hostile review's true texts)
        SET + "For visualization, we plot the set of 4 images with the highest attention weights.",
        SET.replace("9 images", "5 images")
        + "In the 5-way 5-shot setting, the set of 25 images contains five of each.",
        SET + "In the CIFAR test split, sorted by label, the first 1000 images are from the same class.",
        # two sets stated: which one a later count means is a guess
        SET
        + SET.replace("9 images", "4 images")
        + "Going back to the first task, the set of 10 images is harder.",
        # another section: another subject
        "## Task\n\n"
        + SET
        + "\n## Features\n\nFor the plot we pick the set of 500 images with the lowest loss.",
        # splits with a validation set, a subsample, another dataset
        DATA + "We hold out 5k training images for validation, so the training set has 45k images, "
        "and the test 10k images.",
        DATA + "To speed things up we subsample: the training set has 10k images, and the test 2k images.",
        DATA + "By comparison, on ImageNet the training set has 1.28M images, and the test set 100k.",
        # other classes: another dataset named, some of the classes kept
        DATA + "Its sibling CIFAR10 is much easier: a linear probe is accurate for all 10 classes.",
        DATA + "When we fine-tune on Oxford Pets, the head is retrained for all 37 classes.",
        DATA
        + "To keep training short, we keep only 10 of the classes, with equal counts for all 10 classes.",
        # not a count per class: the dataset is not stated
        "CIFAR100 has 600 images for 100 classes. The training set has 50k images, and the test 10k images.",
    ],
)
def test_counts_of_something_else_are_not_read(text):
    assert _verdicts(text + "\n") == []
