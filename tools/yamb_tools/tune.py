"""Offline tuning of the hard bot's constants (value.py) by simulation.

    .venv/bin/python -m yamb_tools.tune KEY [--games N] [--rounds R] [--bonus W ...]

KEY is a PARS key (yamb5, yamb6, classic, scandinavian, yacht, generala). Each round plays N
seeded solo games with the hard bot (Yamb: preset 7, where every column type is played) and
sets every par to the average score the bot then wrote in that column type and row, crossed-out
zeros included: a fixed point of "a cell left open is worth what this bot ends up writing in
it". `--bonus` instead compares bonus weights on the same dice (common random numbers). It
prints the averages and the pars to paste into value.py.
"""

import argparse
import statistics
from collections import defaultdict
from multiprocessing import Pool

from yamb.bots import search, value
from yamb.bots.play import play
from yamb.dice import SeededDice
from yamb.game import Game
from yamb.layout import Layout, layout_for
from yamb.rules import PRESETS

type Pars = dict[str, tuple[float, ...]]


PRESET = 7


def layout_of(key: str) -> Layout:
    if key.startswith("yamb"):
        return layout_for("yamb", PRESETS[PRESET], int(key[4:]))
    return layout_for(key)


def _games(
    task: tuple[str, Pars, float, int, int, int],
) -> tuple[list[int], dict[tuple[str, int], list[int]]]:
    key, pars, bonus, seed, games, preset = task
    global PRESET  # noqa: PLW0603 (the worker process's preset)
    PRESET = preset
    value.PARS[value.pars_key(layout_of(key))] = dict(pars)
    value.BONUS_WEIGHT = bonus
    search.forget()
    layout = layout_of(key)
    source = SeededDice(seed)
    totals = []
    written: dict[tuple[str, int], list[int]] = defaultdict(list)
    for _ in range(games):
        game = Game(layout, ["bot"])
        play(game, ["hard"], source)
        sheet = game.sheets[0]
        totals.append(sheet.total())
        for c, column in enumerate(layout.columns):
            for row, score in enumerate(sheet.values[c]):
                assert score is not None
                written[column.id, row].append(score)
    return totals, dict(written)


def run(
    key: str, pars: Pars, bonus: float, games: int, seed: int
) -> tuple[list[int], dict[tuple[str, int], float]]:
    half = games // 2
    tasks = [
        (key, pars, bonus, seed, half, PRESET),
        (key, pars, bonus, seed + 1, games - half, PRESET),
    ]
    with Pool(2) as pool:
        parts = pool.map(_games, tasks)
    totals = [t for part, _ in parts for t in part]
    merged: dict[tuple[str, int], list[int]] = defaultdict(list)
    for _, written in parts:
        for cell, scores in written.items():
            merged[cell].extend(scores)
    return totals, {cell: statistics.fmean(scores) for cell, scores in merged.items()}


def _report(label: str, totals: list[int]) -> None:
    mean = statistics.fmean(totals)
    error = statistics.stdev(totals) / len(totals) ** 0.5
    print(f"{label}: {mean:.2f} ± {error:.2f} over {len(totals)} games", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("key")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bonus", type=float, nargs="*")
    parser.add_argument("--shared", action="store_true", help="one par per row for all types")
    parser.add_argument("--damping", type=float, default=0.0)
    parser.add_argument("--preset", type=int, default=7, help="Yamb: the columns played")
    args = parser.parse_args()
    global PRESET  # noqa: PLW0603 (the command's preset)
    PRESET = args.preset
    layout = layout_of(args.key)
    given = value.PARS[value.pars_key(layout)]
    pars = {c.id: given.get(c.id) or given["*"] for c in layout.columns}
    if args.bonus:
        for weight in args.bonus:
            totals, _ = run(args.key, pars, weight, args.games, args.seed)
            _report(f"bonus weight {weight}", totals)
        return
    for round_ in range(args.rounds):
        totals, means = run(args.key, pars, value.BONUS_WEIGHT, args.games, args.seed)
        _report(f"round {round_}", totals)
        ids = [column.id for column in layout.columns]
        rows = range(len(pars[ids[0]]))
        if args.shared:
            shared = [statistics.fmean(means[c, row] for c in ids) for row in rows]
            measured = {c: shared for c in ids}
        else:
            measured = {c: [means[c, row] for row in rows] for c in ids}
        keep = args.damping
        pars = {
            c: tuple(round(keep * pars[c][row] + (1 - keep) * measured[c][row], 1) for row in rows)
            for c in ids
        }
        for column_id, column_pars in pars.items():
            print(f"    {column_id!r}: {column_pars},")


if __name__ == "__main__":
    main()
