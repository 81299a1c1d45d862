"""The message catalogues (issue 29): extracted from the sources with Babel, translated in
gettext `.po` files, compiled for their readers.

Two domains, each a template (`.pot`) and one `.po` per language besides English (the message
ids are the English sentences):

- `yamb`, the server and the terminal client: `Text("…")` and `Plural("…", "…", n)` in
  shared/, functions/ and client/yamb_client, compiled to `.mo` beside each `.po`
  (shared/yamb/i18n/locales/<lang>/LC_MESSAGES/yamb.po), read by the standard library's gettext;
- `web`, the browser: `t("…")` and `tn("…", "…", n)` in client/web/js and the `data-i18n`
  elements of index.html, compiled to client/web/locales/<lang>.json for js/i18n.js, with the
  language's plural categories (Intl.PluralRules) mapped to the gettext forms.

    python -m yamb_tools.catalogues update   # extract, merge into every .po, compile
    python -m yamb_tools.catalogues check    # what tests/unit/test_catalogues.py asserts
    python -m yamb_tools.catalogues counts   # the messages of each language
"""

import gettext
import io
import json
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[2]
# The catalogues' header dates stay put, so that only a changed message changes a file.
STAMP = datetime(2026, 12, 4, tzinfo=UTC)
TRANSLATED = ("fr", "da", "hr")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
CLDR_ORDER = ("zero", "one", "two", "few", "many", "other")


@dataclass(frozen=True)
class Domain:
    name: str
    template: Path
    sources: tuple[tuple[str, str], ...]  # (folder, extraction method)
    keywords: dict[str, tuple[int | tuple[int, str], ...]]

    def po(self, language: str) -> Path:
        if self.name == "web":
            return self.template.parent / f"{language}.po"
        return self.template.parent / language / "LC_MESSAGES" / f"{self.name}.po"

    def compiled(self, language: str) -> Path:
        if self.name == "web":
            return self.template.parent / f"{language}.json"
        return self.po(language).with_suffix(".mo")


SERVER = Domain(
    "yamb",
    ROOT / "shared/yamb/i18n/locales/yamb.pot",
    (("shared", "python"), ("functions", "python"), ("client/yamb_client", "python")),
    {"Text": (1,), "Plural": (1, 2)},
)
WEB = Domain(
    "web",
    ROOT / "client/web/locales/web.pot",
    (("client/web/js", "javascript"), ("client/web", "html")),
    {"t": (1,), "tn": (1, 2), "tc": ((1, "c"), 2)},
)
DOMAINS = (SERVER, WEB)


# ------------------------------------------------------------------------------ extraction


# The attributes whose value is the message id, by the mark that says so (js/i18n.js's
# translatePage reads the same marks).
_MARKED_ATTRIBUTES = {"data-i18n-label": "aria-label", "data-i18n-placeholder": "placeholder"}


class _Marked(HTMLParser):
    """The text of each element marked `data-i18n` in a page (its message id), and the
    aria-label or placeholder of those marked `data-i18n-label` or `data-i18n-placeholder`."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[int, str]] = []
        self._open: list[tuple[str, int, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for mark, attribute in _MARKED_ATTRIBUTES.items():
            text = " ".join((values.get(attribute) or "").split())
            if mark in values and text:
                self.found.append((self.getpos()[0], text))
        if "data-i18n" in values:
            self._open.append((tag, self.getpos()[0], []))

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1][2].append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1][0] == tag:
            _, line, parts = self._open.pop()
            text = " ".join("".join(parts).split())
            if text:
                self.found.append((line, text))


def marked_words(html: str) -> list[tuple[int, str]]:
    """The message ids a page marks (`data-i18n`, `data-i18n-label`, `data-i18n-placeholder`),
    each with its line."""
    marked = _Marked()
    marked.feed(html)
    return marked.found


def _from_html(folder: Path) -> Iterator[tuple[str, int, str]]:
    for page in sorted(folder.glob("*.html")):
        for line, text in marked_words(page.read_text()):
            yield str(page.relative_to(ROOT)), line, text


def extract(domain: Domain) -> Catalog:
    """Every message of the domain's sources, as a template."""
    template = _catalog(None, domain)
    for folder, method in domain.sources:
        path = ROOT / folder
        if method == "html":
            for filename, line, text in _from_html(path):
                template.add(text, locations=[(filename, line)])
            continue
        found = extract_from_dir(
            str(path),
            method_map=[(f"**.{'py' if method == 'python' else 'js'}", method)],
            keywords=domain.keywords,
            comment_tags=("i18n:",),
            options_map={"**.js": {"parse_template_string": "true"}},
            strip_comment_tags=True,
        )
        for filename, line, message, comments, context in found:
            if method == "python" and "/tests/" in f"/{filename}":
                continue
            template.add(
                message,
                locations=[(str((path / filename).relative_to(ROOT)), line)],
                auto_comments=comments,
                context=context,
            )
    return template


