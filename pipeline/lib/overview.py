"""What the published warehouse holds: the numbers behind `papers stats` and `reports/index.html`.

The overview page is one self-contained HTML file: inline CSS and inline SVG charts drawn here, no
script and nothing fetched, so it opens offline from the file system.
"""

from __future__ import annotations

import html
import json
import os
from dataclasses import dataclass
from pathlib import Path

import duckdb

from pipeline.lib.publish import DATABASE_NAME, MANIFEST_NAME
from pipeline.lib.schema import ENTITY_TYPES

REPORTS_DIR = "reports"
OVERVIEW_NAME = "index.html"
VALIDATION_NAME = "validation.html"
TOP = 10
LABEL_CHARS = 34
# Papers with this many distinct entities or more share the last bar of the histogram.
ENTITIES_PER_PAPER_BINS = 20


@dataclass(frozen=True)
class Counts:
    papers: int
    documents: int
    exact_duplicates: int
    near_duplicates: int
    rejects: int
    entities: int
    mentions: int
    results: int
    links: int

    @property
    def duplicates(self) -> int:
        return self.exact_duplicates + self.near_duplicates


def _scalar(con: duckdb.DuckDBPyConnection, sql: str) -> int:
    return int(con.execute(sql).fetchone()[0])


def counts(con: duckdb.DuckDBPyConnection) -> Counts:
    return Counts(
        papers=_scalar(con, "SELECT count(*) FROM papers"),
        documents=_scalar(con, "SELECT count(*) FROM documents"),
        exact_duplicates=_scalar(con, "SELECT count(*) FROM documents WHERE match = 'exact'"),
        near_duplicates=_scalar(con, "SELECT count(*) FROM documents WHERE match = 'near'"),
        rejects=_scalar(con, "SELECT count(*) FROM rejects"),
        entities=_scalar(con, "SELECT count(*) FROM entities"),
        mentions=_scalar(con, "SELECT count(*) FROM mentions"),
        results=_scalar(con, "SELECT count(*) FROM results"),
        links=_scalar(con, "SELECT count(*) FROM links"),
    )


def entities_by_type(con: duckdb.DuckDBPyConnection) -> list[tuple[str, int, int]]:
    """(entity type, distinct entities, mentions) for every type, in the schema's order."""
    rows = dict.fromkeys(ENTITY_TYPES, (0, 0))
    for entity_type, entities, mentions in con.execute(
        "SELECT e.entity_type, count(*), coalesce(sum(m.mentions), 0) FROM entities AS e "
        "LEFT JOIN (SELECT entity_id, count(*) AS mentions FROM mentions GROUP BY entity_id) AS m "
        "USING (entity_id) GROUP BY e.entity_type"
    ).fetchall():
        rows[entity_type] = (int(entities), int(mentions))
    return [(entity_type, *rows[entity_type]) for entity_type in rows]


def top_entities(con: duckdb.DuckDBPyConnection, entity_type: str, limit: int = TOP) -> list[tuple[str, int]]:
    """The entities of a type mentioned by the most papers: (name, papers)."""
    return con.execute(
        "SELECT name, n_papers FROM entities WHERE entity_type = ? ORDER BY n_papers DESC, name LIMIT ?",
        [entity_type, limit],
    ).fetchall()


def top_proposed(con: duckdb.DuckDBPyConnection, limit: int = TOP) -> list[tuple[str, int]]:
    """What papers propose, by how many papers propose it: (name, papers)."""
    return con.execute(
        "SELECT name, count(DISTINCT paper_id) AS papers FROM "
        "(SELECT paper_id, unnest(proposed_methods) AS name FROM papers) "
        "GROUP BY name ORDER BY papers DESC, name LIMIT ?",
        [limit],
    ).fetchall()


def papers_per_venue_year(con: duckdb.DuckDBPyConnection) -> list[tuple[str, int, int]]:
    """(venue and year, papers, duplicate occurrences merged into them), largest first."""
    rows = con.execute(
        "SELECT coalesce(venue, 'unknown venue') || ' ' || coalesce(CAST(year AS VARCHAR), 'unknown year'), "
        "count(*), sum(n_documents) - count(*) FROM papers GROUP BY ALL ORDER BY 2 DESC, 1"
    ).fetchall()
    return [(label, int(papers), int(merged)) for label, papers, merged in rows]


def entities_per_paper(con: duckdb.DuckDBPyConnection) -> list[tuple[str, int]]:
    """(distinct entities in a paper, papers with that many) from 0 up, the long tail in one last bin."""
    counts_by_size = dict(
        con.execute(
            "SELECT least(coalesce(m.entities, 0), ?) AS entities, count(*) FROM papers AS p LEFT JOIN "
            "(SELECT paper_id, count(DISTINCT entity_id) AS entities FROM mentions GROUP BY paper_id) AS m "
            "USING (paper_id) GROUP BY 1",
            [ENTITIES_PER_PAPER_BINS],
        ).fetchall()
    )
    if not counts_by_size:
        return []
    largest = max(counts_by_size)
    return [
        (f"{size}+" if size == ENTITIES_PER_PAPER_BINS else str(size), int(counts_by_size.get(size, 0)))
        for size in range(largest + 1)
    ]


