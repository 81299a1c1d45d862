"""The identity provider on a Cognito user pool whose users sign in with their e-mail (the
pool's username is then an id Cognito makes, the token's `sub`: the player id). Nothing outside
this module sees a Cognito error."""

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from botocore.exceptions import ClientError
from yamb.accounts.errors import AccountError

from yamb_service.accounts.ports import EmailTakenError, Tokens, UserRecord
from yamb_service.common.errors import ServiceBusyError

# The custom attribute every token carries: the account's sign-out generation.
SESSION_ATTRIBUTE = "custom:session"
# The challenges Cognito asks once the password is verified: the authenticator app's code.
_MFA = ("SOFTWARE_TOKEN_MFA",)
_BUSY = frozenset({"TooManyRequestsException", "InternalErrorException", "LimitExceededException"})


def _code(error: ClientError) -> str:
    return str(error.response.get("Error", {}).get("Code", ""))


class CognitoIdentity:
    def __init__(self, client: Callable[[], Any], *, user_pool_id: str, client_id: str) -> None:
        self._client_factory = client
        self._client: Any = None
        self._pool = user_pool_id
        self._app_client = client_id

    @property
    def _cognito(self) -> Any:
        if self._client is None:
            self._client = self._client_factory()
        return self._client

    def _call(self, operation: str, **parameters: Any) -> Any:
        try:
            return getattr(self._cognito, operation)(**parameters)
        except ClientError as error:
            if _code(error) in _BUSY:
                raise ServiceBusyError from error
            raise

    def create_user(self, email: str, password: str) -> str:
        try:
            created = self._call(
                "admin_create_user",
                UserPoolId=self._pool,
                Username=email,
                UserAttributes=[
                    {"Name": "email", "Value": email},
                    {"Name": "email_verified", "Value": "false"},
                    {"Name": SESSION_ATTRIBUTE, "Value": "0"},
                ],
                # Our own mail goes (a link, not Cognito's temporary password).
                MessageAction="SUPPRESS",
            )
        except ClientError as error:
            if _code(error) in ("UsernameExistsException", "AliasExistsException"):
                raise EmailTakenError from None
            raise
        player_id = _attribute(created["User"]["Attributes"], "sub") or created["User"]["Username"]
        try:
            self.set_password(player_id, password)
        except BaseException:
            self.delete_user(player_id)
            raise
        return player_id

    def delete_user(self, player_id: str) -> None:
        try:
            self._call("admin_delete_user", UserPoolId=self._pool, Username=player_id)
        except ClientError as error:
            if _code(error) != "UserNotFoundException":
                raise

    def mark_verified(self, player_id: str) -> None:
        self._update(player_id, {"email_verified": "true"})

    def _update(self, player_id: str, attributes: dict[str, str]) -> None:
        self._call(
            "admin_update_user_attributes",
            UserPoolId=self._pool,
            Username=player_id,
            UserAttributes=[{"Name": name, "Value": value} for name, value in attributes.items()],
        )

    def set_password(self, player_id: str, password: str, *, field: str = "password") -> None:
        try:
            self._call(
                "admin_set_user_password",
                UserPoolId=self._pool,
                Username=player_id,
                Password=password,
                Permanent=True,
            )
        except ClientError as error:
            if _code(error) == "InvalidPasswordException":
                message = error.response["Error"].get("Message", "the password is too weak")
                raise AccountError(message, code="password_weak", field=field) from None
            raise

    def _authenticate(self, email: str, password: str) -> dict[str, Any]:
        # The admin flow (IAM only): the app client allows no password flow to the public,
        # players sign in by SRP. Cognito answers tokens, or the MFA challenge once the password
        # is verified.
        return dict(
            self._call(
                "admin_initiate_auth",
                UserPoolId=self._pool,
                ClientId=self._app_client,
                AuthFlow="ADMIN_USER_PASSWORD_AUTH",
                AuthParameters={"USERNAME": email, "PASSWORD": password},
            )
        )

    def check_password(self, email: str, password: str) -> bool:
        try:
            answer = self._authenticate(email, password)
        except ClientError as error:
            if _code(error) in ("NotAuthorizedException", "UserNotFoundException"):
                return False
            raise
        return bool(answer.get("AuthenticationResult")) or answer.get("ChallengeName") in _MFA

    def sign_in(self, email: str, password: str) -> Tokens | None:
        answer = self._authenticate(email, password)
        if answer.get("ChallengeName") in _MFA:
            return None
        result = answer["AuthenticationResult"]
        return Tokens(
            id_token=result["IdToken"],
            access_token=result["AccessToken"],
            refresh_token=result["RefreshToken"],
            expires_in=int(result["ExpiresIn"]),
        )

    def change_email(self, player_id: str, email: str) -> None:
        try:
            self._update(player_id, {"email": email, "email_verified": "true"})
        except ClientError as error:
            if _code(error) in ("AliasExistsException", "UsernameExistsException"):
                raise EmailTakenError from None
            raise

    def sign_out_everywhere(self, player_id: str, session: int) -> None:
        # Refresh tokens revoked first: one used in between would get the new generation.
        self._call("admin_user_global_sign_out", UserPoolId=self._pool, Username=player_id)
        self._update(player_id, {SESSION_ATTRIBUTE: str(session)})

    def disable(self, player_id: str) -> None:
        self._call("admin_disable_user", UserPoolId=self._pool, Username=player_id)

    def find(self, email: str) -> UserRecord | None:
        try:
            user = self._call("admin_get_user", UserPoolId=self._pool, Username=email)
        except ClientError as error:
            if _code(error) == "UserNotFoundException":
                return None
            raise
        player_id = _attribute(user["UserAttributes"], "sub") or user["Username"]
        created = user.get("UserCreateDate")
        if not isinstance(created, datetime):
            created = datetime.now(UTC)
        return UserRecord(player_id=player_id, created_at=created.astimezone(UTC))


def _attribute(attributes: list[dict[str, str]], name: str) -> str | None:
    for attribute in attributes:
        if attribute["Name"] == name:
            return attribute["Value"]
    return None
