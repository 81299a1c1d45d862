"""The embedded AWS's parts for accounts (devstack.aws): Cognito's triggers run in-process from the
pool's LambdaConfig, e-mail usernames as moto handles them, the SES identities of the template,
and the local mailbox that keeps what was sent (devstack.mail).

One LocalAws per module on a small template of its own; the triggers are fakes registered per
test (the project's functions are not needed)."""

import base64
import json
import textwrap
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from botocore.exceptions import ClientError
from pycognito.aws_srp import AWSSRP

from devstack.aws import LocalAws

PASSWORD = "Password-123"
SENDER = "no-reply@yamb.example"
TEMPLATE = """
    Transform: AWS::Serverless-2016-10-31
    Parameters:
      MailFrom: {Type: String, Default: no-reply@yamb.example}
    Resources:
      Triggers:
        Type: AWS::Serverless::Function
        Properties: {CodeUri: fn/, Handler: app.handler}
      Untriggered:
        Type: AWS::Serverless::Function
        Properties: {CodeUri: fn/, Handler: app.handler}
      Pool:
        Type: AWS::Cognito::UserPool
        Properties:
          UsernameAttributes: [email]
          UsernameConfiguration: {CaseSensitive: false}
          Schema:
            - {Name: email, AttributeDataType: String, Required: true, Mutable: true}
            - {Name: session, AttributeDataType: String, Mutable: true}
          LambdaConfig:
            PreSignUp: !GetAtt Triggers.Arn
            PreAuthentication: !GetAtt Triggers.Arn
            PostAuthentication: !GetAtt Triggers.Arn
      Client:
        Type: AWS::Cognito::UserPoolClient
        Properties:
          UserPoolId: !Ref Pool
          ExplicitAuthFlows:
            - ALLOW_USER_PASSWORD_AUTH
            - ALLOW_ADMIN_USER_PASSWORD_AUTH
            - ALLOW_USER_SRP_AUTH
            - ALLOW_REFRESH_TOKEN_AUTH
          PreventUserExistenceErrors: ENABLED
      MailIdentity:
        Type: AWS::SES::EmailIdentity
        Properties: {EmailIdentity: !Ref MailFrom}
      DomainIdentity:
        Type: AWS::SES::EmailIdentity
        Properties: {EmailIdentity: mail.yamb.example}
    """


class Trigger:
    """A fake trigger function: records the events, answers through `answer(event)`."""

    def __init__(self, answer: Any = None) -> None:
        self.events: list[dict[str, Any]] = []
        self.answer = answer

    def __call__(self, event: dict[str, Any], context: Any) -> Any:
        self.events.append(json.loads(json.dumps(event)))
        if self.answer is not None:
            return self.answer(event)
        return event

    def of(self, source: str) -> list[dict[str, Any]]:
        return [event for event in self.events if event["triggerSource"] == source]


@pytest.fixture(scope="module")
def aws(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalAws]:
    root = tmp_path_factory.mktemp("accounts-stack")
    (root / "template.yaml").write_text(textwrap.dedent(TEMPLATE), encoding="utf-8")
    with LocalAws(root / "template.yaml") as local:
        yield local


@pytest.fixture
def trigger(aws: LocalAws) -> Trigger:
    fake = Trigger()
    aws.register_function("Triggers", fake)
    return fake


def _email() -> str:
    return f"p-{uuid.uuid4().hex[:10]}@example.com"


def _sign_up(aws: LocalAws, email: str, **extra: Any) -> dict[str, Any]:
    return dict(
        aws.client("cognito-idp").sign_up(
            ClientId=aws.user_pool_client_id(), Username=email, Password=PASSWORD, **extra
        )
    )


def _sign_in(aws: LocalAws, username: str, **extra: Any) -> dict[str, Any]:
    return dict(
        aws.client("cognito-idp").initiate_auth(
            ClientId=aws.user_pool_client_id(),
            AuthFlow="USER_PASSWORD_AUTH",
            AuthParameters={"USERNAME": username, "PASSWORD": PASSWORD},
            **extra,
        )
    )


def _confirmed(aws: LocalAws, email: str) -> None:
    _sign_up(aws, email)
    aws.client("cognito-idp").admin_confirm_sign_up(UserPoolId=aws.user_pool_id(), Username=email)


def _users(aws: LocalAws, email: str) -> list[dict[str, Any]]:
    users = aws.client("cognito-idp").list_users(UserPoolId=aws.user_pool_id())["Users"]
    return [user for user in users if {"Name": "email", "Value": email} in user["Attributes"]]


# ------------------------------------------------------------------------------ PreSignUp


