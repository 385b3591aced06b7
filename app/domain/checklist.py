"""An entry's checklist ("Buy eggs, bread and milk": eggs, bread, milk), each item ticked on its own.

Stored as JSON in `Entry.items` ([{"text": ..., "done": ...}]); an entry made before checklists existed
still has items when its summary reads as a list ("Buy eggs, bread and milk", "Packing list: passport,
charger"). The text form ("- [ ] eggs" / "- [x] bread" lines) is what other task apps show in a note.
"""

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class ChecklistItem:
    text: str
    done: bool = False


def load_items(raw: str | None) -> tuple[ChecklistItem, ...]:
    """The stored items; a malformed value or row reads as no items rather than failing a read."""
    if not raw:
        return ()
    try:
        rows = json.loads(raw)
    except ValueError:
        return ()
    if not isinstance(rows, list):
        return ()
    return tuple(
        ChecklistItem(row["text"].strip(), row.get("done") is True)
        for row in rows
        if isinstance(row, dict) and isinstance(row.get("text"), str) and row["text"].strip()
    )


def dump_items(items: Sequence[ChecklistItem]) -> str | None:
    """The value to store; None for no items (the entry has no checklist)."""
    if not items:
        return None
    return json.dumps([{"text": item.text, "done": item.done} for item in items], ensure_ascii=False)


_COMMA = re.compile(r"\s*[,;]\s*(?:and\s+|&\s*)?", re.IGNORECASE)
_AND = re.compile(r"\s+(?:and|&)\s+", re.IGNORECASE)
_EDGES = " .!?:-\"'"
# Spoken without commas, this many words or more before the final "and" are one item each ("eggs bread milk
# and coffee"); fewer are read as one item, since two words are most often one thing ("oat milk and coffee").
_WORDS_AS_ITEMS = 3
_ARTICLE = re.compile(r"^(?:a|an|the|some)\s+(?=\S)", re.IGNORECASE)  # "a hammer" is the item "hammer"


def split_items(phrase: str) -> tuple[str, ...]:
    """The items of a spoken list: "eggs, bread, milk and coffee" and "eggs bread milk and coffee" are four;
    "bread and milk" two; an "and" inside a comma list that is not its last part stays ("salt and pepper, eggs")."""
    parts = [p.strip(_EDGES) for p in _COMMA.split(phrase.strip(_EDGES))]
    if len(parts) > 1:
        parts[-1:] = _AND.split(parts[-1])
    else:
        parts = _AND.split(parts[0])
        head = parts[0].split()
        if len(parts) == 2 and len(head) >= _WORDS_AS_ITEMS and not _ARTICLE.match(parts[0]):  # "a stud finder"
            parts = [*head, parts[1]]
    return tuple(text for p in parts if (text := _ARTICLE.sub("", p.strip(_EDGES))))


