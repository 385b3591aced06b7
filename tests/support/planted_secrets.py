"""A model that writes placeholders into an entry: what is said holds a card number and a password, and the
model's entry names both by their placeholders, for the originals to be put back locally (keep_unredacted)."""

from tests.support.llm_server import Reply, call

CARD, PASSWORD = "4242 4242 4242 4242", "hunter2"
SAID = f"pay the rent with card {CARD} and the wifi password is {PASSWORD}"
HOSTILE = [
    Reply(
        tool_calls=[
            call(
                "create_entries",
                {"entries": [{"content": "Rent: [card number]", "summary": "Pay with [card number] wifi [password]"}]},
            )
        ]
    ),
    Reply("Added it."),
]
