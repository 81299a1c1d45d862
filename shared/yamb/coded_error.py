"""A refusal with a stable code for clients, the request field when there is one, and a sentence
for people: the shape of the accounts', economy's and results' errors. Nothing is changed when
one is raised. The sentence is a `Text` (or `Plural`, its `text`) rendered in the reader's
language where the error becomes a reply; `message` and `str(error)` are its English."""

from yamb.i18n import Plural, Text


class CodedError[Code: str](Exception):
    code: Code

    def __init__(
        self,
        message: Text | Plural | str,
        *,
        code: Code | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(str(message))
        # `text`: the sentence, rendered in the reader's language where the refusal becomes a
        # reply; `message`: its English (logs, tools, tests).
        self.text = message
        self.message = str(message)
        self.field = field
        if code is not None:
            self.code = code
