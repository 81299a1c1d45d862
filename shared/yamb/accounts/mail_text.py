"""What each mail says (A8, issue 29): its subject, plain text and HTML, in the recipient's
language.

Every sentence is a catalogue message (`Text`/`Plural` with `{nickname}`, `{link}`,
`{purgeDate}`…); the HTML is built here, every sentence and value escaped, so a nickname or an
address can never be markup. A mail is a greeting, paragraphs, at most one link (its label a
sentence of its own, the address on its own line in the plain text) and closing paragraphs."""

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from yamb.accounts.mail import MailKind
from yamb.i18n import Language, Plural, Text, format_date, render


@dataclass(frozen=True, slots=True)
class Mail:
    """A mail ready to send: what SES's Simple content takes."""

    kind: MailKind
    language: Language
    subject: str
    text: str
    html: str
    # Where an answer goes when it is not the sender (the contact form: the player).
    reply_to: str | None = None


@dataclass(frozen=True, slots=True)
class _Shape:
    subject: Text
    before: Sequence[Text | Plural]
    link: Text | None = None
    after: Sequence[Text | Plural] = ()


_SWITCH_OFF = Text(
    "You get this mail once each time you are away. Return reminders can be switched off in "
    "your settings."
)


def _shape(kind: MailKind, values: Mapping[str, object]) -> _Shape:
    """The sentences of a mail of `kind` (values already formatted for the language)."""
    match kind:
        case MailKind.VERIFY_EMAIL:
            return _Shape(
                Text("Yamb: confirm your e-mail address"),
                [Text("Confirm your e-mail address to start playing.")],
                Text("Confirm your e-mail address"),
                [Text("The link is valid 7 days. If you did not sign up, ignore this mail.")],
            )
        case MailKind.RESET_PASSWORD:
            return _Shape(
                Text("Yamb: choose a new password"),
                [Text("Choose a new password with the link below.")],
                Text("Choose a new password"),
                [
                    Text(
                        "The link is valid 2 hours and signs out every device. If you did not "
                        "ask for it, ignore this mail."
                    )
                ],
            )
        case MailKind.CHANGE_EMAIL:
            return _Shape(
                Text("Yamb: confirm your new e-mail address"),
                [Text("Confirm that this is your new address.")],
                Text("Confirm your new address"),
                [
                    Text(
                        "Until then your old address stays the one you sign in with. The link "
                        "is valid 7 days."
                    )
                ],
            )
        case MailKind.ACCOUNT_EXISTS:
            return _Shape(
                Text("Yamb: someone tried to sign up with your address"),
                [
                    Text(
                        "Someone tried to open a new Yamb account with this e-mail address, "
                        "which is already yours. If it was you, just sign in (a forgotten "
                        "password can be reset). If not, nothing changed and you can ignore "
                        "this mail."
                    )
                ],
            )
        case MailKind.EMAIL_CHANGE_NOTICE:
            return _Shape(
                Text("Yamb: your account's e-mail address is being changed"),
                [
                    Text(
                        "Someone signed in to your account asked to move it to {newEmail}. "
                        "Until that address confirms, this one stays the one you sign in with. "
                        "If it was not you, reset your password now: it signs out every device "
                        "and ends the change.",
                        newEmail=values.get("newEmail", ""),
                    )
                ],
            )
        case MailKind.DELETION:
            purge_date = values.get("purgeDate", "")
            return _Shape(
                Text("Yamb: your account will be deleted on {purgeDate}", purgeDate=purge_date),
                [
                    Plural(
                        "Your account is locked and will be deleted on {purgeDate} ({count} day "
                        "left). Sign in before then to keep it.",
                        "Your account is locked and will be deleted on {purgeDate} ({count} days "
                        "left). Sign in before then to keep it.",
                        _count(values.get("daysLeft")),
                        purgeDate=purge_date,
                    )
                ],
            )
        case MailKind.MODERATION_WARNING:
            return _Shape(
                Text("Yamb: a warning about your messages"),
                [
                    Text(
                        "Players reported something you wrote or your nickname, and a moderator "
                        "agreed with them. Please keep to the rules of fair and friendly play: a "
                        "repeat may close your account."
                    )
                ],
            )
        case MailKind.CONTACT:
            return _Shape(
                Text("Yamb contact: {subject}", subject=values.get("subject", "")),
                [
                    Text(
                        "{sender} wrote through the contact form (answer to reply to them):",
                        sender=values.get("sender", ""),
                    ),
                    Text("{message}", message=values.get("message", "")),
                ],
            )
        case MailKind.DELETION_CANCELLED:
            return _Shape(
                Text("Yamb: your account is kept"),
                [Text("You signed in, so your account will not be deleted. Welcome back.")],
            )
        case MailKind.RETURN_REMINDER:
            where = values.get("where")
            return _Shape(
                Text("Yamb: a game is waiting for you"),
                [where if isinstance(where, Text | Plural) else Text("A game is waiting for you.")],
                Text("Come back to Yamb"),
                [_SWITCH_OFF],
            )
        case MailKind.TOURNAMENT:
            return _Shape(
                Text("Yamb: a tournament for you"),
                [
                    Text(
                        "{name} starts on {start} at {hour}. Entries are open.",
                        name=str(values.get("name", "")),
                        start=str(values.get("start", "")),
                        hour=str(values.get("hour", "")),
                    )
                ],
                Text("See the tournament"),
                [Text("Tournament announcements can be switched off in your settings.")],
            )
        # Its e-mail group exists (A8), its feature not yet: a short mail leading to it.
        case MailKind.OFFER:
            return _Shape(
                Text("Yamb: an offer for you"),
                [Text("There is an offer for you in the Yamb shop.")],
                Text("See the offer"),
            )


def _count(value: object) -> int:
    try:
        return int(str(value))
    except ValueError:
        return 0


def compose(kind: MailKind, values: Mapping[str, object], language: Language) -> Mail:
    """The mail of `kind` for a reader of `language`. `values`: `nickname`, `link` (the
    mails with a link), `newEmail`, `purgeDate` (a date, written as the language writes
    dates), `daysLeft`, `where` (a sentence)."""
    formatted = {
        name: format_date(value, language) if isinstance(value, date) else value
        for name, value in values.items()
    }
    shape = _shape(kind, formatted)
    link = str(formatted.get("link") or "")
    greeting = render(Text("Hello {nickname},", nickname=formatted.get("nickname", "")), language)
    before = [render(sentence, language) for sentence in shape.before]
    after = [render(sentence, language) for sentence in shape.after]
    text_parts = [greeting, *before]
    html_parts = [f"<p>{html.escape(greeting)}</p>", *(_p(s) for s in before)]
    if shape.link is not None and link:
        label = render(shape.link, language)
        text_parts.append(f"{label}:\n{link}")
        html_parts.append(
            f'<p><a href="{html.escape(link, quote=True)}">{html.escape(label)}</a></p>'
        )
    text_parts += after
    html_parts += [_p(s) for s in after]
    return Mail(
        kind=kind,
        language=language,
        subject=render(shape.subject, language),
        text="\n\n".join(text_parts) + "\n",
        html=(
            f'<!doctype html><html lang="{language}"><head><meta charset="utf-8"></head><body>'
            + "".join(html_parts)
            + "</body></html>"
        ),
    )


def _p(sentence: str) -> str:
    return f"<p>{html.escape(sentence)}</p>"


__all__ = ["Mail", "compose"]
