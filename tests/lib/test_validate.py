import json
from collections.abc import Callable
from dataclasses import asdict, replace

import great_expectations.expectations as gxe
import polars as pl
import pyarrow as pa
import pytest

from pipeline.lib.schema import MATCH_KINDS, TABLES, Column, ForeignKey, Table
from pipeline.lib.validate import (
    build_suite,
    load_passed_rows,
    save_passed_rows,
    validate_table,
    write_reports,
)

ABSTRACT = "We propose FooNet, which improves accuracy by 5.1% on ImageNet. Code: https://github.com/x/foonet"


def valid_tables() -> dict[str, pl.DataFrame]:
    """One small, consistent warehouse: every table refers only to rows that exist."""
    rows = {
        "documents": {
            "document_id": ["000_a.txt:1", "000_a.txt:2", "001_b.txt:1"],
            "source_file": ["000_a.txt", "000_a.txt", "001_b.txt"],
            "ordinal": [1, 2, 1],
            "line_start": [3, 5, 2],
            "line_end": [3, 7, 2],
            "locator": ["lines 3-3", "lines 5-7", "line 2"],
            "format": ["text", "text", "jsonl"],
            "venue": ["ICLR", "ICLR", None],
            "year": [2026, 2026, None],
            "raw_text": [ABSTRACT, "Another abstract.", ABSTRACT],
            "title": [None, None, "FooNet"],
            "authors": [None, None, ["Ada Lovelace"]],
            "doi": [None, None, "10.1234/foonet"],
            "paper_id": ["P1", "P2", "P1"],
            "match": ["first", "first", "exact"],
            "similarity": [1.0, 1.0, 1.0],
        },
        "papers": {
            "paper_id": ["P1", "P2"],
            "venue": ["ICLR", "ICLR"],
            "year": [2026, None],
            "abstract": [ABSTRACT, "Another abstract."],
            "abstract_clean": [ABSTRACT, "Another abstract."],
            "word_count": [14, 2],
            "n_documents": [2, 1],
            "source_files": [["000_a.txt", "001_b.txt"], ["000_a.txt"]],
            "proposed_methods": [["FooNet"], []],
            "code_url": ["https://github.com/x/foonet", None],
            "title": ["FooNet", None],
            "doi": ["10.1234/foonet", None],
            "sources": [["jsonl:001_b.txt", "text:000_a.txt"], ["text:000_a.txt"]],
        },
        "paper_conflicts": {
            "paper_id": ["P1"],
            "field": ["title"],
            "document_id": ["001_b.txt:1"],
            "value": ["FooNet"],
            "chosen": [True],
        },
        "mentions": {
            "paper_id": ["P1", "P1"],
            "entity_type": ["method", "dataset"],
            "text": ["FooNet", "ImageNet"],
            "name": ["FooNet", "ImageNet"],
            "start": [11, 54],
            "end": [17, 62],
            "role": ["proposed", "referenced"],
            "entity_id": ["E1", "E2"],
        },
        "entities": {
            "entity_id": ["E1", "E2"],
            "entity_type": ["method", "dataset"],
            "name": ["FooNet", "ImageNet"],
            "aliases": [["FooNet"], ["ImageNet"]],
            "expansion": [None, None],
            "n_papers": [1, 1],
        },
        "abbreviations": {
            "paper_id": ["P2"],
            "short": ["LDP"],
            "long": ["local differential privacy"],
            "start": [0],
            "end": [33],
        },
        "links": {
            "paper_id": ["P1"],
            "url": ["https://github.com/x/foonet"],
            "kind": ["code"],
            "start": [70],
            "end": [97],
        },
        "results": {
            "paper_id": ["P1"],
            "text": ["5.1%"],
            "value": [5.1],
            "unit": ["%"],
            "metric": ["accuracy"],
            "dataset": ["ImageNet"],
            "compared_to": [None],
            "start": [40],
            "end": [44],
            "sentence": ["We propose FooNet, which improves accuracy by 5.1% on ImageNet."],
        },
        "rejects": {
            "source_file": ["000_a.txt", "002_c.txt"],
            "line_start": [9, 0],
            "line_end": [9, 0],
            "reason": ["The paragraph has 3 words; an abstract has at least 30.", "The file is not UTF-8."],
            "raw_text": ["too short here", None],
        },
    }
    return {
        name: TABLES[name].conform(_with_nulls(name, pl.DataFrame(columns))) for name, columns in rows.items()
    }


