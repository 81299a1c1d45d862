"""The local mailbox: every mail sent through the embedded SES, as a person would read it.

moto keeps what was sent in ``moto.ses.models.ses_backends[account][region].sent_messages``:
`Message` (SES v1 ``SendEmail`` and SES v2 ``SendEmail`` with ``Simple`` content; moto keeps one
body part, the HTML one when there is one) and `RawMessage` (``SendRawEmail``, SES v2 ``Raw``
content). `mails_from_ses` turns them into `Mail`s, with what the embedded AWS noted when each was
sent (`MailNote`: the moment on the stack's clock, both body parts of a simple mail).

The stack's mails are composed by its code, in their recipient's language
(yamb.accounts.mail_text), and sent as simple mails: it has no SES template, and a templated mail
sent by other code is listed with an `error` saying the local mailbox does not render templates.
"""

from __future__ import annotations

import email
import email.policy
import html
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
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
]

_LINK = re.compile(r"https?://[^\s<>\"'`]+", re.IGNORECASE)


@dataclass(frozen=True)
class MailNote:
    """What the embedded AWS notes when a mail is sent (moto keeps none of it)."""

    sent_at: datetime
    text: str | None = None
    html: str | None = None


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


# ------------------------------------------------------------------------------ from moto


def _addresses(values: Iterable[str] | None) -> tuple[str, ...]:
    return tuple(str(value) for value in (values or ()))


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
            destinations = message.destinations
            mails.append(
                Mail(
                    id=message.id,
                    sender=message.source,
                    to=_addresses((destinations or {}).get("ToAddresses"))
                    if isinstance(destinations, Mapping)
                    else (),
                    subject="",
                    text=None,
                    html=None,
                    sent_at=sent_at,
                    links=(),
                    kind="templated",
                    error=f"template {message.template}: the local mailbox renders no template",
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
            f"{_e(', '.join(mail.recipients()))}" + "</div>",
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
