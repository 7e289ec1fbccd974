"""Classical test theory statistics of a response matrix, vectorised with numpy.

Every statistic is computed over the respondents who were given the item (`NOT_SEEN` cells are
left out), so forms drawn at random from a bank are analysed item by item. Per item: facility p
(mean score), its population variance, the point-biserial with the total score (as Canvas reports
it) and corrected (with the rest score: the total without this item), and the upper-lower index
D on the top and bottom 27 % by total score (Kelley 1939). Per option: its choice share overall
and in each score group, and its point-biserial (indicator of choosing it against the rest score,
and against the total). Per form: Cronbach's alpha (KR-20 for right/wrong scores) over the
respondents given every item, alpha if each item is deleted, and the standard error of
measurement SD * sqrt(1 - alpha).
"""

from __future__ import annotations

from dataclasses import dataclass

from qlint.bank._numpy import np

from qlint.itemanalysis.data import NOT_SEEN, PART_BITS, ItemKey, Responses

GROUP_SHARE = 0.27  # Kelley (1939): the upper and lower 27 % make D most sensitive
SCORINGS = ("all-or-nothing", "partial")
_POP = np.array([bin(i).count("1") for i in range(1 << 16)], dtype=np.int64)


def popcount(masks: np.ndarray) -> np.ndarray:
    masks = np.where(masks < 0, 0, masks)
    return _POP[masks & 0xFFFF] + _POP[(masks >> 16) & 0xFFFF]


def score(choices: np.ndarray, keys: list[ItemKey], scoring: str = "all-or-nothing") -> np.ndarray:
    """Item scores in [0, 1], NaN where not seen. All-or-nothing: exactly the keys. Partial (as
    qlint's Moodle export grades multiple response): +1/k per key chosen, -1/m per distractor
    chosen (k keys, m distractors), floored at 0; single-answer items stay right/wrong. An
    ordering or matching item's parts are all keys: 1/k a step in its place or a right pair."""
    if scoring not in SCORINGS:
        raise ValueError(f"unknown scoring {scoring!r}; choose from: {', '.join(SCORINGS)}")
    keymask = np.array([k.keymask for k in keys], dtype=np.int64)
    seen = choices != NOT_SEEN
    choices = np.where(seen, choices & PART_BITS, 0)  # drops ordering/matching's ANSWERED flag
    out = (choices == keymask).astype(float)
    if scoring == "partial":
        full = np.array([(1 << k.n_options) - 1 for k in keys], dtype=np.int64)
        n_keys = popcount(keymask)
        n_wrong = np.array([k.n_options for k in keys]) - n_keys
        hits = popcount(choices & keymask) / np.maximum(n_keys, 1)
        misses = popcount(choices & (full & ~keymask)) / np.maximum(n_wrong, 1)
        multiple = np.array([k.multiple for k in keys])
        out = np.where(multiple, np.clip(hits - misses, 0.0, 1.0), out)
    out[~seen] = np.nan
    return out


def _corr(n, sx, sy, sxx, syy, sxy):
    """Pearson r from masked sums (arrays broadcast); NaN where either side does not vary."""
    with np.errstate(divide="ignore", invalid="ignore"):
        n = np.maximum(n, 1)
        vx = sxx / n - (sx / n) ** 2
        vy = syy / n - (sy / n) ** 2
        cov = sxy / n - sx * sy / n**2
        ok = (vx > 1e-12) & (vy > 1e-12)
        return np.where(ok, cov / np.sqrt(np.where(ok, vx * vy, 1.0)), np.nan)


@dataclass
class Analysis:
    """Arrays over items (k) and options (k x m, NaN past an item's option count)."""

    items: list[ItemKey]
    scoring: str
    n_respondents: int
    totals: np.ndarray  # (n,) total score of each respondent
    group: np.ndarray  # (n,) 0 lower 27 %, 1 middle, 2 upper
    n: np.ndarray  # respondents given each item
    p: np.ndarray
    variance: np.ndarray
    rpb_total: np.ndarray
    rpb: np.ndarray  # corrected: against the rest score
    d: np.ndarray
    group_p: np.ndarray  # (k, 3) mean score per group
    group_n: np.ndarray  # (k, 3)
    option_share: np.ndarray  # (k, m)
    option_group_share: np.ndarray  # (k, m, 3)
    option_count: np.ndarray  # (k, m)
    option_rpb: np.ndarray  # (k, m) against the rest score
    option_rpb_total: np.ndarray  # (k, m) against the total (as Canvas reports it)
    skipped: np.ndarray  # (k,) share of those given the item who chose nothing
    alpha: float
    alpha_if_deleted: np.ndarray
    alpha_n: int  # respondents given every item (alpha's sample)
    sem: float
    mean_total: float
    sd_total: float

    @property
    def reliability_name(self) -> str:
        return "KR-20" if self.scoring == "all-or-nothing" or not any(k.multiple for k in self.items) else "alpha"


