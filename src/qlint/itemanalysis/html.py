"""The item-analysis report as one static HTML page: inline CSS and SVG, no script, no network.

At the top, the form's figures and a scatter of difficulty (p) against discrimination (corrected
point-biserial) for every item, flagged items in red; then the flagged items, each with its
findings and a chart of its options' choice shares in the lower, middle and upper score groups;
then every other item the same way, folded."""

from __future__ import annotations

import math
import os
from html import escape

from qlint.diagnostic import Diagnostic
from qlint.files import write_output
from qlint.itemanalysis.stats import Analysis
from qlint.paths import display_path

GROUP_COLOURS = ("#c2410c", "#a3a3a3", "#1d4ed8")  # lower, middle, upper 27 %
GROUP_NAMES = ("lower 27%", "middle", "upper 27%")

CSS = """
:root { color-scheme: light; font-family: system-ui, sans-serif; line-height: 1.45; }
body { margin: 0 auto; max-width: 60rem; padding: 1rem; color: #111; background: #fff; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.15rem; margin-top: 2rem; } h3 { font-size: 1rem; margin: 0; }
.figures { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; padding: 0; list-style: none; }
.figures b { display: block; font-size: 1.3rem; }
svg { width: 100%; max-width: 40rem; height: auto; display: block; }
.item { border: 1px solid #ddd; border-radius: .4rem; padding: .75rem; margin: .75rem 0; overflow-wrap: anywhere; }
.item.flagged { border-color: #b91c1c; }
.stats { color: #444; font-size: .9rem; margin: .25rem 0 .5rem; }
.findings { margin: .25rem 0 .5rem; padding-left: 1.2rem; }
.findings li { margin: .2rem 0; }
.code { font-weight: 600; color: #b91c1c; }
.legend span { display: inline-block; margin-right: 1rem; font-size: .85rem; }
.legend i { display: inline-block; width: .8rem; height: .8rem; margin-right: .3rem; vertical-align: -.1rem; }
.path { font-family: ui-monospace, monospace; font-size: .8rem; color: #555; }
summary { cursor: pointer; }
"""


def _num(x: float, digits: int = 2) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def scatter(a: Analysis, flagged: set[str]) -> str:
    """p on x (0..1), corrected point-biserial on y (-0.5..1); guides at .3/.9 and .2."""
    w, h, pad = 420, 310, 40
    x = lambda p: pad + p * (w - 2 * pad)  # noqa: E731
    y = lambda r: h - pad - (min(max(r, -0.5), 1.0) + 0.5) / 1.5 * (h - 2 * pad)  # noqa: E731
    out = [f'<svg class="scatter" viewBox="0 0 {w} {h}" role="img" aria-labelledby="scatter-title">',
           '<title id="scatter-title">Difficulty against discrimination, one dot per item</title>',
           f'<rect x="{pad}" y="{pad}" width="{w - 2 * pad}" height="{h - 2 * pad}" fill="#fafafa" stroke="#ccc"/>']
    for p in (0.3, 0.9):
        out.append(f'<line x1="{x(p):.1f}" y1="{pad}" x2="{x(p):.1f}" y2="{h - pad}" stroke="#bbb" stroke-dasharray="4 3"/>')
    for r in (0.0, 0.2):
        out.append(f'<line x1="{pad}" y1="{y(r):.1f}" x2="{w - pad}" y2="{y(r):.1f}" stroke="#bbb" stroke-dasharray="4 3"/>')
    for t in (0, 0.25, 0.5, 0.75, 1):
        out.append(f'<text x="{x(t):.1f}" y="{h - pad + 15}" font-size="13" text-anchor="middle">{t:g}</text>')
    for t in (-0.5, 0, 0.5, 1):
        out.append(f'<text x="{pad - 6}" y="{y(t) + 4:.1f}" font-size="13" text-anchor="end">{t:g}</text>')
    out.append(f'<text x="{w / 2}" y="{h - 3}" font-size="14" text-anchor="middle">facility p (share right)</text>')
    out.append(f'<text x="14" y="{h / 2}" font-size="14" text-anchor="middle" transform="rotate(-90 14 {h / 2})">'
               'corrected point-biserial</text>')
    for j, key in enumerate(a.items):
        p, r = a.p[j], a.rpb[j]
        if math.isnan(p):
            continue
        r = 0.0 if math.isnan(r) else r
        bad = key.id in flagged
        out.append(f'<circle class="dot{" flagged" if bad else ""}" cx="{x(p):.1f}" cy="{y(r):.1f}" r="{6 if bad else 4}" '
                   f'fill="{"#b91c1c" if bad else "#1d4ed8"}" fill-opacity="0.75">'
                   f'<title>{escape(key.id)}: p {_num(p)}, r {_num(r)}</title></circle>')
    out.append("</svg>")
    return "".join(out)


