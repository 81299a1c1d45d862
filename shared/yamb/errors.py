"""Domain errors: each carries a stable code for clients and a sentence for people."""


class YambError(Exception):
    code = "yamb_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class IllegalMoveError(YambError):
    """The move breaks a game rule; the game state is unchanged."""

    code = "illegal_move"


class InvalidSettingsError(YambError):
    """Settings refused; `problems` names the settings each problem involves."""

    code = "invalid_settings"

    def __init__(self, problems: list[tuple[tuple[str, ...], str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(message for _, message in problems))
