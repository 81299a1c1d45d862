"""2 vs 2 (rules.md 7): the value written when the second player takes the proposed cell."""

import pytest
from yamb.pairs import merge_proposal
from yamb.rules import GRIDS

YAMB = GRIDS["yamb"]


@pytest.mark.parametrize(
    ("row_id", "proposed", "own", "expected"),
    [
        ("max", 22, 27, 27),
        ("max", 27, 22, 27),
        ("straight", 66, 0, 66),
        ("yamb", 0, 65, 65),
        ("ones", 3, 3, 3),
    ],
)
def test_merge_proposal_keeps_better_value(row_id, proposed, own, expected):
    # given a proposal and the second player's own value for the same cell
    # when
    result = merge_proposal(YAMB, row_id, proposed, own)
    # then
    assert result == expected


@pytest.mark.parametrize(("proposed", "own", "expected"), [(12, 9, 9), (9, 12, 9), (7, 7, 7)])
def test_merge_proposal_keeps_smaller_in_min(proposed, own, expected):
    # given a Min proposal and the second player's own Min
    # when
    result = merge_proposal(YAMB, "min", proposed, own)
    # then
    assert result == expected


def test_merge_proposal_unknown_row_refused():
    # given a row the grid does not have
    # when / then
    with pytest.raises(KeyError):
        merge_proposal(YAMB, "chance", 10, 20)
