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
    snooze sort start study submit sweep take talk text tick tidy try update vacuum visit walk wash watch water
    wipe write
    """.split()
)

# Openings that start a new command without an imperative verb first ("... and I need to ...").
COMMAND_OPENINGS = (
    "i need", "i have", "i should", "i must", "i've got to", "i gotta", "we need", "we have to", "we should",
    "need to", "have to", "don't forget", "do not forget", "don't let me forget", "remind me", "remember to",
    "note that", "note:", "make a note", "check off", "tick off", "cross off", "never mind", "forget about",
    "done with", "finished", "i finished", "i bought", "i'm done with", "please", "let's",
)  # fmt: skip

# Words that carry no meaning when matching a phrase to an entry ("the milk one" -> "milk").
STOP_WORDS = frozenset(
    """
    a an the my our your his her their its this that these those to of for on in at by with from and or
    is are was were be been it i me we you please about some any up as entry task item todo reminder one thing
    """.split()
)

# Hesitations: dropped wherever they appear, since they never carry meaning.
HESITATIONS = re.compile(r"\b(?:u+m+|u+h+m*|e+r+m+|er|h+m+|a+h+)\b[\s,.]*", re.IGNORECASE)

# Words that open a spoken clause without meaning anything ("okay so, buy milk").
LEADING_FILLER = re.compile(
    r"^(?:(?:okay|ok|so|well|oh|right|alright|all right|yeah|yes|actually|and|also|then|plus|hey murmur|murmur"
    r"|(?:like|you know|i mean|wait|hold on|sorry)(?=\s*,))\b[\s,.:;!-]*)+",
    re.IGNORECASE,
)
