"""Text no one would say, for the offline interpreter's robustness tests and bench: huge, repetitive,
binary, in other scripts, and five thousand words of real commands."""

ODD = [
    "x" * 100_000,
    "!" * 5_000 + "buy milk" + "," * 5_000,
    " and " * 2_000,
    "is done " * 500,
    "snooze " + "to the " * 1_000 + "until friday",
    "mark as done",
    "\x00\x01\x02 buy \x7f milk",
    "中文 买牛奶 🙂 and call mom",
    "in 99999999999999 years call mom",
    "remind me to",
    "'; DROP TABLE entries; --",
    "P9 priority 0 call mom",
]


def five_thousand_words() -> str:
    words = (
        "buy more coffee filters and call the garage about the winter tyres. milk is done, also remind me to "
        "water the ferns every morning. urgent: pay rent on the 1st and then snooze the dentist until friday. "
    ).split()
    return " ".join(words[i % len(words)] for i in range(5_000))