def _catalog(language: str | None, domain: Domain) -> Catalog:
    return Catalog(
        locale=language,
        domain=domain.name,
        project="Yamb",
        version="1",
        copyright_holder="the Yamb authors",
        msgid_bugs_address="the project's issues",
        creation_date=STAMP,
        revision_date=STAMP,
        last_translator="the Yamb authors",
        language_team=f"{language or 'en'} (docs/languages.md)",
        fuzzy=False,
    )


def _settled(catalog: Catalog, language: str, domain: Domain) -> Catalog:
    """The catalogue with the project's header (Babel's update keeps a new file's blanks)."""
    settled = _catalog(language, domain)
    for message in catalog:
        if message.id:
            settled[message.id] = message
    return settled


def _ids(catalog: Catalog) -> set[str | tuple[str, ...]]:
    return {_key(m) if len(_texts(m.id)) == 1 else tuple(_texts(m.id)) for m in catalog if m.id}


def _key(message: Message) -> str:
    """A message's key in the page's catalogue: its id, after its context as gettext joins
    them ("column\x04Free": the column, not the price)."""
    first = _texts(message.id)[0]
    return f"{message.context}\x04{first}" if message.context else first


# ------------------------------------------------------------------------------ reading, writing


def read(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=language)


def write(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    # No source locations: a moved line would rewrite every catalogue.
    write_po(buffer, catalog, width=100, no_location=True, sort_output=True, omit_header=False)
    path.write_bytes(buffer.getvalue())


def compile_mo(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def plural_indexes(language: str, plural_expression: str) -> dict[str, int]:
    """Which gettext form each of the language's CLDR plural categories takes: the browser's
    Intl.PluralRules names the category, the catalogue holds forms by gettext's index."""
    formula = gettext.c2py(plural_expression)
    rule = Locale.parse(language).plural_form
    indexes: dict[str, int] = {}
    for n in [*range(0, 1000), 1_000_000, 2_000_000]:
        category = rule(n)
        indexes.setdefault(category, formula(n))
    return {category: indexes[category] for category in CLDR_ORDER if category in indexes}


def compile_json(catalog: Catalog, language: str) -> str:
    messages: dict[str, str | list[str]] = {}
    for message in catalog:
        if not message.id or message.fuzzy or not _translated(message):
            continue
        if isinstance(message.id, tuple | list):
            messages[_key(message)] = _texts(message.string)
        else:
            messages[_key(message)] = str(message.string)
    expression = catalog.plural_expr
    body = {
        "language": language,
        "plurals": plural_indexes(language, expression),
        "messages": messages,
    }
    return json.dumps(body, ensure_ascii=False, sort_keys=True, indent=0) + "\n"


def compiled(domain: Domain, catalog: Catalog, language: str) -> bytes:
    if domain.name == "web":
        return compile_json(catalog, language).encode()
    return compile_mo(catalog)


def _translated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, tuple | list) else [message.string]
    return all(bool(text) for text in strings)


# ------------------------------------------------------------------------------ the commands


def update() -> None:
    for domain in DOMAINS:
        template = extract(domain)
        write(domain.template, template)
        for language in TRANSLATED:
            path = domain.po(language)
            catalog = read(path, language) if path.exists() else _catalog(language, domain)
            catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
            write(path, _settled(catalog, language, domain))
            domain.compiled(language).write_bytes(compiled(domain, read(path, language), language))


def drift() -> Iterable[str]:
    """What keeps the catalogues from being current: a template that is not the sources'
    (a sentence in the code and not in the catalogue), a .po without the template's messages,
    a compiled file that is not its .po's; nothing when they are current."""
    yield from unextracted()
    for domain in DOMAINS:
        expected = _ids(extract(domain))
        template = read(domain.template)
        if _ids(template) != expected:
            missing = sorted(map(str, expected - _ids(template)))[:10]
            stale = sorted(map(str, _ids(template) - expected))[:10]
            yield (
                f"{domain.template.name} is not the sources' (make catalogues): "
                f"new {missing}, gone {stale}"
            )
        for language in TRANSLATED:
            path = domain.po(language)
            if not path.exists():
                yield f"{path.relative_to(ROOT)} is missing (make catalogues)"
                continue
            catalog = read(path, language)
            if _ids(catalog) != expected:
                where = path.relative_to(ROOT)
                yield f"{where} does not hold the template's messages (make catalogues)"
            built = domain.compiled(language)
            if not built.exists() or built.read_bytes() != compiled(domain, catalog, language):
                yield f"{built.relative_to(ROOT)} is not compiled from its .po (make catalogues)"


# A call of the page's catalogue functions with a literal sentence, as a reader finds it: Babel's
# JavaScript extractor misses a call inside a template literal's `${…}` that holds braces of its
# own, or nested in another call's arguments; such a sentence would never be translated.
_PAGE_CALL = re.compile(
    r'(?<![\w.])(?:tn?\(\s*"((?:[^"\\]|\\.)*)"|tc\(\s*"(?:[^"\\]|\\.)*"\s*,\s*"((?:[^"\\]|\\.)*)")'
)


def unextracted() -> Iterator[str]:
    """Each call of t/tn/tc in the page's modules whose sentence Babel did not extract."""
    ids = {_texts(message.id)[0] for message in extract(WEB) if message.id}
    for module in sorted((ROOT / "client/web/js").rglob("*.js")):
        for number, line in enumerate(module.read_text().splitlines(), 1):
            if line.lstrip().startswith(("//", "*", "/*")):
                continue
            for call in _PAGE_CALL.finditer(line):
                sentence = json.loads(
                    f'"{call.group(1) if call.group(1) is not None else call.group(2)}"'
                )
                if sentence not in ids:
                    where = f"{module.relative_to(ROOT)}:{number}"
                    yield f"{where}: {sentence!r} is not extracted (name it before its call)"


def untranslated() -> Iterable[str]:
    """Each message a language lacks, or whose placeholders differ from the English."""
    for domain in DOMAINS:
        for language in TRANSLATED:
            path = domain.po(language)
            if path.exists():
                yield from _message_problems(read(path, language), language, path)


def counts() -> dict[str, dict[str, int]]:
    """The translated messages of each domain and language (English: the template's)."""
    table: dict[str, dict[str, int]] = {}
    for domain in DOMAINS:
        row = {"en": len(_ids(read(domain.template)))}
        for language in TRANSLATED:
            catalog = read(domain.po(language), language)
            row[language] = sum(1 for m in catalog if m.id and not m.fuzzy and _translated(m))
        table[domain.name] = row
    return table


def _message_problems(catalog: Catalog, language: str, path: Path) -> Iterator[str]:
    where = path.relative_to(ROOT)
    for message in catalog:
        if not message.id:
            continue
        ids = _texts(message.id)
        strings = _texts(message.string)
        if message.fuzzy or not all(strings):
            yield f"{where}: {ids[0]!r} is not translated"
            continue
        if len(ids) > 1 and len(strings) != catalog.num_plurals:
            forms = catalog.num_plurals
            yield f"{where}: {ids[0]!r} has {len(strings)} forms, {language} has {forms}"
        wanted = set().union(*(set(PLACEHOLDER.findall(text)) for text in ids))
        for text in strings:
            if set(PLACEHOLDER.findall(text)) - wanted or (
                len(ids) == 1 and set(PLACEHOLDER.findall(text)) != wanted
            ):
                yield f"{where}: {ids[0]!r} -> {text!r}: its placeholders differ"


def _texts(value: object) -> list[str]:
    if isinstance(value, tuple | list):
        return [str(text or "") for text in value]
    return [str(value or "")]


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "update":
        update()
        return 0
    if command == "counts":
        for name, row in counts().items():
            print(name, " ".join(f"{language}={n}" for language, n in row.items()))
        return 0
    found = [*drift(), *untranslated()]
    for problem in found:
        print(problem)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