def option_chart(a: Analysis, j: int) -> str:
    """One row per option: three bars (lower, middle, upper group) of its choice share."""
    key = a.items[j]
    label_w, bar_w, row_h = 120, 230, 44
    h = key.n_options * row_h + 24
    what = "option choice shares" if key.is_choice else "share of each step in place" if key.kind == "ordering" \
        else "share of each pair right"
    out = [f'<svg class="options" viewBox="0 0 {label_w + bar_w + 50} {h}" role="img" aria-label="{what} '
           f'by score group for {escape(key.id)}">']
    for t in (0, 0.5, 1):
        gx = label_w + t * bar_w
        out.append(f'<line x1="{gx:.1f}" y1="0" x2="{gx:.1f}" y2="{h - 20}" stroke="#ddd"/>'
                   f'<text x="{gx:.1f}" y="{h - 6}" font-size="13" text-anchor="middle">{int(t * 100)}%</text>')
    for i, oid in enumerate(key.option_ids):
        top = i * row_h + 4
        is_key = key.keymask >> i & 1
        label = ("\u2713 " if key.is_choice and is_key else f"{i + 1}. " if key.kind == "ordering" else "") + oid
        weight = ' font-weight="700"' if is_key else ""
        short = label if len(label) <= 14 else label[:13] + "\u2026"  # the label column is 120 units wide
        out.append(f'<text x="{label_w - 8}" y="{top + 20}" font-size="14" text-anchor="end"{weight}>'
                   f'{escape(short)}</text>')
        for g in range(3):
            share = a.option_group_share[j, i, g]
            share = 0.0 if math.isnan(share) else share
            out.append(f'<rect class="bar" x="{label_w}" y="{top + g * 12}" width="{max(share * bar_w, 0.5):.1f}" height="11" '
                       f'fill="{GROUP_COLOURS[g]}"><title>{escape(oid)}, {GROUP_NAMES[g]}: {share:.0%}</title></rect>')
        overall = a.option_share[j, i]
        out.append(f'<text x="{label_w + bar_w + 6}" y="{top + 22}" font-size="14">{_num(100 * overall, 0)}%</text>')
    out.append("</svg>")
    return "".join(out)


def _item(a: Analysis, j: int, found: list[Diagnostic]) -> str:
    key = a.items[j]
    stats = (f"p {_num(a.p[j])} · corrected r<sub>pb</sub> {_num(a.rpb[j])} · D {_num(a.d[j])} · "
             f"n {a.n[j]} · skipped {_num(100 * a.skipped[j], 0)}% · alpha if deleted {_num(a.alpha_if_deleted[j], 3)}")
    parts = [f'<section class="item{" flagged" if found else ""}" id="item-{escape(key.id)}">',
             f"<h3>{escape(key.id)}</h3>", f'<div class="path">{escape(display_path(key.path))}</div>',
             f'<p class="stats">{stats}</p>']
    if found:
        parts.append('<ul class="findings">' + "".join(
            f'<li><span class="code">{escape(d.code)}</span> {escape(d.message)} '
            f'<span class="path">line {d.line}</span></li>' for d in found) + "</ul>")
    parts += [option_chart(a, j), "</section>"]
    return "".join(parts)


def render(a: Analysis, diagnostics: list[Diagnostic], summary: str) -> str:
    by_path: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        by_path.setdefault(d.path, []).append(d)
    found = {j: by_path.get(display_path(k.path), []) for j, k in enumerate(a.items)}
    flagged_ids = {a.items[j].id for j, f in found.items() if f}
    order = sorted(range(len(a.items)), key=lambda j: (-max((d.severity for d in found[j]), default=0), a.items[j].id))
    flagged = [j for j in order if found[j]]
    rest = [j for j in order if not found[j]]
    legend = "".join(f'<span><i style="background:{c}"></i>{n}</span>' for c, n in zip(GROUP_COLOURS, GROUP_NAMES))
    figures = [("respondents", str(a.n_respondents)), ("items", str(len(a.items))),
               (a.reliability_name, _num(a.alpha, 3)), ("SEM", _num(a.sem)), ("mean score", _num(a.mean_total)),
               ("flagged items", str(len(flagged)))]
    body = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        "<title>qlint item analysis</title>", f"<style>{CSS}</style></head><body>",
        "<h1>Item analysis</h1>", f'<p class="stats">{escape(summary)}</p>',
        '<ul class="figures">' + "".join(f"<li>{escape(k)}<b>{escape(v)}</b></li>" for k, v in figures) + "</ul>",
        "<h2>Difficulty and discrimination</h2>",
        "<p>One dot per item; red dots have findings. Dashed lines: p = .30 and .90, r = 0 and .20.</p>",
        scatter(a, flagged_ids),
        f'<h2 id="flagged">Flagged items ({len(flagged)})</h2>',
        f'<p class="legend">Choice share of each option by score group: {legend} (\u2713 marks a key).</p>',
    ]
    body += [_item(a, j, found[j]) for j in flagged] or ["<p>No item has findings.</p>"]
    body.append(f'<h2>Other items ({len(rest)})</h2><details><summary>Show {len(rest)} items without findings</summary>')
    body += [_item(a, j, []) for j in rest]
    body.append("</details></body></html>")
    return "\n".join(body)


def write_html(folder: str, a: Analysis, diagnostics: list[Diagnostic], summary: str) -> str:
    path = os.path.join(folder, "index.html")
    write_output(path, render(a, diagnostics, summary).encode("utf-8"), stream=False)  # a folder's page: never a pipe
    return path
