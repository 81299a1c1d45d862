"""The local mailbox: every mail sent through the embedded SES, as a person would read it.

moto keeps what was sent in ``moto.ses.models.ses_backends[account][region].sent_messages``:
`Message` (SES v1 ``SendEmail`` and SES v2 ``SendEmail`` with ``Simple`` content; moto keeps one
body part, the HTML one when there is one), `TemplateMessage` (``SendTemplatedEmail``, and
``SendBulkTemplatedEmail`` with a list of destinations; only the template's name and data) and
`RawMessage` (``SendRawEmail``, SES v2 ``Raw`` content). `mails_from_ses` turns them into `Mail`s,
with what the embedded AWS noted when each was sent (`MailNote`: the moment on the stack's clock,
both body parts of a simple mail, the template as it was).

Templated mails are rendered as SES renders them (Handlebars): ``{{name}}`` and dotted paths
(``{{user.name}}``), HTML-escaped in the HTML part, ``{{{name}}}`` unescaped, ``{{#if}}``,
``{{#unless}}``, ``{{else}}``, ``{{#each}}`` (``{{this}}``, ``{{@index}}``, ``{{@key}}``). A
placeholder without data renders empty and marks the mail with `error` (SES would not deliver it:
a rendering failure).
"""

from __future__ import annotations

import email
import email.policy
import html
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr
from typing import Any

__all__ = [
    "Mail",
    "MailNote",
    "find_links",
    "mailbox_page",
    "mails_from_ses",
    "render_template",
]

_LINK = re.compile(r"https?://[^\s<>\"'`]+", re.IGNORECASE)
_TAG = re.compile(r"\{\{\{\s*(.*?)\s*\}\}\}|\{\{~?\s*(.*?)\s*~?\}\}", re.DOTALL)
# Handlebars' escapeExpression.
_ESCAPES = str.maketrans(
    {
        "&": "&amp;",
        "<": "&lt;",
        ">": "&gt;",
        '"': "&quot;",
        "'": "&#x27;",
        "`": "&#x60;",
        "=": "&#x3D;",
    }
)


@dataclass(frozen=True)
class MailNote:
    """What the embedded AWS notes when a mail is sent (moto keeps none of it)."""

    sent_at: datetime
    text: str | None = None
    html: str | None = None
    template: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Mail:
    """One mail of the mailbox."""

    id: str
    sender: str
    to: tuple[str, ...]
    subject: str
    text: str | None
    html: str | None
    sent_at: datetime | None
    links: tuple[str, ...]
    cc: tuple[str, ...] = ()
    bcc: tuple[str, ...] = ()
    kind: str = "simple"
    template: str | None = None
    template_data: Any = None
    error: str | None = None

    def recipients(self) -> tuple[str, ...]:
        return (*self.to, *self.cc, *self.bcc)

    def is_for(self, address: str) -> bool:
        """Whether `address` (any case, with or without a display name) receives it."""
        wanted = parseaddr(address)[1].casefold()
        return any(parseaddr(r)[1].casefold() == wanted for r in self.recipients())

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "from": self.sender,
            "to": list(self.to),
            "cc": list(self.cc),
            "bcc": list(self.bcc),
            "subject": self.subject,
            "text": self.text,
            "html": self.html,
            "sentAt": None if self.sent_at is None else _iso(self.sent_at),
            "links": list(self.links),
            "kind": self.kind,
            "template": self.template,
            "templateData": self.template_data,
            "error": self.error,
        }


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


# ------------------------------------------------------------------------------ links


def find_links(*parts: str | None, html_parts: Iterable[str | None] = ()) -> tuple[str, ...]:
    """The http(s) URLs in the text parts and the HTML parts (entities decoded), in order, once
    each; trailing punctuation is not part of a link."""
    found: dict[str, None] = {}
    sources = [part for part in parts if part] + [
        html.unescape(part) for part in html_parts if part
    ]
    for source in sources:
        for match in _LINK.finditer(source):
            link = match.group(0).rstrip(".,;:!?")
            while link.endswith(")") and link.count("(") < link.count(")"):
                link = link[:-1].rstrip(".,;:!?")
            found.setdefault(link, None)
    return tuple(found)


