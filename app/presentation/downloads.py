"""A download that failed on the way to its server, as a window says it: a sentence naming the server by its
host, never a raw address ("Couldn't reach huggingface.co: you seem to be offline.")."""


def unreachable_words(host: str, what: str, problem: str, offline: bool) -> str:
    """What failed, for a window: `what` was being fetched from `host`; `problem` is the failure in words."""
    if offline:
        return f"Couldn't reach {host}: you seem to be offline."
    return f"Couldn't get {what} from {host}: {problem}."
