"""The entity catalog: one row per distinct entity across all papers, with stable ids.

An entity is (type, normalised name, normalised expansion). A mention whose paper does not spell
out an acronym joins the entity of that acronym when the corpus knows exactly one expansion for
it; with two (``SDF``: "signed distance field" and "Scene Dynamic Field") it stays apart.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

import polars as pl

_DASHES = re.compile(r"[‐‑‒–—―−-]+")
_POSSESSIVE = re.compile(r"['’]s\b")
# Words whose final s is not a plural: 'class', 'corpus', 'analysis', 'atlas', 'chaos'.
_NOT_PLURAL = ("ss", "us", "is", "as", "os")


def normalise_name(name: str | None) -> str:
    """Catalog key of a name: NFKC, case-folded, dashes read as spaces, single spaces, no
    possessive, no plural s on the last word."""
    if not name:
        return ""
    text = unicodedata.normalize("NFKC", name).casefold()
    text = _POSSESSIVE.sub("", text)
    text = _DASHES.sub(" ", text)
    text = " ".join(text.split())  # as re.sub(r"\s+", " ", text).strip(): both split on str.isspace
    if len(text) > 3 and text.endswith("s") and not text.endswith(_NOT_PLURAL):
        text = text[:-1]
    return text


def entity_id(entity_type: str, name: str, expansion: str | None) -> str:
    return _hash_key(f"{entity_type}|{normalise_name(name)}|{normalise_name(expansion)}")


def resolve(mentions: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Fill entity_id and canonical names into mentions and build the entities table.

    mentions needs paper_id, entity_type, text, name, expansion and their keys name_key and
    expansion_key (normalise_name of each, computed where the mentions were found).
    Returns (mentions with entity_id, entities).
    """
    frame = mentions.rename({"name_key": "_name_key", "expansion_key": "_expansion_key"})
    # The one expansion the corpus knows for an acronym, if it knows exactly one.
    known = (
        frame.filter(pl.col("_expansion_key") != "")
        .group_by("entity_type", "_name_key")
        .agg(
            pl.col("_expansion_key").n_unique().alias("_n"),
            pl.col("_expansion_key").first().alias("_only_key"),
            pl.col("expansion").mode().sort().first().alias("_only"),
        )
        .filter(pl.col("_n") == 1)
        .drop("_n")
    )
    # Each join below is made on the key columns alone and its columns added beside the mentions':
    # a join of the whole mentions would copy each of their columns, millions of rows at scale.
    only = (
        frame.select("entity_type", "_name_key")
        .join(known, on=["entity_type", "_name_key"], how="left", maintain_order="left")
        .select("_only_key", "_only")
    )
    frame = (
        frame.hstack(only.get_columns())
        .with_columns(
            pl.when(pl.col("_expansion_key") == "")
            .then(pl.col("_only_key").fill_null(""))
            .otherwise(pl.col("_expansion_key"))
            .alias("_expansion_key"),
        )
        .drop("_only_key")
    )
    keys = frame.select(
        pl.concat_str(["entity_type", "_name_key", "_expansion_key"], separator="|").alias("_key")
    )
    # Hashed once per distinct key: mentions name far fewer distinct entities than there are mentions.
    ids = keys.unique().with_columns(
        pl.col("_key").map_elements(_hash_key, return_dtype=pl.String).alias("entity_id")
    )
    entity_ids = keys.join(ids, on="_key", how="left", maintain_order="left").get_column("entity_id")
    frame = frame.with_columns(entity_ids)
    entities = (
        frame.group_by("entity_id")
        .agg(
            pl.col("entity_type").first(),
            pl.col("name").mode().sort().first().alias("name"),
            pl.col("text").unique().sort().alias("aliases"),
            pl.when(pl.col("_expansion_key") != "")
            .then(pl.coalesce("expansion", "_only"))
            .otherwise(None)
            .drop_nulls()
            .mode()
            .sort()
            .first()
            .alias("expansion"),
            pl.col("paper_id").n_unique().cast(pl.Int32).alias("n_papers"),
        )
        .sort("entity_id")
    )
    canonical = (
        frame.select("entity_id")
        .join(entities.select("entity_id", "name"), on="entity_id", how="left", maintain_order="left")
        .get_column("name")
    )
    frame = frame.with_columns(canonical).drop("_only", "_name_key", "_expansion_key")
    return frame, entities


def _hash_key(key: str) -> str:
    return "E" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]