def groups(totals: np.ndarray, share: float = GROUP_SHARE) -> np.ndarray:
    """0 for the lowest `share` by total, 2 for the highest, 1 between; ties at a boundary go
    by input order (a stable sort), so the groups have exactly round(share * n) members."""
    n = len(totals)
    size = int(np.floor(share * n + 0.5)) if n else 0
    order = np.argsort(totals, kind="stable")
    out = np.ones(n, dtype=np.int64)
    if size:
        out[order[:size]] = 0
        out[order[n - size:]] = 2
    return out


def alpha_of(scores: np.ndarray) -> tuple[float, np.ndarray, float]:
    """(alpha, alpha if each item is deleted, SEM) of a complete (n x k) score matrix."""
    n, k = scores.shape
    nan = np.full(k, np.nan)
    if n < 2 or k < 2:
        return float("nan"), nan, float("nan")
    var = scores.var(axis=0)
    total = scores.sum(axis=1)
    var_t = total.var()
    if var_t <= 1e-12:
        return float("nan"), nan, float("nan")
    alpha = k / (k - 1) * (1 - var.sum() / var_t)
    if k > 2:
        cov = ((scores - scores.mean(axis=0)) * (total - total.mean())[:, None]).mean(axis=0)
        rest_var = var_t - 2 * cov + var
        with np.errstate(divide="ignore", invalid="ignore"):
            deleted = np.where(rest_var > 1e-12, (k - 1) / (k - 2) * (1 - (var.sum() - var) / rest_var), np.nan)
    else:
        deleted = nan
    sem = float(total.std(ddof=1) * np.sqrt(max(0.0, 1 - alpha)))
    return float(alpha), deleted, sem


def analyse(responses: Responses, keys: dict[str, ItemKey], scoring: str = "all-or-nothing") -> Analysis:
    items = [keys[i] for i in responses.items]
    choices = responses.choices
    x = score(choices, items, scoring)
    seen = ~np.isnan(x)
    xs = np.where(seen, x, 0.0)
    n_resp, k = xs.shape
    totals = xs.sum(axis=1)
    t = totals - (totals.mean() if n_resp else 0.0)  # centred: the sums below lose no precision
    sf = seen.astype(float)
    n = sf.sum(axis=0)
    sx, sxx = xs.sum(axis=0), (xs * xs).sum(axis=0)
    st, stt = sf.T @ t, sf.T @ (t * t)
    sxt = xs.T @ t
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(n > 0, sx / np.maximum(n, 1), np.nan)
    variance = np.where(n > 0, sxx / np.maximum(n, 1) - p**2, np.nan)
    rpb_total = _corr(n, sx, st, sxx, stt, sxt)
    # rest score r = t - x: its sums follow from the total's
    sr, srr, sxr = st - sx, stt - 2 * sxt + sxx, sxt - sxx
    rpb = _corr(n, sx, sr, sxx, srr, sxr)

    group = groups(totals)
    g = np.stack([(group == i) for i in range(3)], axis=1).astype(float)  # (n, 3)
    group_n = sf.T @ g  # (k, 3)
    with np.errstate(divide="ignore", invalid="ignore"):
        group_p = np.where(group_n > 0, (xs.T @ g) / np.maximum(group_n, 1), np.nan)
    d = group_p[:, 2] - group_p[:, 0]

    m = max((key.n_options for key in items), default=0)
    width = np.array([key.n_options for key in items])
    option_count = np.full((k, m), np.nan)
    option_share = np.full((k, m), np.nan)
    option_group_share = np.full((k, m, 3), np.nan)
    option_rpb = np.full((k, m), np.nan)
    option_rpb_total = np.full((k, m), np.nan)
    picks = np.where(seen, choices, 0)
    for o in range(m):
        has = width > o
        ind = ((picks >> o) & 1).astype(float)  # (n, k), 0 where not seen
        si = ind.sum(axis=0)
        sit = ind.T @ t
        with np.errstate(divide="ignore", invalid="ignore"):
            share = si / np.maximum(n, 1)
            gshare = np.where(group_n > 0, (ind.T @ g) / np.maximum(group_n, 1), np.nan)
        r_total = _corr(n, si, st, si, stt, sit)
        r_rest = _corr(n, si, sr, si, srr, sit - (ind * xs).sum(axis=0))
        option_count[has, o] = si[has]
        option_share[has, o] = np.where(n > 0, share, np.nan)[has]
        option_group_share[has, o] = gshare[has]
        option_rpb[has, o] = r_rest[has]
        option_rpb_total[has, o] = r_total[has]
    skipped = np.where(n > 0, ((choices == 0) & seen).sum(axis=0) / np.maximum(n, 1), np.nan)

    complete = seen.all(axis=1)
    alpha, deleted, sem = alpha_of(xs[complete])
    return Analysis(items, scoring, n_resp, totals, group, n.astype(int), p, variance, rpb_total, rpb, d, group_p,
                    group_n.astype(int), option_share, option_group_share, option_count, option_rpb,
                    option_rpb_total, skipped, alpha, deleted, int(complete.sum()), sem,
                    float(totals.mean()) if n_resp else float("nan"),
                    float(totals.std(ddof=1)) if n_resp > 1 else float("nan"))