# --- the page ---------------------------------------------------------------------------------------

_TYPE_COLOURS = {
    "method": "#2b6cb0",
    "model": "#805ad5",
    "dataset": "#2f855a",
    "metric": "#b7791f",
    "task": "#c53030",
}
_NEUTRAL = "#4a5568"


def _esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def _short(label: str) -> str:
    return label if len(label) <= LABEL_CHARS else label[: LABEL_CHARS - 1] + "…"


def _empty_chart(chart_id: str) -> str:
    return (
        f'<svg id="{chart_id}" class="chart" data-bars="0" viewBox="0 0 640 40" role="img">'
        '<text x="8" y="24" class="empty">No data in this build.</text></svg>'
    )


def bar_chart(chart_id: str, rows: list[tuple[str, int]], colour: str = _NEUTRAL) -> str:
    """A horizontal bar chart as inline SVG: one labelled `rect.bar` per row."""
    if not rows:
        return _empty_chart(chart_id)
    label_width, bar_width, bar_height, step, top = 250, 330, 18, 26, 6
    largest = max(value for _, value in rows) or 1
    height = top * 2 + step * len(rows)
    parts = [
        f'<svg id="{chart_id}" class="chart" data-bars="{len(rows)}" viewBox="0 0 640 {height}" '
        f'role="img" aria-label="{_esc(chart_id)}">'
    ]
    for index, (label, value) in enumerate(rows):
        y = top + index * step
        width = bar_width * value / largest
        parts.append(
            f"<g><title>{_esc(label)}: {value:,}</title>"
            f'<text x="{label_width - 8}" y="{y + 13}" text-anchor="end">{_esc(_short(label))}</text>'
            f'<rect class="bar" x="{label_width}" y="{y}" width="{width:.1f}" height="{bar_height}" '
            f'fill="{colour}" data-value="{value}"></rect>'
            f'<text x="{label_width + width + 6:.1f}" y="{y + 13}">{value:,}</text></g>'
        )
    parts.append("</svg>")
    return "".join(parts)


def column_chart(chart_id: str, rows: list[tuple[str, int]], x_label: str, colour: str = _NEUTRAL) -> str:
    """A vertical bar chart (a histogram over small integers) as inline SVG."""
    if not rows:
        return _empty_chart(chart_id)
    left, bottom, plot_height, top = 40, 44, 160, 18
    step = min(48, 560 / len(rows))
    largest = max(value for _, value in rows) or 1
    width = left + step * len(rows) + 10
    height = top + plot_height + bottom
    parts = [
        f'<svg id="{chart_id}" class="chart" data-bars="{len(rows)}" viewBox="0 0 {width:.0f} {height}" '
        f'role="img" aria-label="{_esc(chart_id)}">',
        f'<line x1="{left}" y1="{top + plot_height}" x2="{width - 5:.0f}" y2="{top + plot_height}" '
        'stroke="#a0aec0"></line>',
    ]
    for index, (x, value) in enumerate(rows):
        bar_height = plot_height * value / largest
        x0 = left + index * step
        y0 = top + plot_height - bar_height
        parts.append(
            f"<g><title>{x} {x_label}: {value:,} papers</title>"
            f'<rect class="bar" x="{x0 + 2:.1f}" y="{y0:.1f}" width="{step - 4:.1f}" '
            f'height="{bar_height:.1f}" fill="{colour}" data-value="{value}"></rect>'
            f'<text x="{x0 + step / 2:.1f}" y="{y0 - 4:.1f}" text-anchor="middle">{value:,}</text>'
            f'<text x="{x0 + step / 2:.1f}" y="{top + plot_height + 16}" text-anchor="middle">{x}</text></g>'
        )
    parts.append(
        f'<text x="{left + step * len(rows) / 2:.0f}" y="{height - 8}" text-anchor="middle">'
        f"{_esc(x_label)}</text></svg>"
    )
    return "".join(parts)


def _figure(title: str, chart: str, caption: str) -> str:
    return f"<figure><h2>{_esc(title)}</h2>{chart}<figcaption>{_esc(caption)}</figcaption></figure>"


_STYLE = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1a202c;
  background: #f7fafc; }