def _with_nulls(name: str, frame: pl.DataFrame) -> pl.DataFrame:
    """The columns a table's rows above leave out (the fields a source did not give) as nulls."""
    schema = TABLES[name].polars_schema()
    return frame.with_columns(pl.lit(None, schema[c]).alias(c) for c in schema if c not in frame.columns)


@pytest.fixture(scope="module")
def tables() -> dict[str, pl.DataFrame]:
    return valid_tables()


@pytest.fixture(scope="module")
def valid_validations(tables):
    """Each valid table validated once (GX takes a few tenths of a second per validation)."""
    return {name: validate_table(TABLES[name], frame, tables) for name, frame in tables.items()}


def outcome(validation, expectation: str, column: str | None = None):
    matches = [o for o in validation.outcomes if o.expectation == expectation and o.column == column]
    assert len(matches) == 1, [(o.expectation, o.column) for o in validation.outcomes]
    return matches[0]


def test_a_consistent_warehouse_passes_every_table(tables, valid_validations):
    for name, frame in tables.items():
        validation = valid_validations[name]
        assert validation.success, validation.summary_line()
        assert validation.n_rows == frame.height
        assert not validation.failures()
        assert not any("skipped" in o.details for o in validation.outcomes)
        assert validation.summary_line().startswith(
            f"{name}: all {len(validation.outcomes)} expectations passed"
        )


def test_every_outcome_and_the_gx_result_are_json_serialisable(valid_validations):
    validation = valid_validations["papers"]
    json.dumps([asdict(o) for o in validation.outcomes])
    json.dumps(validation.gx_result)
    assert validation.gx_result["success"] is True


def test_pandas_frames_with_list_columns_validate_like_polars_frames(tables, valid_validations):
    """polars' to_pandas gives numpy arrays in list columns and pandas 3 'str' strings."""
    for name in ("papers", "entities"):
        from_polars = valid_validations[name]
        from_pandas = validate_table(TABLES[name], tables[name].to_pandas(), tables)
        assert from_pandas.success, from_pandas.summary_line()
        assert [(o.expectation, o.column) for o in from_pandas.outcomes] == [
            (o.expectation, o.column) for o in from_polars.outcomes
        ]


def test_duplicate_paper_id_fails_the_unique_expectation(tables):
    papers = pl.concat([tables["papers"], tables["papers"].head(1)])
    validation = validate_table(TABLES["papers"], papers)
    assert not validation.success
    unique = outcome(validation, "expect_column_values_to_be_unique", "paper_id")
    assert not unique.success
    assert unique.unexpected_count == 2  # both rows that share the id
    assert unique.unexpected_examples == ["P1"]
    assert validation.failures() == [unique]
    assert validation.summary_line() == (
        f"papers: 1 of {len(validation.outcomes)} expectations failed: paper_id unique (2 unexpected: ['P1'])"
    )


def test_null_in_a_not_null_column_fails_not_null(tables):
    documents = tables["documents"].with_columns(
        pl.when(pl.col("ordinal") == 2).then(None).otherwise(pl.col("raw_text")).alias("raw_text")
    )
    validation = validate_table(TABLES["documents"], documents, tables)
    not_null = outcome(validation, "expect_column_values_to_not_be_null", "raw_text")
    assert (not_null.success, not_null.unexpected_count) == (False, 1)
    assert [o.column for o in validation.failures()] == ["raw_text"]


def test_match_outside_the_allowed_set_fails_the_value_set(tables):
    documents = tables["documents"].with_columns(
        pl.when(pl.col("match") == "exact").then(pl.lit("fuzzy")).otherwise(pl.col("match")).alias("match")
    )
    validation = validate_table(TABLES["documents"], documents, tables)
    in_set = outcome(validation, "expect_column_values_to_be_in_set", "match")
    assert (in_set.success, in_set.unexpected_count, in_set.unexpected_examples) == (False, 1, ["fuzzy"])
    assert in_set.details["value_set"] == list(MATCH_KINDS)
    assert len(validation.failures()) == 1


