"""The password policy, as the user pool's PasswordPolicy says it (template.yaml; a test
compares them), so that a weak password is refused before anything is written."""

from yamb.accounts.errors import AccountError

MIN_PASSWORD_CHARS = 12
# Cognito's own maximum.
MAX_PASSWORD_CHARS = 256


def check_password(password: str, *, field: str = "password") -> str:
    problems = []
    if len(password) < MIN_PASSWORD_CHARS:
        problems.append(f"at least {MIN_PASSWORD_CHARS} characters")
    if not any(char.islower() for char in password):
        problems.append("a lowercase letter")
    if not any(char.isdigit() for char in password):
        problems.append("a digit")
    if len(password) > MAX_PASSWORD_CHARS:
        raise AccountError(
            f"a password is at most {MAX_PASSWORD_CHARS} characters",
            code="password_weak",
            field=field,
        )
    if password != password.strip():
        problems.append("no space at either end")
    if problems:
        raise AccountError(
            "the password needs " + ", ".join(problems), code="password_weak", field=field
        )
    return password
