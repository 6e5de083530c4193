"""Resuming from an --out an earlier run left torn (symattn/grading/batch/files.py, _complete):
a row whose last field, the seconds, was cut off whole is judged again, not kept."""

from __future__ import annotations

from symattn.grading.batch.grade import grade_file


def test_a_row_torn_before_its_seconds_is_judged_again(tmp_path):
    klass, out = tmp_path / "c.csv", tmp_path / "o.csv"
    klass.write_text("learner,exercise,answer\na,ex6.2,1.96\nb,ex6.2,4\n", encoding="utf-8")
    first = grade_file(str(klass), str(out), jobs=1)
    assert [r["verdict"] for r in first.records] == ["correct", "incorrect"]
    raw = out.read_bytes()
    assert raw.endswith(b"\r\n") or raw.endswith(b"\n")
    out.write_bytes(raw[: raw.rstrip(b"\r\n").rindex(b",") + 1])  # b's row up to its last comma
    judged: list[str] = []
    again = grade_file(
        str(klass), str(out), jobs=1, on_row=lambda row, rec: judged.append(row.get("learner"))
    )
    assert judged == ["b"] and again.resumed == 1
    assert [r["verdict"] for r in again.records] == ["correct", "incorrect"]
    assert float(again.records[1]["seconds"]) >= 0