# "Buy eggs and bread", "Pick up batteries, tape and glue": an errand whose object is a list of things.
_ERRAND = re.compile(r"^(?:buy|get|grab|pick up|order|pack|bring)\s+(?P<items>.+)$", re.IGNORECASE)
# "Packing list: ...", "Books to read: ...", "Groceries: ...": a named list (a head of a few words).
# "Party supplies: balloons, candles, napkins", "Packing list for the cabin: boots, headlamp": a short head that
# names things (plural) or a list, then things of a few words each; "Wi-Fi password: taped, under the router" not.
_HEADED = re.compile(
    r"^(?P<head>(?:[\w'-]+\s+){0,5}?(?:[\w'-]+[^s\W]s|(?:[\w'-]+\s+)*list(?:\s+[\w'-]+){0,3}))\s*:\s*(?P<items>.+)$",
    re.IGNORECASE,
)
_ITEM_WORDS = 4
_NAMED_LIST = re.compile(
    r"^(?P<head>[\w' -]{0,40}?(?:\blist|\bto\s+[\w-]+|\bgroceries|\bshopping|\bwishlist))\s*:\s*(?P<items>.+)$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class NamedList:
    """A summary that names a list and then its items: "Shopping list: eggs, milk" is "Shopping list" and two."""

    name: str
    items: tuple[str, ...]


def named_list(summary: str) -> NamedList | None:
    """The list's name and items a headed summary holds; None for an errand ("Buy eggs and bread") or an
    ordinary entry."""
    summary = summary.strip().removesuffix("…")
    if found := _NAMED_LIST.match(summary):
        return NamedList(found.group("head").strip(), split_items(found.group("items")))
    if (found := _HEADED.match(summary)) and len(texts := split_items(found.group("items"))) > 1:
        if all(len(text.split()) <= _ITEM_WORDS for text in texts):
            return NamedList(found.group("head").strip(), texts)
    return None


def list_name(summary: str) -> str:
    """What a list is called: the head of "Shopping list: eggs, milk", else the whole summary ("Hardware shop")."""
    named = named_list(summary)
    return named.name if named is not None and named.name else summary


def derived_items(summary: str) -> tuple[ChecklistItem, ...]:
    """The items a list-like summary names; () for an ordinary entry ("Call the plumber", "Buy milk")."""
    if (named := named_list(summary)) is not None:
        return tuple(ChecklistItem(text) for text in named.items)
    if (found := _ERRAND.match(summary.strip().removesuffix("…"))) and len(
        texts := split_items(found.group("items"))
    ) > 1:
        return tuple(ChecklistItem(text) for text in texts)
    return ()


def items_of(entry_summary: str, raw: str | None) -> tuple[ChecklistItem, ...]:
    """The entry's checklist: its stored items, else those its summary names."""
    return load_items(raw) or derived_items(entry_summary)


def with_items_named(summary: str, items: Sequence[ChecklistItem]) -> str:
    """The summary naming its items, for a format without sub-tasks: "Packing list: passport, charger and
    sunscreen" of the list "Packing list"; a summary that already names them (or no items) as it is."""
    if not items or derived_items(summary):
        return summary
    texts = [item.text for item in items]
    said = texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " and " + texts[-1]
    return f"{summary}: {said}"


def progress(items: Sequence[ChecklistItem]) -> str:
    """Items done of all: "2 of 4"."""
    return f"{sum(item.done for item in items)} of {len(items)}"


_NOT_NAMING = frozenset("the a an some my our your his her their its this that these those of".split())


def _folded(word: str) -> str:
    """Plural and possessive folded, alike on both sides ("coffees" is "coffee", "tomatoes" is "tomato")."""
    word = word.removesuffix("'s")
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes", "oes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _words(text: str) -> frozenset[str]:
    return frozenset(_folded(w) for w in re.findall(r"[^\W_]+(?:'[^\W_]+)?", text.lower()) if w not in _NOT_NAMING)


def find_item(items: Sequence[ChecklistItem], phrase: str) -> int | None:
    """The index of the one item `phrase` names ("the milk", "coffees", "my charger"): the item of exactly
    those words, else the only item holding them all ("milk" for "oat milk"), else the only one they hold
    ("the sunscreen lotion" for "sunscreen"); None when none or several do."""
    said = _words(phrase)
    if not said:
        return None
    named = [_words(item.text) for item in items]
    # Tried in turn: the item of exactly these words, the items holding them all, the items they hold all of.
    for fits in (said.__eq__, said.__le__, said.__ge__):
        matches = [index for index, words in enumerate(named) if fits(words)]
        if matches:
            return matches[0] if len(matches) == 1 else None
    return None


def same_item(first: str, second: str) -> bool:
    """One item said twice: the same words, case and spacing aside."""
    return " ".join(first.casefold().split()) == " ".join(second.casefold().split())


_CHECKBOX = re.compile(r"^\s*[-*]\s*\[(?P<mark>[ xX])\]\s*(?P<text>.*?)\s*$")


def checklist_text(items: Sequence[ChecklistItem]) -> str:
    """ "- [ ] eggs\\n- [x] bread": the checklist as tasks.org, Apple Reminders and Markdown show it."""
    return "\n".join(f"- [{'x' if item.done else ' '}] {item.text}" for item in items)


def parse_checklist_text(text: str) -> tuple[tuple[ChecklistItem, ...], str]:
    """The checkbox lines of `text` as items, and the rest of the text without them."""
    items: list[ChecklistItem] = []
    rest: list[str] = []
    for line in text.splitlines():
        found = _CHECKBOX.match(line)
        if found and found.group("text"):
            items.append(ChecklistItem(found.group("text"), found.group("mark") != " "))
        else:
            rest.append(line)
    return tuple(items), "\n".join(rest).strip()


def with_checklist(text: str, items: Sequence[ChecklistItem]) -> str:
    """`text` with its checkbox lines replaced by `items`' lines, put where the first of them was (after the
    text when it had none): another app's note around a checklist keeps its place."""
    lines = text.splitlines()
    marked = [index for index, line in enumerate(lines) if (found := _CHECKBOX.match(line)) and found.group("text")]
    at = marked[0] if marked else len(lines)
    kept = [line for index, line in enumerate(lines) if index not in marked]
    new = checklist_text(items).splitlines()
    return "\n".join(kept[:at] + new + kept[at:]).strip("\n")