def test_local_aws_pre_sign_up_refusal_fails_the_sign_up_and_creates_no_user(
    aws: LocalAws, trigger: Trigger
) -> None:
    # given a PreSignUp trigger that refuses
    def refuse(event: dict[str, Any]) -> Any:
        raise PermissionError("sign up through POST /accounts")

    trigger.answer = refuse
    email = _email()

    # when a client signs up directly
    with pytest.raises(ClientError) as refused:
        _sign_up(aws, email)

    # then Cognito says the trigger failed, with its message, and no user exists
    error = refused.value.response["Error"]
    assert error["Code"] == "UserLambdaValidationException"
    assert error["Message"] == "PreSignUp failed with error sign up through POST /accounts."
    assert _users(aws, email) == []
    # and the address is still free: the same sign-up works once the trigger agrees
    trigger.answer = None
    assert _sign_up(aws, email)["UserConfirmed"] is False


def test_local_aws_pre_sign_up_event_has_cognitos_shape_with_the_client_metadata(
    aws: LocalAws, trigger: Trigger
) -> None:
    # given a sign-up with attributes, client metadata and validation data
    email = _email()

    # when it is made
    answer = _sign_up(
        aws,
        email,
        UserAttributes=[{"Name": "custom:session", "Value": "1"}],
        ClientMetadata={"origin": "accounts", "nickname": "ana"},
        ValidationData=[{"Name": "captcha", "Value": "ok"}],
    )

    # then the trigger got Cognito's PreSignUp event
    (event,) = trigger.of("PreSignUp_SignUp")
    assert event["version"] == "1"
    assert event["region"] == "us-east-1"
    assert event["userPoolId"] == aws.user_pool_id()
    assert event["userName"] == answer["UserSub"]  # e-mail usernames: the generated id
    assert event["callerContext"] == {
        "awsSdkVersion": "aws-sdk-unknown-unknown",
        "clientId": aws.user_pool_client_id(),
    }
    assert event["request"] == {
        "userAttributes": {"email": email, "custom:session": "1"},
        "validationData": {"captcha": "ok"},
        "clientMetadata": {"origin": "accounts", "nickname": "ana"},
    }
    assert event["response"] == {
        "autoConfirmUser": False,
        "autoVerifyEmail": False,
        "autoVerifyPhone": False,
    }


def test_local_aws_pre_sign_up_auto_confirm_and_verify_are_honoured(
    aws: LocalAws, trigger: Trigger
) -> None:
    # given a trigger confirming the user and verifying the e-mail
    def confirm(event: dict[str, Any]) -> Any:
        event["response"].update(autoConfirmUser=True, autoVerifyEmail=True)
        return event

    trigger.answer = confirm
    email = _email()

    # when a client signs up
    answer = _sign_up(aws, email)

    # then the user is confirmed at once with a verified e-mail, and can sign in
    assert answer["UserConfirmed"] is True
    (user,) = _users(aws, email)
    assert user["UserStatus"] == "CONFIRMED"
    assert {"Name": "email_verified", "Value": "true"} in user["Attributes"]
    assert "IdToken" in _sign_in(aws, email)["AuthenticationResult"]


def test_local_aws_trigger_answering_nothing_is_an_unrecognizable_response(
    aws: LocalAws, trigger: Trigger
) -> None:
    # given a trigger that forgets to return the event
    trigger.answer = lambda event: None
    email = _email()

    # when a client signs up / then Cognito cannot read the answer, and no user is created
    with pytest.raises(ClientError) as refused:
        _sign_up(aws, email)
    assert refused.value.response["Error"]["Code"] == "InvalidLambdaResponseException"
    assert _users(aws, email) == []


# ------------------------------------------------------------------------------ authentication


def test_local_aws_post_authentication_runs_after_a_password_sign_in(
    aws: LocalAws, trigger: Trigger
) -> None:
    # given a confirmed user
    email = _email()
    _confirmed(aws, email)

    # when she signs in with her password and client metadata
    tokens = _sign_in(aws, email.upper(), ClientMetadata={"device": "phone"})

    # then PreAuthentication ran before and PostAuthentication after, with her attributes
    assert "IdToken" in tokens["AuthenticationResult"]
    sources = [event["triggerSource"] for event in trigger.events]
    assert sources[-2:] == ["PreAuthentication_Authentication", "PostAuthentication_Authentication"]
    post = trigger.of("PostAuthentication_Authentication")[-1]
    (user,) = _users(aws, email)
    assert post["userName"] == user["Username"]
    attributes = post["request"]["userAttributes"]
    assert attributes["email"] == email
    assert attributes["sub"] == user["Username"]
    assert attributes["cognito:user_status"] == "CONFIRMED"
    assert post["request"]["newDeviceUsed"] is False
    assert post["request"]["clientMetadata"] == {"device": "phone"}
    pre = trigger.of("PreAuthentication_Authentication")[-1]
    assert pre["request"]["validationData"] == {"device": "phone"}


