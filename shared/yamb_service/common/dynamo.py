"""Transaction parts on DynamoDB (yamb_service.common.ports.TransactionPart): a store's writes,
prepared by its adapter and added by another adapter to the transaction it commits."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from pynamodb.transactions import TransactWrite

from yamb_service.common.ports import TransactionPart


@dataclass(frozen=True, slots=True)
class DynamoPart(TransactionPart):
    """Adds its writes (each with its own condition) to a pynamodb transaction."""

    add: Callable[[TransactWrite], None]


def add_parts(write: TransactWrite, parts: Iterable[TransactionPart]) -> None:
    """Each part's writes in `write`; a part of another storage is a wiring mistake."""
    for part in parts:
        if not isinstance(part, DynamoPart):
            raise TypeError(f"a DynamoDB transaction takes DynamoPart, not {type(part).__name__}")
        part.add(write)