def test_negative_offset_fails_the_range(tables):
    mentions = tables["mentions"].with_columns(pl.Series("start", [-3, 54], dtype=pl.Int32))
    validation = validate_table(TABLES["mentions"], mentions, tables)
    in_range = outcome(validation, "expect_column_values_to_be_between", "start")
    assert (in_range.success, in_range.unexpected_count, in_range.unexpected_examples) == (False, 1, [-3])
    assert in_range.details["min_value"] == 0
    assert "start >= 0" in validation.summary_line()
    assert len(validation.failures()) == 1


def test_year_out_of_range_is_counted_and_nulls_are_ignored(tables):
    papers = tables["papers"].with_columns(pl.Series("year", [1850, None], dtype=pl.Int32))
    year = outcome(validate_table(TABLES["papers"], papers), "expect_column_values_to_be_between", "year")
    assert (year.success, year.unexpected_count, year.details["missing_count"]) == (False, 1, 1)


def test_empty_or_reversed_spans_fail_the_order_invariants(tables):
    mentions = tables["mentions"].with_columns(pl.Series("end", [11, 62], dtype=pl.Int32))
    end_after_start = outcome(
        validate_table(TABLES["mentions"], mentions, tables),
        "expect_column_pair_values_a_to_be_greater_than_b",
        "end",
    )
    assert (end_after_start.success, end_after_start.unexpected_count) == (False, 1)
    assert end_after_start.label() == "end > start"

    one_line = tables["documents"].with_columns(pl.Series("line_end", [3, 4, 2], dtype=pl.Int32))
    lines = outcome(
        validate_table(TABLES["documents"], one_line, tables),
        "expect_column_pair_values_a_to_be_greater_than_b",
        "line_end",
    )
    # line_end == line_start is a one-line paragraph (rows 1 and 3); only 4 < 5 fails
    assert (lines.success, lines.unexpected_count, lines.label()) == (False, 1, "line_end >= line_start")


def test_mention_of_an_unknown_paper_fails_the_foreign_key(tables):
    mentions = tables["mentions"].with_columns(pl.Series("paper_id", ["P1", "P404"]))
    validation = validate_table(TABLES["mentions"], mentions, tables)
    reference = outcome(validation, "expect_column_values_to_be_in_set", "paper_id")
    assert (reference.success, reference.unexpected_count, reference.unexpected_examples) == (
        False,
        1,
        ["P404"],
    )
    assert reference.details["value_set"] == "papers.paper_id"
    assert reference.details["engine"] == "polars"
    assert "paper_id in papers.paper_id (1 unexpected: ['P404'])" in validation.summary_line()


def test_foreign_key_without_the_related_table_is_recorded_as_skipped(tables):
    validation = validate_table(TABLES["mentions"], tables["mentions"], {"papers": tables["papers"]})
    skipped = outcome(validation, "expect_column_values_to_be_in_set", "entity_id")
    assert skipped.success
    assert skipped.details["skipped"] == "skipped: related table not given"
    assert validation.success
    assert validation.summary_line().endswith("; 1 skipped")


def test_missing_column_fails_the_column_list(tables):
    mentions = tables["mentions"].drop("text")
    validation = validate_table(TABLES["mentions"], mentions, tables)
    columns = outcome(validation, "expect_table_columns_to_match_ordered_list")
    assert (columns.success, columns.unexpected_count, columns.unexpected_examples) == (
        False,
        1,
        ["missing: text"],
    )
    # the rules on the missing column fail with an error instead of crashing the validation
    on_missing = [o for o in validation.failures() if o.column == "text"]
    assert on_missing and all("error" in o.details and o.unexpected_count == 0 for o in on_missing)


def test_reordered_columns_fail_the_column_list(tables):
    links = tables["links"].select(["url", "paper_id", "kind", "start", "end"])
    columns = outcome(
        validate_table(TABLES["links"], links, tables), "expect_table_columns_to_match_ordered_list"
    )
    assert not columns.success
    assert columns.unexpected_examples[0].startswith("order:")


def test_wrong_column_type_fails_the_type_expectation(tables):
    papers = tables["papers"].with_columns(pl.col("word_count").cast(pl.String))
    word_count = outcome(validate_table(TABLES["papers"], papers), "expect_column_type_to_be", "word_count")
    assert not word_count.success
    assert (word_count.details["type_"], word_count.details["observed_value"]) == ("Int32", "string")