@pytest.mark.parametrize("flow", ["USER_PASSWORD_AUTH", "ADMIN_USER_PASSWORD_AUTH"])
def test_local_aws_post_authentication_failure_fails_the_sign_in(
    aws: LocalAws, trigger: Trigger, flow: str
) -> None:
    # given a confirmed user and a PostAuthentication trigger that fails
    email = _email()
    _confirmed(aws, email)

    def fail_after(event: dict[str, Any]) -> Any:
        if event["triggerSource"] == "PostAuthentication_Authentication":
            raise RuntimeError("account is banned")
        return event

    trigger.answer = fail_after
    cognito = aws.client("cognito-idp")

    # when she signs in
    with pytest.raises(ClientError) as refused:
        if flow == "USER_PASSWORD_AUTH":
            _sign_in(aws, email)
        else:
            cognito.admin_initiate_auth(
                UserPoolId=aws.user_pool_id(),
                ClientId=aws.user_pool_client_id(),
                AuthFlow=flow,
                AuthParameters={"USERNAME": email, "PASSWORD": PASSWORD},
            )

    # then the sign-in fails with the trigger's message
    error = refused.value.response["Error"]
    assert error["Code"] == "UserLambdaValidationException"
    assert error["Message"] == "PostAuthentication failed with error account is banned."


def test_local_aws_pre_authentication_failure_fails_before_the_password_is_checked(
    aws: LocalAws, trigger: Trigger
) -> None:
    # given a confirmed user and a PreAuthentication trigger that refuses
    email = _email()
    _confirmed(aws, email)

    def refuse(event: dict[str, Any]) -> Any:
        if event["triggerSource"] == "PreAuthentication_Authentication":
            raise RuntimeError("locked")
        return event

    trigger.answer = refuse

    # when she signs in / then the trigger's refusal is the answer, and no PostAuthentication ran
    with pytest.raises(ClientError) as refused:
        _sign_in(aws, email)
    assert (
        refused.value.response["Error"]["Message"] == "PreAuthentication failed with error locked."
    )
    assert trigger.of("PostAuthentication_Authentication") == []


def test_local_aws_unknown_user_is_an_incorrect_password_with_prevented_existence_errors(
    aws: LocalAws, trigger: Trigger
) -> None:
    # given a client with PreventUserExistenceErrors / when an unknown address signs in
    with pytest.raises(ClientError) as refused:
        _sign_in(aws, _email())

    # then Cognito does not say the user does not exist, and no trigger ran
    error = refused.value.response["Error"]
    assert (error["Code"], error["Message"]) == (
        "NotAuthorizedException",
        "Incorrect username or password.",
    )
    assert trigger.events == []


def test_local_aws_email_usernames_are_generated_ids_found_by_either_name(
    aws: LocalAws, trigger: Trigger
) -> None:
    # given a pool whose usernames are e-mails, case-insensitive
    cognito = aws.client("cognito-idp")
    email = _email()

    # when a user signs up with a plain name, then with her e-mail, then again in capitals
    with pytest.raises(ClientError) as plain:
        _sign_up(aws, "ana")
    sub = _sign_up(aws, email)["UserSub"]
    with pytest.raises(ClientError) as again:
        _sign_up(aws, email.upper())

    # then only the e-mail is a username; Cognito's username is the sub; admin calls take both
    assert plain.value.response["Error"]["Code"] == "InvalidParameterException"
    assert again.value.response["Error"]["Code"] == "UsernameExistsException"
    for name in (email, email.upper(), sub):
        user = cognito.admin_get_user(UserPoolId=aws.user_pool_id(), Username=name)
        assert user["Username"] == sub


def test_local_aws_trigger_of_a_function_without_handler_is_skipped(aws: LocalAws) -> None:
    # given the pool's trigger function with no handler registered
    aws.unregister_function("Triggers")
    assert not aws.has_handler("Triggers")
    email = _email()

    # when a client signs up / then the sign-up goes through as without a trigger
    assert _sign_up(aws, email)["UserConfirmed"] is False
    assert len(_users(aws, email)) == 1


