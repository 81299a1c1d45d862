"""The game service's dispatcher: every action of the protocol has a module that carries it out."""

from typing import get_args

from yamb.protocol import ClientAction
from yamb_service.game.service import ROUTES


def test_every_client_action_has_a_route_and_every_route_an_action() -> None:
    # given the protocol's union of client actions
    union, _discriminator = get_args(ClientAction)
    actions = set(get_args(union))

    # when the dispatcher's table is read
    routed = set(ROUTES)

    # then they are the same set of message types
    assert actions - routed == set(), "actions the service cannot carry out"
    assert routed - actions == set(), "routes for messages the protocol does not have"