def test_pandas_floats_pass_as_integers_only_when_every_value_is_whole(tables):
    papers = tables["papers"].to_pandas()
    assert str(papers["year"].dtype) == "float64"  # pandas' form of an integer column with nulls
    assert validate_table(TABLES["papers"], papers).success
    papers["word_count"] = [14.5, 2.0]
    word_count = outcome(validate_table(TABLES["papers"], papers), "expect_column_type_to_be", "word_count")
    assert (word_count.success, word_count.details["observed_value"]) == (False, "float64")


def test_mixed_type_pandas_column_is_reported_not_raised(tables):
    mentions = tables["mentions"].to_pandas()
    mentions["paper_id"] = ["P1", 7]
    validation = validate_table(TABLES["mentions"], mentions, tables)
    assert not outcome(validation, "expect_column_type_to_be", "paper_id").success
    reference = outcome(validation, "expect_column_values_to_be_in_set", "paper_id")
    assert not reference.success
    assert "mixed types" in reference.details["error"]


def test_write_reports_writes_json_and_html_naming_the_failure(tables, valid_validations, tmp_path):
    papers = pl.concat([tables["papers"], tables["papers"].head(1)])
    validations = [validate_table(TABLES["papers"], papers), valid_validations["links"]]
    paths = write_reports(validations, tmp_path / "reports", title="Test warehouse")
    assert set(paths) == {"json", "html"}
    report = json.loads(paths["json"].read_text(encoding="utf-8"))
    assert report["success"] is False
    assert report["built_at"]
    by_table = {table["table"]: table for table in report["tables"]}
    assert by_table["links"]["success"] is True
    assert (by_table["papers"]["success"], by_table["papers"]["n_rows"], by_table["papers"]["n_failed"]) == (
        False,
        3,
        1,
    )
    [failed] = [e for e in by_table["papers"]["expectations"] if not e["success"]]
    assert (failed["rule"], failed["column"], failed["unexpected_count"]) == (
        "paper_id unique",
        "paper_id",
        2,
    )
    page = paths["html"].read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "Test warehouse" in page and "paper_id unique" in page and "FAIL" in page
    assert "<script" not in page and "<link" not in page and "src=" not in page  # self-contained


def test_suite_is_derived_from_the_schema():
    base = Table("things", "Test table.", (Column("thing_id", pa.large_string(), "Id.", nullable=False),))
    base_types = [type(e) for e in build_suite(base).expectations]
    assert gxe.ExpectTableColumnsToMatchOrderedList in base_types

    with_label = replace(
        base, columns=(*base.columns, Column("label", pa.large_string(), "L.", nullable=False))
    )
    added = [e for e in build_suite(with_label).expectations if getattr(e, "column", None) == "label"]
    assert {type(e) for e in added} == {gxe.ExpectColumnTypeToBe, gxe.ExpectColumnValuesToNotBeNull}
    assert len(build_suite(with_label).expectations) == len(base_types) + 2

    with_kind = replace(
        base,
        columns=(*base.columns, Column("kind", pa.large_string(), "K.", allowed=("a", "b"))),
        primary_key=("thing_id", "kind"),
    )
    suite = build_suite(with_kind)
    [in_set] = [e for e in suite.expectations if isinstance(e, gxe.ExpectColumnValuesToBeInSet)]
    assert (in_set.column, in_set.value_set) == ("kind", ["a", "b"])
    [compound] = [e for e in suite.expectations if isinstance(e, gxe.ExpectCompoundColumnsToBeUnique)]
    assert compound.column_list == ["thing_id", "kind"]
    assert not any(
        isinstance(e, gxe.ExpectColumnValuesToNotBeNull) and e.column == "kind" for e in suite.expectations
    )


def test_rules_outside_the_suite_are_derived_from_the_schema_too():
    table = Table(
        "spans",
        "Test table.",
        (
            Column("owner", pa.large_string(), "Owner.", nullable=False),
            Column("start", pa.int32(), "Start.", nullable=False, min_value=0),
            Column("end", pa.int32(), "End.", nullable=False, min_value=0),
        ),
        foreign_keys=(ForeignKey("owner", "owners", "owner_id"),),
    )
    frame = pl.DataFrame({"owner": ["a", "b"], "start": [0, 4], "end": [3, 2]}).cast(
        {"start": pl.Int32, "end": pl.Int32}
    )
    validation = validate_table(table, frame, {"owners": pl.DataFrame({"owner_id": ["a"]})})
    failed = {(o.expectation, o.column, o.unexpected_count) for o in validation.failures()}
    assert failed == {
        ("expect_column_pair_values_a_to_be_greater_than_b", "end", 1),
        ("expect_column_values_to_be_in_set", "owner", 1),
    }
    ranges = [o for o in validation.outcomes if o.expectation == "expect_column_values_to_be_between"]
    assert [(o.column, o.success) for o in ranges] == [("start", True), ("end", True)]