def test_local_aws_create_player_and_id_token_with_email_usernames(
    aws: LocalAws, trigger: Trigger
) -> None:
    # given the local helpers / when a player is made by name and signs in by that name
    name, email = f"cleo-{uuid.uuid4().hex[:6]}", _email()
    aws.create_player(name, PASSWORD, email)
    token = aws.id_token(name, PASSWORD)

    # then the sign-up went through PreSignUp with the e-mail, and the token is hers
    assert trigger.of("PreSignUp_SignUp")[-1]["request"]["userAttributes"]["email"] == email
    claims = json.loads(base64.urlsafe_b64decode(token.split(".")[1] + "=="))
    assert claims["email"] == email
    assert claims["email_verified"] in (True, "true")


# ------------------------------------------------------------------------------ SES


def test_local_aws_provisions_the_templates_mail_identities(aws: LocalAws) -> None:
    # given the stack / when SES is asked
    identities = aws.client("ses").list_identities()["Identities"]

    # then the address and the domain are verified identities
    assert {SENDER, "mail.yamb.example"} <= set(identities)


def test_local_aws_simple_mail_is_kept_with_its_links_and_moment(aws: LocalAws) -> None:
    # given a simple mail (as the accounts send theirs) with a link with a query string
    to = _email()
    link = "http://127.0.0.1:8765/accounts/verify?token=a1&user=b2"
    aws.client("ses").send_email(
        Source=SENDER,
        Destination={"ToAddresses": [to]},
        Message={
            "Subject": {"Data": "Confirm, Ana"},
            "Body": {
                "Text": {"Data": f"Hello Ana,\nconfirm: {link}\n"},
                "Html": {"Data": f'<p><a href="{link.replace("&", "&amp;")}">Confirm</a></p>'},
            },
        },
    )
    sent_at = aws.clock.now()

    # when the mailbox is read
    (mail,) = aws.mails(to=to)

    # then both parts are there, the link found once (the HTML's entity decoded)
    assert mail.subject == "Confirm, Ana"
    assert mail.text == f"Hello Ana,\nconfirm: {link}\n"
    assert mail.links == (link,)
    assert (mail.sender, mail.to, mail.kind, mail.error) == (SENDER, (to,), "simple", None)
    assert mail.sent_at is not None and abs((mail.sent_at - sent_at).total_seconds()) < 5


def test_local_aws_mails_keep_both_parts_of_simple_raw_and_v2_mails_newest_last(
    aws: LocalAws,
) -> None:
    # given a simple v1 mail with text and HTML, a raw one, and a v2 one, to one address
    to = _email()
    ses, sesv2 = aws.client("ses"), aws.client("sesv2")
    ses.send_email(
        Source=SENDER,
        Destination={"ToAddresses": [to]},
        Message={
            "Subject": {"Data": "v1"},
            "Body": {"Text": {"Data": "see https://a.example/x."}, "Html": {"Data": "<i>hi</i>"}},
        },
    )
    raw = (
        f"From: {SENDER}\r\nTo: Dan <{to}>\r\nSubject: raw\r\nContent-Type: text/plain\r\n\r\n"
        "open http://b.example/y\r\n"
    )
    ses.send_raw_email(Source=SENDER, RawMessage={"Data": raw.encode()})
    sesv2.send_email(
        FromEmailAddress=SENDER,
        Destination={"ToAddresses": [to]},
        Content={"Simple": {"Subject": {"Data": "v2"}, "Body": {"Html": {"Data": "<p>v2</p>"}}}},
    )

    # when the mailbox is read for that address
    mails = aws.mails(to=to.upper())

    # then each is there, newest last, with its parts and links
    assert [mail.subject for mail in mails] == ["v1", "raw", "v2"]
    v1, raw_mail, v2 = mails
    assert (v1.text, v1.html, v1.links) == (
        "see https://a.example/x.",
        "<i>hi</i>",
        ("https://a.example/x",),
    )
    assert raw_mail.to == (f"Dan <{to}>",)
    assert raw_mail.links == ("http://b.example/y",)
    assert (v2.text, v2.html) == (None, "<p>v2</p>")
    assert all(mail.is_for(to) for mail in mails)
    assert not any(mail.is_for(_email()) for mail in mails)


