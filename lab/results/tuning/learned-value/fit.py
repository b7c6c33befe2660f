"""Fits the lookahead's value to the outcomes of blind games.

Reads the lines of `lab/studies/value_data` (deal, move, won, face down and
runs removed at the end, then the counts of `lookahead::features`), fits
a logistic regression of "the game was won" on the counts by Newton's
method (a small ridge, 1.0, on every weight but the intercept), and
prints the weights scaled to the hand-made value's units: the slope of
the hand-made value on the fitted log-odds over the same positions, so
that the card a line turns up (`reveal_bonus`, in those units) weighs
as much against the rest as before. Plain Python, no packages.

    python3 fit.py data-hand.tsv.gz data-w2.tsv.gz

`TARGET=` fits another outcome of the game than "won" (a share between 0
and 1, the same regression): `turned`, the share of the 44 cards face
down at the start that were turned up; `runs`, the runs removed over 8;
`mix`, the mean of the three (won, turned, runs). At 4 suits few games
are won (22 of 400), so "won" alone tells little; `mix` is what the
4-suit weights are fitted to.
"""
import gzip
import math
import os
import sys

FEATURES = int(os.environ.get("COUNTS", "16"))  # COUNTS=12: the first 12 only
# lookahead::WEIGHTS before the learned weights (zero for the counts the
# hand-made value did not use).
HAND = [400, -12, 40, 10, -3, -3, -3, 6, 46, 0, 0, 0, 0, 0, 0, 0][:FEATURES]


def read(files):
    rows, won = [], []
    for name in files:
        opened = gzip.open(name, "rt") if name.endswith(".gz") else open(name)
        for line in opened:
            fields = line.split("\t")
            rows.append([1.0] + [float(v) for v in fields[5 : 5 + FEATURES]])
            target = os.environ.get("TARGET", "won")
            if target == "won":
                won.append(int(fields[2]))
            elif target == "turned":
                won.append(1 - float(fields[3]) / 44)
            elif target == "runs":
                won.append(float(fields[4]) / 8)
            elif target == "mix":
                won.append((int(fields[2]) + 1 - float(fields[3]) / 44 + float(fields[4]) / 8) / 3)
            else:
                sys.exit("TARGET: won, turned, runs or mix")
    return rows, won


def solve(a, b):
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(n):
            if r != c and m[c][c]:
                f = m[r][c] / m[c][c]
                for j in range(c, n + 1):
                    m[r][j] -= f * m[c][j]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(rows, won, ridge=1.0, rounds=10):
    k = len(rows[0])
    w = [0.0] * k
    for _ in range(rounds):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, y in zip(rows, won):
            z = max(-30.0, min(30.0, sum(a * b for a, b in zip(w, x))))
            p = 1 / (1 + math.exp(-z))
            for i in range(k):
                grad[i] += (y - p) * x[i]
                for j in range(i, k):
                    hess[i][j] += x[i] * p * (1 - p) * x[j]
        for i in range(k):
            for j in range(i):
                hess[i][j] = hess[j][i]
            if i:
                hess[i][i] += ridge
                grad[i] -= ridge * w[i]
        w = [a + b for a, b in zip(w, solve(hess, grad))]
    return w


def main():
    rows, won = read(sys.argv[1:])
    w = fit(rows, won)
    hand = [sum(a * b for a, b in zip(HAND, x[1:])) for x in rows]
    logit = [sum(a * b for a, b in zip(w[1:], x[1:])) for x in rows]
    mh, ml = sum(hand) / len(hand), sum(logit) / len(logit)
    slope = sum((a - mh) * (b - ml) for a, b in zip(hand, logit)) / sum(
        (b - ml) ** 2 for b in logit
    )
    print(f"{len(rows)} positions; slope {slope:.2f}")
    print("log-odds weights:", ", ".join(f"{v:+.4f}" for v in w))
    print("WEIGHTS:", ", ".join(str(round(v * slope)) for v in w[1:]))


if __name__ == "__main__":
    main()