def _counts(validation):
    return [(o.expectation, o.column, o.success, o.unexpected_count) for o in validation.outcomes]


def test_validation_in_chunks_counts_what_one_pass_counts(tables, tmp_path):
    """Row failures in several chunks add up; a duplicate key split across chunks is still found."""
    documents = pl.concat([tables["documents"]] * 3).with_columns(
        document_id=pl.format("d{}", pl.int_range(pl.len())),
        ordinal=pl.when(pl.int_range(pl.len()) % 4 == 1).then(-1).otherwise(pl.col("ordinal")),
        match=pl.when(pl.int_range(pl.len()) % 3 == 0).then(pl.lit("copy")).otherwise(pl.col("match")),
        line_end=pl.when(pl.int_range(pl.len()) == 7).then(0).otherwise(pl.col("line_end")),
    )
    documents = pl.concat([documents, documents.slice(1, 1)])  # the second row's id again, at the end
    whole = validate_table(TABLES["documents"], documents, tables)
    chunked = validate_table(TABLES["documents"], documents, tables, chunk_rows=2)
    assert len(chunked.gx_result["suite_runs"]) == 1 + 5  # the key columns, then five chunks of rows
    assert _counts(chunked) == _counts(whole)
    # Read from a file, in chunks of its rows, as the checks read staged tables: the same counts.
    path = tmp_path / "documents.parquet"
    documents.write_parquet(path, row_group_size=3)
    from_file = validate_table(TABLES["documents"], path, tables, chunk_rows=2)
    assert len(from_file.gx_result["suite_runs"]) == 1 + 5
    assert _counts(from_file) == _counts(whole)
    assert from_file.n_rows == whole.n_rows == 10
    failed = {(o.expectation, o.column): o.unexpected_count for o in chunked.failures()}
    assert failed == {
        ("expect_column_values_to_be_unique", "document_id"): 2,
        ("expect_column_values_to_be_between", "ordinal"): 3,
        ("expect_column_values_to_be_in_set", "match"): 3,
        ("expect_column_values_to_be_between", "line_end"): 1,
        ("expect_column_pair_values_a_to_be_greater_than_b", "line_end"): 1,
    }
    in_set = outcome(chunked, "expect_column_values_to_be_in_set", "match")
    assert in_set.unexpected_examples == ["copy"]
    assert in_set.details["unexpected_percent"] == pytest.approx(100 * 3 / 10)


def test_an_empty_table_is_validated_in_one_chunk(tables, tmp_path):
    empty = tables["documents"].clear()
    path = tmp_path / "documents.parquet"
    empty.write_parquet(path)
    for source in (empty, path):
        validation = validate_table(TABLES["documents"], source, tables, chunk_rows=2)
        assert validation.success, validation.summary_line()
        assert validation.n_rows == 0
        assert len(validation.gx_result["suite_runs"]) == 2


def test_rows_that_passed_before_are_not_given_to_gx_again(tables, tmp_path):
    documents = pl.concat([tables["documents"]] * 4).with_columns(
        document_id=pl.format("d{}", pl.int_range(pl.len()))
    )
    path = tmp_path / "documents.parquet"
    documents.write_parquet(path)
    first = validate_table(TABLES["documents"], path, tables, chunk_rows=4)
    assert first.success and first.reused_rows == 0 and len(first.row_hashes) == 12
    kept = tmp_path / "documents.passed.parquet"
    save_passed_rows(kept, TABLES["documents"], first.row_hashes)
    # Two new rows, one of them invalid: only they reach GX, and the counts are those of every row.
    new_rows = documents.slice(0, 2).with_columns(
        document_id=pl.Series(["n1", "n2"]), match=pl.Series(["first", "copy"])
    )
    pl.concat([documents, new_rows]).write_parquet(path)
    again = validate_table(
        TABLES["documents"],
        path,
        tables,
        chunk_rows=4,
        passed_rows=load_passed_rows(kept, TABLES["documents"]),
    )
    fresh = validate_table(TABLES["documents"], path, tables, chunk_rows=4)
    assert again.reused_rows == 12
    assert len(again.gx_result["suite_runs"]) == 1 + 1  # the key columns, then the two new rows
    assert _counts(again) == _counts(fresh)
    assert (
        [o.label() for o in again.failures()]
        == [o.label() for o in fresh.failures()]
        == [f"match in {list(MATCH_KINDS)}"]
    )
    in_set = outcome(again, "expect_column_values_to_be_in_set", "match")
    assert (
        in_set.details["missing_count"]
        == outcome(fresh, "expect_column_values_to_be_in_set", "match").details["missing_count"]
    )
    assert in_set.details["unexpected_percent"] == pytest.approx(100 / 14)
    assert "12 rows unchanged since a passed validation" in again.summary_line()


