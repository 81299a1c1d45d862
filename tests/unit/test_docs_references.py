"""What the docs cite exists: rules sections, product ids, links and module paths.

Code and docs cite the rules as "rules.md N" (also "rules.md 1, 4 and 8", "rules.md 1-4") and
the features by their ids ("product E3", "G10"); docs/rules.md and docs/product.md are the
reference (docs/decisions.md), so a citation of a missing section or id is a broken link. The
README and the manuals link each other by relative paths and anchors, and name modules by path
(`shared/yamb_service/economy/wallet_dynamo.py`, `yamb_service.progression.events`): a moved
file or a renamed heading must take its references along.
"""

import os
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).parents[2]
DOCS = ROOT / "docs"
SUFFIXES = {".py", ".js", ".md", ".yaml"}
SKIPPED_DIRS = {"node_modules", "build", "dist", "__pycache__"}

# "rules.md 7", "rules.md, 9", "rules.md 1, 4 and 8", "rules.md 1-4" (not "rules.md's").
RULES_CITATION = re.compile(r"rules\.md,?[ \t]+(\d+(?:[ \t]*(?:,|-|and)[ \t]*\d+)*)")
SECTION = re.compile(r"^## (\d+)\. ", re.MULTILINE)
PRODUCT_ID = re.compile(r"^- ([GASCERP]\d+) ", re.MULTILINE)
# In code: "product G1", "product.md E3"; in docs a bare id such as "E5" or "G10".
PRODUCT_CITATION = re.compile(r"\bproduct(?:\.md)?,?[ \t]+([GASCERP]\d+)\b")
BARE_ID = re.compile(r"(?<![\w/.#-])([GACERP]\d{1,2})(?![\w/.-])")
FENCED = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
INLINE_CODE = re.compile(r"`([^`\n]*)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} (.+?)\s*$", re.MULTILINE)
# A module named by a path from a package root or by its dotted name.
MODULE_PATH = re.compile(
    r"^(?:[\w.-]+/)*(?:yamb|yamb_service|yamb_tools|yamb_client|testkit)/[\w/]+\.py$"
)
DOTTED_MODULE = re.compile(r"^(?:yamb|yamb_service|yamb_tools|yamb_client)(?:\.\w+)+$")
PACKAGE_ROOTS = ("", "shared/", "tools/", "client/")


def _sources() -> Iterator[Path]:
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [
            d
            for d in dirs
            if not d.startswith(".") and d not in SKIPPED_DIRS and not d.endswith(".egg-info")
        ]
        for name in files:
            path = Path(folder) / name
            if path.suffix in SUFFIXES:
                yield path


def _cited_sections(text: str) -> Iterator[int]:
    for match in RULES_CITATION.finditer(text):
        for part in re.split(r"[ \t]*(?:,|and)[ \t]*", match.group(1)):
            if "-" in part:
                first, last = (int(n) for n in part.split("-"))
                yield from range(first, last + 1)
            else:
                yield int(part)


def _where(path: Path, text: str, position: int) -> str:
    return f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, position) + 1}"


def test_the_rules_and_product_docs_exist_with_their_sections_and_ids() -> None:
    # given the project's own reference docs
    rules = (DOCS / "rules.md").read_text(encoding="utf-8")
    product = (DOCS / "product.md").read_text(encoding="utf-8")
    # then the rules have sections 1-9 in order and the product every group's ids
    assert [int(n) for n in SECTION.findall(rules)] == list(range(1, 10))
    ids = PRODUCT_ID.findall(product)
    assert len(ids) == len(set(ids))
    assert {i[0] for i in ids} == set("GASCERP")