# ------------------------------------------------------------------------------ templates


@dataclass
class _Node:
    kind: str  # "text", "var", "block"
    value: str = ""
    raw: bool = False
    helper: str = ""
    children: list[_Node] = field(default_factory=list)
    inverse: list[_Node] = field(default_factory=list)


def _parse(template: str) -> list[_Node]:
    root = _Node("block", helper="root")
    stack = [root]
    in_inverse = [False]
    position = 0

    def add(node: _Node) -> None:
        target = stack[-1].inverse if in_inverse[-1] else stack[-1].children
        target.append(node)

    for match in _TAG.finditer(template):
        if match.start() > position:
            add(_Node("text", template[position : match.start()]))
        position = match.end()
        if match.group(1) is not None:
            add(_Node("var", match.group(1), raw=True))
            continue
        tag = match.group(2)
        if tag.startswith("!"):
            continue  # a comment
        if tag.startswith("#"):
            helper, _, argument = tag[1:].partition(" ")
            block = _Node("block", argument.strip(), helper=helper)
            add(block)
            stack.append(block)
            in_inverse.append(False)
        elif tag == "else" and len(stack) > 1:
            in_inverse[-1] = True
        elif tag.startswith("/") and len(stack) > 1:
            stack.pop()
            in_inverse.pop()
        else:
            add(_Node("var", tag))
    if position < len(template):
        add(_Node("text", template[position:]))
    return root.children


_MISSING = object()


def _lookup(path: str, scopes: list[Any], specials: Mapping[str, Any]) -> Any:
    if path in specials:
        return specials[path]
    if path in ("this", "."):
        return scopes[-1]
    parts = path.removeprefix("this.").split(".")
    scope = scopes[-1] if path.startswith("this.") else None
    candidates = [scope] if scope is not None else list(reversed(scopes))
    for candidate in candidates:
        value: Any = candidate
        for part in parts:
            if isinstance(value, Mapping) and part in value:
                value = value[part]
            else:
                value = _MISSING
                break
        if value is not _MISSING:
            return value
    return _MISSING


def _truthy(value: Any) -> bool:
    if isinstance(value, list | dict):
        return bool(value)
    return value not in (_MISSING, None, False, "", 0)


def _display(value: Any) -> str:
    if value is None or value is _MISSING:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | int | float):
        return str(value)
    return json.dumps(value)


def _render(
    nodes: Sequence[_Node],
    scopes: list[Any],
    specials: Mapping[str, Any],
    escape: bool,
    missing: list[str],
) -> str:
    out: list[str] = []
    for node in nodes:
        if node.kind == "text":
            out.append(node.value)
        elif node.kind == "var":
            value = _lookup(node.value, scopes, specials)
            if value is _MISSING:
                missing.append(node.value)
            text = _display(value)
            out.append(text if node.raw or not escape else text.translate(_ESCAPES))
        else:
            out.append(_render_block(node, scopes, specials, escape, missing))
    return "".join(out)


def _render_block(
    node: _Node,
    scopes: list[Any],
    specials: Mapping[str, Any],
    escape: bool,
    missing: list[str],
) -> str:
    value = _lookup(node.value, scopes, specials)
    if node.helper in ("if", "unless"):
        chosen = node.children if _truthy(value) == (node.helper == "if") else node.inverse
        return _render(chosen, scopes, specials, escape, missing)
    if node.helper == "each":
        if isinstance(value, Mapping):
            items = list(value.items())
        elif isinstance(value, list):
            items = list(enumerate(value))
        else:
            items = []
        if not items:
            return _render(node.inverse, scopes, specials, escape, missing)
        rendered = []
        for index, (key, item) in enumerate(items):
            inner = {
                **specials,
                "@index": index,
                "@key": key,
                "@first": index == 0,
                "@last": index == len(items) - 1,
            }
            rendered.append(_render(node.children, [*scopes, item], inner, escape, missing))
        return "".join(rendered)
    if node.helper == "with":
        if not _truthy(value):
            return _render(node.inverse, scopes, specials, escape, missing)
        return _render(node.children, [*scopes, value], specials, escape, missing)
    return _render(node.children, scopes, specials, escape, missing)


