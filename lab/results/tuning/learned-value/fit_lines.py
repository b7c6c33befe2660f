"""Fits the lookahead's value to the choice between the lines of one
decision, from the rollouts of `lab/studies/line_data`.

Each decision offers a few lines to a card; each line was played out a
few times against the same completions. A line's outcome is the mean over
its rollouts of `TARGET` (`mix`, the default: the mean of won, the share
of the 44 face-down cards turned up and the runs removed over 8; or `won`,
`turned`, `runs`). Within each decision the outcomes and the counts are
taken as differences from the decision's mean (what every line of one
decision shares, how hard the deal is and how far the game has gone,
drops out), and a least-squares fit with a small ridge gives

    outcome ~ a * score + sum(b_i * count_i)

where `score` is the lookahead's score of the line (its value and the
worth of the card it turns up). So the value that chooses as the
rollouts do is the current one with each weight w_i raised by b_i / a:
printed as the new weights, in the value's units, for `lookahead.rs`.

Half the deals (odd numbers) fit, the other half (even) are held out:
it prints, on the held-out decisions, the mean outcome of the line the
current value chooses (the first), of the line the new weights choose,
and of the best line in hindsight. `ALL=1` fits on every deal.

    python3 fit_lines.py lines-*.tsv.gz
"""
import gzip
import os
import sys
from collections import defaultdict

from fit import solve  # the linear solve of fit.py, beside this script

FEATURES = 16
# lookahead::WEIGHTS (1 and 2 suits) and FOUR_SUIT_WEIGHTS.
WEIGHTS = {
    "2": [-35, -141, -141, -9, -62, -25, -11, -5, 19, -62, -187, -62, 8, -93, 33, 39],
    "4": [82, -128, -128, -8, -41, -37, 17, 5, 13, -36, -145, 94, 12, -70, 16, 26],
}


def outcome(won, down, runs):
    target = os.environ.get("TARGET", "mix")
    if target == "won":
        return won
    if target == "turned":
        return 1 - down / 44
    if target == "runs":
        return runs / 8
    if target == "mix":
        return (won + 1 - down / 44 + runs / 8) / 3
    sys.exit("TARGET: won, turned, runs or mix")


def read(files):
    """{(deal, move): {line: [score, bonus, counts, [outcomes]]}}"""
    decisions = defaultdict(dict)
    for name in files:
        opened = gzip.open(name, "rt") if name.endswith(".gz") else open(name)
        for row in opened:
            f = row.rstrip("\n").split("\t")
            key = (int(f[0]), int(f[1]))
            line = int(f[2])
            y = outcome(int(f[4]), int(f[5]), int(f[6]))
            entry = decisions[key].setdefault(
                line, [float(f[7]), float(f[8]), [float(v) for v in f[9 : 9 + FEATURES]], []]
            )
            entry[3].append(y)
    return decisions


def centred(decision):
    """The lines of a decision as (score, counts, outcome), minus their means."""
    lines = [(e[0], e[2], sum(e[3]) / len(e[3])) for _, e in sorted(decision.items())]
    n = len(lines)
    ms = sum(l[0] for l in lines) / n
    mc = [sum(l[1][i] for l in lines) / n for i in range(FEATURES)]
    my = sum(l[2] for l in lines) / n
    return [(s - ms, [c[i] - mc[i] for i in range(FEATURES)], y - my) for s, c, y in lines]


def fit(decisions, ridge):
    k = FEATURES + 1
    xtx = [[0.0] * k for _ in range(k)]
    xty = [0.0] * k
    for d in decisions:
        for s, c, y in centred(d):
            x = [s / 100.0] + c
            for i in range(k):
                xty[i] += x[i] * y
                for j in range(k):
                    xtx[i][j] += x[i] * x[j]
    for i in range(1, k):
        xtx[i][i] += ridge
    beta = solve(xtx, xty)
    return beta[0] / 100.0, beta[1:]


def chosen(decision, weights):
    """The mean outcome of the line `weights` score best (ties: the first)."""
    best = None
    for line, (score, bonus, counts, ys) in sorted(decision.items()):
        v = sum(w * c for w, c in zip(weights, counts)) + bonus
        if best is None or v > best[0]:
            best = (v, sum(ys) / len(ys))
    return best[1]


def main():
    files = sys.argv[1:]
    decisions = read(files)
    suits = os.environ.get("SUITS", "2")
    old = WEIGHTS[suits]
    ridge = float(os.environ.get("RIDGE", "10"))
    keys = sorted(decisions)
    train = [decisions[k] for k in keys if os.environ.get("ALL") or k[0] % 2 == 1]
    test = [decisions[k] for k in keys if k[0] % 2 == 0]
    a, b = fit(train, ridge)
    print(f"decisions: {len(train)} fitted, {len(test)} held out; a = {a:.6f}")
    if a <= 0:
        sys.exit("the score does not foretell the rollouts: no new weights")
    new = [round(w + bi / a) for w, bi in zip(old, b)]
    print("new weights:", ", ".join(str(w) for w in new))
    for name, held in (("held out", test), ("fitted", train)):
        if not held:
            continue
        first = sum(chosen(d, old) for d in held) / len(held)
        refit = sum(chosen(d, new) for d in held) / len(held)
        best = sum(max(sum(e[3]) / len(e[3]) for e in d.values()) for d in held) / len(held)
        differ = sum(1 for d in held if chosen(d, old) != chosen(d, new))
        print(
            f"{name}: mean outcome, current value {first:.4f}, new weights {refit:.4f}, "
            f"best in hindsight {best:.4f}; choices differing in outcome: {differ} of {len(held)}"
        )
    # A player choosing by rollouts: the line whose first half of rollouts
    # did best, valued by the second half (unbiased), against the first
    # line valued by the same second half.
    split = [d for d in test + train if min(len(e[3]) for e in d.values()) >= 2]
    by_rollouts = first_line = 0.0
    for d in split:
        lines = [e for _, e in sorted(d.items())]
        h = [len(e[3]) // 2 for e in lines]
        pick = max(range(len(lines)), key=lambda i: (sum(lines[i][3][: h[i]]) / h[i], -i))
        late = lambda i: sum(lines[i][3][h[i] :]) / (len(lines[i][3]) - h[i])
        by_rollouts += late(pick)
        first_line += late(0)
    if split:
        print(
            f"every decision: the line of the best first half of rollouts scores {by_rollouts / len(split):.4f} "
            f"on the second half, the first line {first_line / len(split):.4f}"
        )


main()
