"""Word lists the offline rules share: verbs that start a command, openings, stop words, filler."""

import re

# Imperative verbs: a clause starting with one is a todo, and "buy milk and call mom" splits before "call".
COMMAND_VERBS = frozenset(
    """
    add archive arrange ask back bake book bring buy call cancel change charge check clean clear collect confirm
    contact cook cross delete do drop email empty feed fetch file fill find finish fix follow get go grab hang
    install invite iron learn look mail make mark meet message mop move mow order organise organize pack pay
    phone pick plan post postpone practice practise prepare print push put read register remember remind remove
    renew repair replace reply research reserve return review ring schedule scratch sell send set ship shop sign
    snooze sort start stick study submit sweep take talk text tick tidy try update vacuum visit walk wash watch water
    wipe write
    """.split()
)

# More verbs a task starts with: a clause opening with one is a todo ("repaint the fence", "soak the beans"),
# though these do not split a sentence the way the command verbs above do.
TASK_VERBS = COMMAND_VERBS | frozenset(
    """
    adjust apply approve assemble attach back-up bathe bleach boil borrow brush bundle buy carve change chase
    paint repaint service varnish chop clip collect compare cover cut dance deal declutter defrost deliver deposit
    design dig discuss donate leave wear swing ride rest stop pop head grab sign renew top water
    download draft drain draw dress drive dust edit empty enrol enroll exchange feed figure fill finalise finalize
    fold frame freeze fry grade grill grind hand handle help hem hire hold hoover hug hunt insure interview iron
    join jot keep kill knit label laminate lay let lift load lock log look lower maintain marinate measure memorise
    memorize mend mix mount move negotiate note oil open patch peel photograph pitch plant play polish pour
    practice prep present press price prune pump rake reach rebook recharge recycle refill register reheat
    reinstall rent renovate repaint repot request reschedule reset resize respond restock rinse roast run sand
    save scan scrub seal season sew sharpen shave shovel shred sing slice soak sow spray start stock stop store
    stretch submit swap sweep switch tell test thank thaw tighten tile top toss trim tune turn type unblock
    unclog unload unlock unpack unplug upload use vote wax weed weigh whisk wrap
    """.split()
)

# Openings that start a new command without an imperative verb first ("... and I need to ...").
COMMAND_OPENINGS = (
    "i need", "i have", "i should", "i must", "i've got to", "i gotta", "we need", "we have to", "we should",
    "need to", "have to", "don't forget", "do not forget", "don't let me forget", "remind me", "remember to",
    "note that", "note:", "make a note", "check off", "tick off", "cross off", "never mind", "forget about",
    "done with", "finished", "i finished", "i bought", "i got ", "i'm done with", "please", "let's",
)  # fmt: skip

# Words that carry no meaning when matching a phrase to an entry ("the milk one" -> "milk").
STOP_WORDS = frozenset(
    """
    a an the my our your his her their its this that these those to of for on in at by with from and or
    is are was were be been it i me we you please about some any up as entry task item todo reminder one thing
    idea note habit thought
    """.split()
)

# Hesitations: dropped wherever they appear, since they never carry meaning.
HESITATIONS = re.compile(r"\b(?:u+m+|u+h+m*|e+r+m+|er|h+m+|a+h+)\b[\s,.]*", re.IGNORECASE)

# Filler inside a sentence, never part of a task ("call the bank you know about the loan"), but kept where it
# is meant: "let you know", "what kind of paint".
_MID_FILLER = re.compile(
    r"(?<!let )(?<!tell )(?<!if )(?<!what )\byou know\b[\s,]*|\b(?:basically|literally|honestly)\b[\s,]*"
    r"|(?<!what )(?<!which )(?<!this )(?<!that )(?<!a )(?<!any )(?<!some )(?<!the )\b(?:kind|sort) of\b\s*",
    re.IGNORECASE,
)
# "like" is filler between pauses, or before a verb or a day when nobody likes anything ("I need to like clean
# the gutters", "call the insurance like tomorrow"), or between a time's preposition and the time ("at like 6");
# "I like to cook", "I'd like a table", "looks like rain", "I'd like 2 tickets" keep it.
_LIKE = re.compile(r"(?<![\w'])like\b(?P<pause>\s*,)?\s*(?P<next>[\w']*)", re.IGNORECASE)
_LIKERS = frozenset(
    "i you we they he she would 'd i'd we'd you'd they'd he'd she'd don't do really just feel feels looks look "
    "sounds seems".split()
)
_DAY_WORD = re.compile(r"today|tonight|tomorrow|next|noon|midnight|(?:mon|tues|wednes|thurs|fri|satur|sun)day", re.I)
_TIME_PREPOSITIONS = frozenset("at by for on before until till around".split())
# "at around 10", "at about 4pm": the time is the one said; how sure the speaker is does not change the due.
_ROUGHLY = re.compile(r"\bat\s+(?:around|about|roughly|approximately|maybe)\s+(?=\d|noon\b|midnight\b)", re.IGNORECASE)


def without_filler(text: str) -> str:
    """The text without words that only fill a pause."""
    text = _ROUGHLY.sub("at ", _MID_FILLER.sub(" ", text))

    def like(found: re.Match[str]) -> str:
        said_before = text[: found.start()].rstrip()
        before = said_before.rsplit(" ", 1)[-1].lower()
        paused = bool(found["pause"]) or said_before.endswith(",") or not said_before
        after = found["next"].lower()
        leads = after in TASK_VERBS or bool(_DAY_WORD.fullmatch(after))
        filler = (paused or before not in _LIKERS) and leads
        timed = before in _TIME_PREPOSITIONS and (after[:1].isdigit() or bool(_DAY_WORD.fullmatch(after)))
        return found["next"] if filler or timed else found.group(0)

    return _LIKE.sub(like, text)


# Words that open a spoken clause without meaning anything ("okay so, buy milk").
LEADING_FILLER = re.compile(
    r"^(?:(?:okay|ok|so|well|oh|right|alright|all right|yeah|yes|actually|and|also|then|plus|hey murmur|murmur|not now"
    r"|(?:like|you know|i mean|wait|hold on|sorry)(?=\s*,))\b[\s,.:;!-]*)+",
    re.IGNORECASE,
)
