"""The password policy, as the user pool's PasswordPolicy says it (template.yaml; a test
compares them), so that a weak password is refused before anything is written."""

from yamb.accounts.errors import AccountError
from yamb.i18n import Plural, Text, listed

MIN_PASSWORD_CHARS = 12
# Cognito's own maximum.
MAX_PASSWORD_CHARS = 256


def check_password(password: str, *, field: str = "password") -> str:
    problems: list[Text | Plural | str] = []
    if len(password) < MIN_PASSWORD_CHARS:
        problems.append(
            Plural("at least {count} character", "at least {count} characters", MIN_PASSWORD_CHARS)
        )
    if not any(char.islower() for char in password):
        problems.append(Text("a lowercase letter"))
    if not any(char.isdigit() for char in password):
        problems.append(Text("a digit"))
    if len(password) > MAX_PASSWORD_CHARS:
        raise AccountError(
            Text(
                "a password is at most {max_password_chars} characters",
                max_password_chars=MAX_PASSWORD_CHARS,
            ),
            code="password_weak",
            field=field,
        )
    if password != password.strip():
        problems.append(Text("no space at either end"))
    if problems:
        raise AccountError(
            Text("the password needs {needs}", needs=listed(problems)),
            code="password_weak",
            field=field,
        )
    return password