header, main { max-width: 1100px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 24px; }
h1 { margin: 0 0 4px; font-size: 26px; }
.build { color: #4a5568; margin: 0 0 16px; }
.tiles { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 12px;
  margin: 16px 0; }
.tile { background: #fff; border: 1px solid #e2e8f0; border-radius: 8px; padding: 10px 14px; }
.tile b { display: block; font-size: 24px; }
.tile span { color: #4a5568; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(480px, 1fr)); gap: 16px; }
figure { margin: 0; background: #fff; border: 1px solid #e2e8f0; border-radius: 8px; padding: 12px 16px; }
figure h2 { font-size: 17px; margin: 0 0 8px; }
figcaption { color: #4a5568; font-size: 13px; margin-top: 6px; }
svg.chart { width: 100%; height: auto; font-size: 12px; fill: #1a202c; }
svg.chart .empty { fill: #718096; }
.links { margin: 16px 0 32px; }
"""


def _tiles(summary: Counts) -> str:
    tiles = [
        ("papers", summary.papers),
        ("documents", summary.documents),
        ("duplicates merged", summary.duplicates),
        ("rejects", summary.rejects),
        ("entities", summary.entities),
        ("mentions", summary.mentions),
        ("numeric results", summary.results),
        ("links", summary.links),
    ]
    cells = "".join(
        f'<div class="tile"><b>{value:,}</b><span>{_esc(name)}</span></div>' for name, value in tiles
    )
    return f'<section class="tiles" id="counts">{cells}</section>'


def render_overview(con: duckdb.DuckDBPyConnection, manifest: dict, has_validation: bool) -> str:
    """The overview page for the database open on `con`."""
    summary = counts(con)
    venues = papers_per_venue_year(con)
    merged_by_kind = [
        ("exact duplicates", summary.exact_duplicates),
        ("near duplicates", summary.near_duplicates),
    ]
    merged_by_venue = [(f"into {label} papers", merged) for label, _, merged in venues if merged]
    figures = [
        _figure(
            "Papers per venue and year",
            bar_chart("chart-venues", [(label, papers) for label, papers, _ in venues]),
            "Distinct papers after deduplication.",
        ),
        _figure(
            "Duplicates merged",
            bar_chart("chart-duplicates", merged_by_kind + merged_by_venue, "#dd6b20"),
            f"{summary.documents:,} occurrences became {summary.papers:,} papers: occurrences merged "
            "by how they matched, then per venue and year.",
        ),
        _figure(
            "Top proposed methods",
            bar_chart("chart-proposed", top_proposed(con), _TYPE_COLOURS["method"]),
            "What papers introduce (method, model or dataset), by papers proposing it.",
        ),
        _figure(
            "Most mentioned methods",
            bar_chart("chart-methods", top_entities(con, "method"), _TYPE_COLOURS["method"]),
            "Methods by the number of papers that mention them.",
        ),
        _figure(
            "Most mentioned datasets",
            bar_chart("chart-datasets", top_entities(con, "dataset"), _TYPE_COLOURS["dataset"]),
            "Datasets by the number of papers that mention them.",
        ),
        _figure(
            "Most mentioned metrics",
            bar_chart("chart-metrics", top_entities(con, "metric"), _TYPE_COLOURS["metric"]),
            "Metrics by the number of papers that mention them.",
        ),
        _figure(
            "Entities per paper",
            column_chart("chart-entities-per-paper", entities_per_paper(con), "distinct entities"),
            "How many papers mention how many distinct entities.",
        ),
        _figure(
            "Entities by type",
            bar_chart(
                "chart-entity-types",
                [(t, n) for t, n, _ in entities_by_type(con) if n],
                _TYPE_COLOURS["model"],
            ),
            "Distinct entities in the catalog per type.",
        ),
    ]
    build = (
        f"Build {_esc(manifest['build_id'])}, built {_esc(manifest.get('built_at', ''))}, "
        f"schema version {_esc(manifest.get('schema_version', ''))}."
        if "build_id" in manifest
        else "No manifest found beside the database."
    )
    validation = (
        f'<a id="validation-link" href="{VALIDATION_NAME}">Validation report</a> of this build.'
        if has_validation
        else "No validation report was written for this build."
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Paper warehouse overview</title><style>{_STYLE}</style></head><body>"
        f'<header><h1>Paper warehouse overview</h1><p class="build">{build}</p></header>'
        f'<main>{_tiles(summary)}<section class="charts">{"".join(figures)}</section>'
        f'<p class="links">{validation} Query the tables in <code>{DATABASE_NAME}</code> '
        "or load <code>parquet/&lt;table&gt;.parquet</code>.</p></main></body></html>\n"
    )


def write_overview(warehouse_dir: Path) -> Path:
    """Write `<warehouse>/reports/index.html` from the published database; return its path."""
    database = warehouse_dir / DATABASE_NAME
    if not database.is_file():
        raise FileNotFoundError(f"no published database at {database}")
    manifest_path = warehouse_dir / MANIFEST_NAME
    manifest = json.loads(manifest_path.read_text(encoding="utf-8")) if manifest_path.is_file() else {}
    reports = warehouse_dir / REPORTS_DIR
    reports.mkdir(parents=True, exist_ok=True)
    with duckdb.connect(str(database), read_only=True) as con:
        page = render_overview(con, manifest, has_validation=(reports / VALIDATION_NAME).is_file())
    target = reports / OVERVIEW_NAME
    partial = reports / f".{OVERVIEW_NAME}.{os.getpid()}.tmp"
    partial.write_text(page, encoding="utf-8")
    os.replace(partial, target)
    return target