def _revalidated(tables, tmp_path, rows_after: Callable[[pl.DataFrame], pl.DataFrame]):
    """Validate twelve documents that pass, keep their row hashes, change the table, and validate it
    again with the hashes and without them."""
    documents = pl.concat([tables["documents"]] * 4).with_columns(
        document_id=pl.format("d{}", pl.int_range(pl.len()))
    )
    path, kept = tmp_path / "documents.parquet", tmp_path / "documents.passed.parquet"
    documents.write_parquet(path)
    first = validate_table(TABLES["documents"], path, tables, chunk_rows=4)
    assert first.success
    save_passed_rows(kept, TABLES["documents"], first.row_hashes)
    rows_after(documents).write_parquet(path)
    passed = load_passed_rows(kept, TABLES["documents"])
    again = validate_table(TABLES["documents"], path, tables, chunk_rows=4, passed_rows=passed)
    return again, validate_table(TABLES["documents"], path, tables, chunk_rows=4)


def _key_run_rows(validation) -> int:
    """How many rows GX's uniqueness run saw (the last suite run: the key columns)."""
    key_run = validation.gx_result["suite_runs"][-1]
    return key_run["results"][0]["result"]["element_count"]


def test_uniqueness_sees_new_rows_and_the_passed_rows_sharing_their_keys(tables, tmp_path):
    def add_two(documents):
        # One new row takes the id of a row that passed; the other is new throughout.
        new_rows = documents.slice(0, 2).with_columns(document_id=pl.Series(["d5", "n2"]), ordinal=pl.lit(9))
        return pl.concat([documents, new_rows])

    again, fresh = _revalidated(tables, tmp_path, add_two)
    assert _key_run_rows(again) == 3  # the two new rows and d5
    assert _counts(again) == _counts(fresh)
    unique = outcome(again, "expect_column_values_to_be_unique", "document_id")
    assert not unique.success and unique.unexpected_count == 2
    assert unique.unexpected_examples == ["d5"]
    assert unique.details["unexpected_percent"] == pytest.approx(100 * 2 / 14)


def test_a_passed_row_written_twice_is_a_repeated_key(tables, tmp_path):
    again, fresh = _revalidated(
        tables, tmp_path, lambda documents: pl.concat([documents, documents.slice(3, 1)])
    )
    assert again.reused_rows == 13  # each row passes the row-level expectations as before
    assert _key_run_rows(again) == 2  # but uniqueness sees the row written twice, both times
    assert _counts(again) == _counts(fresh)
    assert [o.label() for o in again.failures()] == ["document_id unique"]


def test_unchanged_keys_give_uniqueness_no_rows_to_see(tables, tmp_path):
    again, fresh = _revalidated(tables, tmp_path, lambda documents: documents.reverse())
    assert again.success and again.reused_rows == 12
    assert _key_run_rows(again) == 0
    assert _counts(again) == _counts(fresh)


def test_passed_rows_of_another_suite_are_not_used(tables, tmp_path):
    kept = tmp_path / "documents.passed.parquet"
    save_passed_rows(kept, TABLES["documents"], pl.Series([1, 2], dtype=pl.UInt64))
    assert load_passed_rows(kept, TABLES["documents"]).to_list() == [1, 2]
    assert load_passed_rows(kept, TABLES["papers"]) is None
    assert load_passed_rows(tmp_path / "absent.parquet", TABLES["documents"]) is None
