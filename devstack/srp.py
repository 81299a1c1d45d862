"""The server half of Cognito's SRP sign-in (USER_SRP_AUTH, then PASSWORD_VERIFIER), for the
embedded Cognito: moto 5.2.5 answers a random SRP_B and SALT and takes any
PASSWORD_CLAIM_SIGNATURE, so any password signed in. Here the verifier is made from the user's
password (moto keeps it) as Cognito makes it, and the signature is checked.

Cognito's SRP-6a: the 3072-bit group of RFC 5054 (N, g = 2), k = H(N | g), x = H(salt |
H(pool name | user id for SRP | ":" | password)), v = g^x, B = k v + g^b, u = H(A | B),
S = (A v^u)^b, the key HKDF(S, u, "Caldera Derived Key"), and the signature HMAC-SHA256(key,
pool name | user id for SRP | secret block | timestamp), base64. The arithmetic's pieces are
pycognito's (`pycognito.aws_srp`, the client half the tests sign in with), not ours.
"""

import base64
import hashlib
import hmac
from dataclasses import dataclass
from typing import Any

from pycognito.aws_srp import (
    AWSSRP,
    G_HEX,
    N_HEX,
    calculate_u,
    compute_hkdf,
    get_random,
    hash_sha256,
    hex_hash,
    hex_to_long,
    long_to_hex,
    pad_hex,
)

_N = hex_to_long(N_HEX)
_G = hex_to_long(G_HEX)
_K = hex_to_long(hex_hash("00" + N_HEX + "0" + G_HEX))


@dataclass(frozen=True, slots=True)
class SrpSession:
    """One sign-in between its two steps."""

    pool_name: str
    user_id: str
    salt: str
    verifier: int
    large_a: int
    small_b: int
    large_b: int

    @property
    def srp_b(self) -> str:
        return str(long_to_hex(self.large_b))


def _x(pool_name: str, user_id: str, password: str, salt: str) -> int:
    inner = hash_sha256(f"{pool_name}{user_id}:{password}".encode())
    return int(hex_to_long(hex_hash(pad_hex(salt) + inner)))


def start(user_pool_id: str, user_id: str, password: str, srp_a: str) -> SrpSession:
    """The server's values for a client's SRP_A (ValueError when A is 0 mod N)."""
    large_a = hex_to_long(srp_a)
    if large_a % _N == 0:
        raise ValueError("SRP_A is not valid")
    pool_name = user_pool_id.split("_", 1)[1]
    salt = long_to_hex(get_random(16))
    verifier = pow(_G, _x(pool_name, user_id, password, salt), _N)
    small_b = get_random(128)
    large_b = (_K * verifier + pow(_G, small_b, _N)) % _N
    return SrpSession(pool_name, user_id, salt, verifier, large_a, small_b, large_b)


def signature_matches(
    session: SrpSession, secret_block: str, timestamp: str, signature: str
) -> bool:
    """Whether the client's PASSWORD_CLAIM_SIGNATURE proves it knows the password."""
    u = calculate_u(session.large_a, session.large_b)
    if u == 0:
        return False
    shared = pow(session.large_a * pow(session.verifier, u, _N), session.small_b, _N)
    key = compute_hkdf(
        bytearray.fromhex(pad_hex(shared)), bytearray.fromhex(pad_hex(long_to_hex(u)))
    )
    message = (
        session.pool_name.encode()
        + session.user_id.encode()
        + base64.standard_b64decode(secret_block)
        + timestamp.encode()
    )
    expected = base64.standard_b64encode(hmac.new(key, message, hashlib.sha256).digest())
    return hmac.compare_digest(expected, signature.encode())


def id_token(cognito: Any, user_pool_id: str, client_id: str, username: str, password: str) -> str:
    """A player's ID token as a client gets it: by SRP when the app client allows it (pycognito's
    client half), else USER_PASSWORD_AUTH (a small template's client may allow only that)."""
    flows = cognito.describe_user_pool_client(UserPoolId=user_pool_id, ClientId=client_id)[
        "UserPoolClient"
    ].get("ExplicitAuthFlows") or ["ALLOW_USER_SRP_AUTH"]
    if "ALLOW_USER_SRP_AUTH" in flows:
        helper = AWSSRP(username, password, user_pool_id, client_id, client=cognito)
        answer = helper.authenticate_user()
    else:
        answer = cognito.initiate_auth(
            ClientId=client_id,
            AuthFlow="USER_PASSWORD_AUTH",
            AuthParameters={"USERNAME": username, "PASSWORD": password},
        )
    return str(answer["AuthenticationResult"]["IdToken"])
