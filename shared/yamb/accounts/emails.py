"""E-mail addresses: the syntax checked by email-validator (no DNS lookup: a sign-up must not
wait on one), kept as it normalises them."""

from yamb.accounts.errors import AccountError
from yamb.i18n import Text


def check_email(address: str, *, field: str = "email") -> str:
    # Imported here: it costs about 45 ms, and only the routes that take an address need it.
    from email_validator import EmailNotValidError, validate_email  # noqa: PLC0415

    try:
        checked = validate_email(address, check_deliverability=False)
    except EmailNotValidError as error:
        raise AccountError(
            Text("this is not an e-mail address: {error}", error=error),
            code="email_invalid",
            field=field,
        ) from None
    return str(checked.normalized)


def email_key(address: str) -> str:
    """Two spellings of one address (the domain's case, the local part's case: Cognito's
    usernames are case-insensitive here) are the same address."""
    return address.casefold()