def render_template(template: str, data: Any, *, escape: bool = False) -> tuple[str, list[str]]:
    """`template` rendered with `data` as SES does (Handlebars); with `escape`, values are
    HTML-escaped (the HTML part). Also the placeholders that had no data."""
    missing: list[str] = []
    rendered = _render(_parse(template), [data], {}, escape, missing)
    return rendered, missing


# ------------------------------------------------------------------------------ from moto


def _addresses(values: Iterable[str] | None) -> tuple[str, ...]:
    return tuple(str(value) for value in (values or ()))


def _template_data(raw: Any) -> tuple[Any, str | None]:
    if raw is None or raw == "":
        return {}, None
    try:
        return json.loads(raw), None
    except (TypeError, ValueError):
        return {}, "TemplateData is not JSON"


def _templated(
    *,
    mail_id: str,
    source: str,
    destination: Mapping[str, Any],
    name: str,
    template: Mapping[str, Any] | None,
    data: Any,
    data_error: str | None,
    sent_at: datetime | None,
) -> Mail:
    subject = text = page = None
    error = data_error
    if template is None:
        error = error or f"Template {name} does not exist"
    else:
        missing: list[str] = []
        subject, gone = render_template(str(template.get("subject_part") or ""), data)
        missing += gone
        if template.get("text_part"):
            text, gone = render_template(str(template["text_part"]), data)
            missing += gone
        if template.get("html_part"):
            page, gone = render_template(str(template["html_part"]), data, escape=True)
            missing += gone
        if missing and error is None:
            names = ", ".join(dict.fromkeys(missing))
            error = f"Attribute {names} is not present in the rendering data (not delivered)"
    return Mail(
        id=mail_id,
        sender=source,
        to=_addresses(destination.get("ToAddresses")),
        cc=_addresses(destination.get("CcAddresses")),
        bcc=_addresses(destination.get("BccAddresses")),
        subject=subject or "",
        text=text,
        html=page,
        sent_at=sent_at,
        links=find_links(text, html_parts=[page]),
        kind="templated",
        template=name,
        template_data=data,
        error=error,
    )


def _raw(message: Any, note: MailNote | None) -> Mail:
    parsed = email.message_from_string(message.raw_data, policy=email.policy.default)
    assert isinstance(parsed, EmailMessage)
    text = page = None
    for part in parsed.walk():
        if part.is_multipart() or part.get_content_disposition() == "attachment":
            continue
        content_type = part.get_content_type()
        if content_type == "text/plain" and text is None:
            text = str(part.get_content())
        elif content_type == "text/html" and page is None:
            page = str(part.get_content())
    to = tuple(f"{n} <{a}>" if n else a for n, a in getaddresses(parsed.get_all("To", [])))
    cc = tuple(f"{n} <{a}>" if n else a for n, a in getaddresses(parsed.get_all("Cc", [])))
    listed = {parseaddr(address)[1].casefold() for address in (*to, *cc)}
    bcc = tuple(
        dict.fromkeys(
            address
            for address in message.destinations or ()
            if parseaddr(address)[1].casefold() not in listed
        )
    )
    return Mail(
        id=message.id,
        sender=str(message.source or parsed.get("From", "")),
        to=to,
        cc=cc,
        bcc=bcc,
        subject=str(parsed.get("Subject", "")),
        text=text,
        html=page,
        sent_at=None if note is None else note.sent_at,
        links=find_links(text, html_parts=[page]),
        kind="raw",
    )


