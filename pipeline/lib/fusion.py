"""Fusing a paper's descriptive fields from its documents, with every disagreement kept.

`fuse_papers` gives one row per paper_id with FUSED_FIELDS and `sources`, and the
`paper_conflicts` table.

The rule: for each field on its own, the paper's canonical occurrence (match 'first') wins when
it has the field; otherwise the earliest occurrence in file order (source_file, then ordinal)
that has it. A field is missing when it is null, a blank string or an empty list. Why this
and not a ranking of sources by richness: the canonical occurrence already gives the paper its
id and its abstract, so its title and ids describe the same record; file order is what the
user controls (and what makes paper ids stable), and the result does not change when a reader
for a new format is added. A richer source still fills whatever the canonical one lacks (a
plain-text seed has no title or DOI, so they come from the first CSV or API record that has
them), and every value that loses is in `paper_conflicts`.

`sources` is the sorted distinct 'format:source_file' of the paper's documents, for example
['csv:icml.csv', 'text:000_icml.txt'].

`paper_conflicts`: one row per document whose value of a field differs from another document's
value of that field in the same paper, for every such field; documents without the field are
left out, and nothing else is. Columns:

| column | type | meaning |
|---|---|---|
| paper_id | VARCHAR | the paper |
| field | VARCHAR | one of FUSED_FIELDS |
| document_id | VARCHAR | the document that gives this value |
| value | VARCHAR | its value as the document gives it (a list joined with '; ') |
| chosen | BOOLEAN | whether the value is the one fused into papers (same comparison key) |

Values are compared on a key, so that spelling alone is no conflict: titles by dedup's normal
form (`merge.normalise_title`: case, punctuation and spacing ignored); authors by each name's
normalised words in sorted order ('Kaelin, Fabian' = 'Fabian Kaelin'), the list in its order;
keywords as a sorted set of normalised words; ids, URLs and dates as given (already normalised
by the readers).
"""

from __future__ import annotations

import polars as pl

from pipeline.lib.merge import normalise_title
from pipeline.lib.schema import LIST_RECORD_FIELDS, RECORD_FIELDS

FUSED_FIELDS = RECORD_FIELDS
LIST_FIELDS = LIST_RECORD_FIELDS

CONFLICT_SCHEMA = {
    "paper_id": pl.String,
    "field": pl.String,
    "document_id": pl.String,
    "value": pl.String,
    "chosen": pl.Boolean,
}


def fuse_papers(documents: pl.DataFrame, carried: tuple[str, ...] = ()) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(fused, paper_conflicts) from the documents table.

    `documents` has document_id, paper_id, match, source_file, ordinal, format and FUSED_FIELDS
    (authors and keywords lists of strings). `fused` has paper_id, FUSED_FIELDS and sources, one
    row per paper, in the file order of the papers' canonical occurrences; the rule and the
    conflicts table are described in the module docstring. The `carried` columns (venue and year,
    say) are fused by the same rule, without conflicts.
    """
    ordered = documents.sort(
        pl.col("match") != "first", "source_file", "ordinal", maintain_order=True
    ).with_columns(pl.when(_present(field)).then(pl.col(field)).alias(field) for field in FUSED_FIELDS)
    fused = ordered.group_by("paper_id", maintain_order=True).agg(
        *(pl.col(field).drop_nulls().first() for field in (*FUSED_FIELDS, *carried)),
        sources=(pl.col("format") + ":" + pl.col("source_file")).unique().sort(),
    )
    return fused, _conflicts(ordered)


def _present(field: str) -> pl.Expr:
    column = pl.col(field)
    if field in LIST_FIELDS:
        return column.list.len() > 0
    if field == "published":
        return column.is_not_null()
    return column.str.strip_chars().str.len_chars() > 0


def _comparison_key(field: str) -> pl.Expr:
    column = pl.col(field)
    if field == "title":
        return normalise_title(column)
    if field == "authors":
        name_key = normalise_title(pl.element()).str.split(" ").list.sort().list.join(" ")
        return column.list.eval(name_key).list.join("\n")
    if field == "keywords":
        return column.list.eval(normalise_title(pl.element())).list.unique().list.sort().list.join("\n")
    return column.cast(pl.String)


def _conflicts(ordered: pl.DataFrame) -> pl.DataFrame:
    """Every document's value of every field on which its paper's documents disagree; `ordered`
    is in priority order, so the first value of a paper's field is the fused one."""
    # Only a paper of several documents can disagree: the keys of the others are never compared.
    shared = ordered.filter(pl.len().over("paper_id") > 1)
    per_field = [
        shared.filter(pl.col(field).is_not_null()).select(
            "paper_id",
            pl.lit(field).alias("field"),
            "document_id",
            value=pl.col(field).list.join("; ") if field in LIST_FIELDS else pl.col(field).cast(pl.String),
            key=_comparison_key(field),
        )
        for field in FUSED_FIELDS
    ]
    long = pl.concat(per_field)
    by_field = ["paper_id", "field"]
    return (
        long.filter(pl.col("key").n_unique().over(by_field) > 1)
        .with_columns(chosen=pl.col("key") == pl.col("key").first().over(by_field))
        .select(list(CONFLICT_SCHEMA))
        .cast(CONFLICT_SCHEMA)
    )