def test_local_aws_tokens_survive_an_email_change_and_a_sign_out_by_email_revokes_them(
    aws: LocalAws, trigger: Trigger
) -> None:
    # given a user signed in with her e-mail (in another case), whose e-mail then changes
    cognito = aws.client("cognito-idp")
    old, new = _email(), _email()
    _confirmed(aws, old)
    tokens = _sign_in(aws, old.upper())["AuthenticationResult"]
    cognito.admin_update_user_attributes(
        UserPoolId=aws.user_pool_id(),
        Username=old,
        UserAttributes=[{"Name": "email", "Value": new}],
    )

    def refresh() -> dict[str, Any]:
        return dict(
            cognito.initiate_auth(
                ClientId=aws.user_pool_client_id(),
                AuthFlow="REFRESH_TOKEN_AUTH",
                AuthParameters={"REFRESH_TOKEN": tokens["RefreshToken"]},
            )
        )

    # when her tokens are used, and then she is signed out everywhere by her new e-mail
    refreshed = refresh()["AuthenticationResult"]
    user = cognito.get_user(AccessToken=tokens["AccessToken"])
    cognito.admin_user_global_sign_out(UserPoolId=aws.user_pool_id(), Username=new)

    # then the tokens were still hers after the change, and the sign-out revoked them
    assert "IdToken" in refreshed
    assert {"Name": "email", "Value": new} in user["UserAttributes"]
    with pytest.raises(ClientError) as revoked:
        refresh()
    assert revoked.value.response["Error"]["Code"] == "NotAuthorizedException"


# ----------------------------------------------------------------------------- SRP sign-ins


def _srp_sign_in(aws: LocalAws, email: str, password: str) -> dict[str, Any]:
    """A sign-in by SRP as a client makes it (pycognito's client half), without a secret."""
    client = aws.client("cognito-idp")
    helper = AWSSRP(
        username=email,
        password=password,
        pool_id=aws.user_pool_id(),
        client_id=aws.user_pool_client_id(),
        client=client,
    )
    first = client.initiate_auth(
        ClientId=aws.user_pool_client_id(),
        AuthFlow="USER_SRP_AUTH",
        AuthParameters=helper.get_auth_params(),
    )
    assert first["ChallengeName"] == "PASSWORD_VERIFIER"
    return dict(
        client.respond_to_auth_challenge(
            ClientId=aws.user_pool_client_id(),
            ChallengeName="PASSWORD_VERIFIER",
            ChallengeResponses=helper.process_challenge(
                first["ChallengeParameters"], helper.get_auth_params()
            ),
        )
    )


def test_srp_sign_in_with_the_password_gets_tokens_and_runs_the_triggers(
    aws: LocalAws, trigger: Trigger
) -> None:
    # given a confirmed user
    email = _email()
    _confirmed(aws, email)

    # when they sign in by SRP with their password
    answer = _srp_sign_in(aws, email, PASSWORD)

    # then Cognito's tokens come back, and Pre- and PostAuthentication ran for the user
    assert answer["AuthenticationResult"]["IdToken"]
    user = _users(aws, email)[0]["Username"]
    assert [event["userName"] for event in trigger.of("PreAuthentication_Authentication")][-1:] == [
        user
    ]
    assert [event["userName"] for event in trigger.of("PostAuthentication_Authentication")] == [
        user
    ]


def test_srp_sign_in_with_a_wrong_password_is_refused(aws: LocalAws, trigger: Trigger) -> None:
    # given a confirmed user
    email = _email()
    _confirmed(aws, email)

    # when they sign in by SRP with another password (moto alone takes any)
    with pytest.raises(ClientError) as refused:
        _srp_sign_in(aws, email, "Another-password-1")

    # then it is refused as a wrong password is, and no PostAuthentication ran
    error = refused.value.response["Error"]
    assert (error["Code"], error["Message"]) == (
        "NotAuthorizedException",
        "Incorrect username or password.",
    )
    assert trigger.of("PostAuthentication_Authentication") == []


def test_srp_signature_replayed_for_a_second_sign_in_is_refused(aws: LocalAws) -> None:
    # given a finished SRP sign-in's secret block
    email = _email()
    _confirmed(aws, email)
    client = aws.client("cognito-idp")
    helper = AWSSRP(email, PASSWORD, aws.user_pool_id(), aws.user_pool_client_id(), client=client)
    first = client.initiate_auth(
        ClientId=aws.user_pool_client_id(),
        AuthFlow="USER_SRP_AUTH",
        AuthParameters=helper.get_auth_params(),
    )
    responses = helper.process_challenge(first["ChallengeParameters"], helper.get_auth_params())
    client.respond_to_auth_challenge(
        ClientId=aws.user_pool_client_id(),
        ChallengeName="PASSWORD_VERIFIER",
        ChallengeResponses=responses,
    )

    # when the same answer is sent again / then it opens nothing
    with pytest.raises(ClientError) as refused:
        client.respond_to_auth_challenge(
            ClientId=aws.user_pool_client_id(),
            ChallengeName="PASSWORD_VERIFIER",
            ChallengeResponses=responses,
        )
    assert refused.value.response["Error"]["Code"] == "NotAuthorizedException"