def test_every_rules_citation_names_an_existing_section() -> None:
    # given the sections of docs/rules.md
    sections = {int(n) for n in SECTION.findall((DOCS / "rules.md").read_text(encoding="utf-8"))}
    # when every "rules.md N" in the repository's code and docs is read
    broken, count = [], 0
    for path in _sources():
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in RULES_CITATION.finditer(text):
            cited = list(_cited_sections(match.group(0)))
            count += len(cited)
            if any(n not in sections for n in cited):
                broken.append(f"{_where(path, text, match.start())}: {match.group(0)}")
    # then each names a section that exists
    assert count > 50, "the citations were not found: has the pattern or the tree changed?"
    assert broken == []


def test_every_product_id_cited_exists() -> None:
    # given the ids of docs/product.md
    ids = set(PRODUCT_ID.findall((DOCS / "product.md").read_text(encoding="utf-8")))
    # when every "product X1" in the repository and every bare id in the docs is read
    broken = []
    for path in _sources():
        text = path.read_text(encoding="utf-8", errors="replace")
        found = list(PRODUCT_CITATION.finditer(text))
        if path.suffix == ".md" and (path.parent == DOCS or path == ROOT / "README.md"):
            # S is left out of bare ids: "S3" is also the AWS service.
            found += BARE_ID.finditer(text)
        broken += [
            f"{_where(path, text, m.start())}: {m.group(0)}" for m in found if m.group(1) not in ids
        ]
    # then each names a feature that exists
    assert broken == []


def _manuals() -> list[Path]:
    """The README and the docs, but the decision log: it records what was, old paths included."""
    return [ROOT / "README.md", *sorted(p for p in DOCS.glob("*.md") if p.name != "decisions.md")]


def _anchors(markdown: str) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens, -N repeats."""
    anchors: set[str] = set()
    seen: dict[str, int] = {}
    for heading in HEADING.findall(FENCED.sub("", markdown)):
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
        slug = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
        repeat = seen.get(slug, 0)
        seen[slug] = repeat + 1
        anchors.add(slug if repeat == 0 else f"{slug}-{repeat}")
    return anchors


def test_every_relative_link_of_the_docs_leads_to_a_file_and_heading() -> None:
    # given the README and the docs, links in code left out
    broken, count = [], 0
    for path in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        prose = INLINE_CODE.sub("", FENCED.sub("", text))
        # when each relative link is followed
        for match in LINK.finditer(prose):
            target = match.group(1)
            if re.match(r"[a-z]+:", target):
                continue
            count += 1
            file, _, anchor = target.partition("#")
            linked = (path.parent / file).resolve() if file else path
            if not linked.exists():
                broken.append(f"{path.relative_to(ROOT)}: {target} (no such file)")
            elif (
                anchor
                and linked.suffix == ".md"
                and anchor not in _anchors(linked.read_text(encoding="utf-8"))
            ):
                broken.append(f"{path.relative_to(ROOT)}: {target} (no such heading)")
    # then it leads to a file that exists, and to a heading of it
    assert count > 100
    assert broken == []


def _module_files(span: str) -> list[Path]:
    """Where a module named by path or dotted name may be: a module, a package, or a name in a
    module (`yamb_service.edge.http_api.Routes`), not a name in a package's __init__."""
    if MODULE_PATH.match(span):
        return [ROOT / root / span for root in PACKAGE_ROOTS]
    module = Path(*span.split("."))
    return [
        ROOT / root / file
        for root in ("shared/", "tools/", "client/")
        for file in (
            module.with_suffix(".py"),
            module / "__init__.py",
            module.parent.with_suffix(".py"),
        )
    ]


def test_every_module_the_manuals_name_exists() -> None:
    # given the modules named in code spans of the README and the manuals
    missing = []
    for path in _manuals():
        for span in INLINE_CODE.findall(path.read_text(encoding="utf-8")):
            named = MODULE_PATH.match(span) or DOTTED_MODULE.match(span)
            if named and not any(file.is_file() for file in _module_files(span)):
                missing.append(f"{path.relative_to(ROOT)}: {span}")
    # then each is where they say
    assert missing == []