def mails_from_ses(backend: Any, notes: Mapping[str, MailNote]) -> list[Mail]:
    """The mails of moto's SES backend, oldest first."""
    mails: list[Mail] = []
    for message in list(backend.sent_messages):
        note = notes.get(message.id)
        sent_at = None if note is None else note.sent_at
        if hasattr(message, "raw_data"):
            mails.append(_raw(message, note))
        elif hasattr(message, "template"):
            template = (
                note.template
                if note is not None and note.template is not None
                else backend.templates.get(message.template)
            )
            data, data_error = _template_data(message.template_data)
            destinations = message.destinations
            if isinstance(destinations, list):  # SendBulkTemplatedEmail
                for index, entry in enumerate(destinations):
                    replacement, replacement_error = _template_data(
                        entry.get("ReplacementTemplateData")
                    )
                    merged = (
                        {**data, **replacement}
                        if isinstance(data, dict) and isinstance(replacement, dict)
                        else data
                    )
                    mails.append(
                        _templated(
                            mail_id=f"{message.id}-{index}",
                            source=message.source,
                            destination=entry.get("Destination") or {},
                            name=message.template,
                            template=template,
                            data=merged,
                            data_error=data_error or replacement_error,
                            sent_at=sent_at,
                        )
                    )
            else:
                mails.append(
                    _templated(
                        mail_id=message.id,
                        source=message.source,
                        destination=destinations or {},
                        name=message.template,
                        template=template,
                        data=data,
                        data_error=data_error,
                        sent_at=sent_at,
                    )
                )
        else:
            if note is not None and (note.text is not None or note.html is not None):
                text, page = note.text, note.html
            else:  # moto's one body part
                text, page = message.body, None
            destinations = message.destinations or {}
            mails.append(
                Mail(
                    id=message.id,
                    sender=message.source,
                    to=_addresses(destinations.get("ToAddresses")),
                    cc=_addresses(destinations.get("CcAddresses")),
                    bcc=_addresses(destinations.get("BccAddresses")),
                    subject=message.subject or "",
                    text=text,
                    html=page,
                    sent_at=sent_at,
                    links=find_links(text, html_parts=[page]),
                )
            )
    return mails


# ------------------------------------------------------------------------------ the page

_STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; color: #222; }
h1 { font-size: 1.4rem; } .empty { color: #777; }
article { border: 1px solid #ddd; border-radius: 6px; padding: .8rem 1rem; margin: 1rem 0; }
article h2 { font-size: 1.1rem; margin: 0 0 .3rem; } .meta { color: #555; font-size: .9rem; }
.links a { display: block; word-break: break-all; margin: .2rem 0; } .error { color: #b00; }
pre { white-space: pre-wrap; background: #f7f7f7; padding: .6rem; border-radius: 4px; }
"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def mailbox_page(mails: Sequence[Mail], *, to: str | None = None) -> str:
    """The mailbox (`mails` oldest first, as sent) as an HTML page, newest first. Everything from
    a mail is escaped text; the only markup is this page's own, and the links' anchors (http and
    https URLs only)."""
    title = "Local mailbox" + (f" for {to}" if to else "")
    articles = []
    for mail in reversed(mails):
        links = "".join(
            f'<a href="{_e(link)}">{_e(link)}</a>'
            for link in mail.links
            if link.lower().startswith(("http://", "https://"))
        )
        sent = "" if mail.sent_at is None else _e(_iso(mail.sent_at))
        parts = [
            f"<h2>{_e(mail.subject or '(no subject)')}</h2>",
            f'<div class="meta">{sent} &middot; from {_e(mail.sender)} to '
            f"{_e(', '.join(mail.recipients()))}"
            + (f" &middot; template {_e(mail.template)}" if mail.template else "")
            + "</div>",
        ]
        if mail.error:
            parts.append(f'<p class="error">{_e(mail.error)}</p>')
        if links:
            parts.append(f'<div class="links">{links}</div>')
        if mail.text is not None:
            parts.append(f"<pre>{_e(mail.text)}</pre>")
        if mail.html is not None:
            parts.append(
                f"<details><summary>HTML part</summary><pre>{_e(mail.html)}</pre></details>"
            )
        articles.append("<article>" + "".join(parts) + "</article>")
    body = "".join(articles) or '<p class="empty">No mail yet.</p>'
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{_e(title)}</title><style>{_STYLE}</style></head>"
        f"<body><h1>{_e(title)}</h1>{body}</body></html>"
    )
