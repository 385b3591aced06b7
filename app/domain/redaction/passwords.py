"""Passwords, passphrases, PINs and codes: the value after a cue ("wifi password is", "PIN:", "door code").

A password has no shape of its own, so the cue decides, and how much it takes depends on how sure the cue is:
- Sure cues (password, passcode, passphrase, pass phrase, pw, pwd, and Passwort, Kennwort, mot de passe,
  contraseña, wachtwoord, senha, palavra-passe, parola d'ordine; "WLAN-Passwort"): after "is" (ist,
  lautet, est, es, è, é), ":", "=", "'s" or
  "for the X is", the value is taken unless it is an ordinary word ("the password is wrong"); without
  a connector ("guest password Blue42") only a value that looks like a secret is taken.
- Everyday words (pass, key, code, login: "pass the salt", "the key to success", "code review") are cues
  only when a word says what they open ("wifi pass", "door code", "the key for the router is", "bank
  login"), or when what follows "is"/":" looks like a secret ("the code is 4711"). "zip code",
  "error code", "car key" are never cues.
- A PIN is digits ("PIN the poster" is not one): any after "PIN is"/"PIN:", four or more after "PIN".
- The value is one token (without the sentence's closing punctuation), a quoted phrase, a run of digits,
  or, when two or more plain words follow ("the passphrase is correct horse battery staple"), the words
  up to the end of the clause (punctuation, "and", "but", "for", ...), at most eight of them.
"""

import re
from collections.abc import Iterator

from app.domain.redaction.digits import RUN, RUN_REST, digit_count
from app.domain.redaction.kinds import Finding, SecretKind, holds_placeholder

# ---- Cues ----

_SURE = r"pass(?:word|code|phrase|wd)|pass[ \t]+(?:word|code|phrase)|pwd?"
# The same cue in the languages people dictate in (de, fr, es, it, nl, pt; Italian says "password"). All of them
# are always known: a German speaker says "password" as often as an English one says "Passwort" in a paste.
_SURE_ABROAD = (
    r"passwort|kennwort|mot[ \t]+de[ \t]+passe|contrase(?:ñ|n)a|clave[ \t]+(?:de[ \t]+acceso|secreta)"
    r"|parola[ \t]+d(?:'|\u2019|i[ \t]+)?(?:ordine|accesso)|wachtwoord|senha|palavra[ \t-]passe"
    # their everyday synonyms: de Zugangscode/Geheimzahl/Losung, fr code d'accès/mdp, es código de acceso,
    # it codice d'accesso, nl toegangscode/pincode, pt código de acesso
    r"|zugangs(?:code|wort|kennung)|geheim(?:zahl|code|nummer|wort)|losung(?:swort)?|pin-?code|pinnummer"
    r"|code[ \t]+(?:d(?:'|\u2019)acc[èe]s|secret)|mdp|c[óo]digo[ \t]+(?:de[ \t]+)?(?:acceso|acesso|secreto)"
    r"|codice[ \t]+(?:d(?:'|\u2019|i[ \t]+)?accesso|segreto)|toegangscode|geheime[ \t]+code"
)
# "WLAN-Passwort", "wifi-wachtwoord": a compound's head word is the cue.
_COMPOUND = r"(?:[^\W\d_]+-)?"
_PIN = r"pin(?:[ \t]+(?:code|number))?"
_EVERYDAY = r"pass|key|code|log-?in"
# "is" and its kin: de ist/lautet/war, fr est/était, es es/era, it è/era, pt é/era; whole words only.
_CONNECTOR = r"(?:[ \t]+(?:is|was|ist|lautet|war|est|était|es|era|è|é)(?!\w)(?:[ \t]*:)?|'s|\u2019s|[ \t]*[:=])"
# "the password for the wifi is", "the code to the front door is", "the PIN of my card is".
# Also "für das WLAN", "du wifi", "del router", "per il wifi", "van de wifi", "do wifi".
_ABOUT = (
    r"[ \t]+(?:for|of|to|on|für|fürs|von|vom|zum|zur|du|de|des|del|della|dello|per|voor|van|do|da|para)[ \t]+"
    r"(?:(?:the|my|our|your|his|her|their|der|die|das|den|dem|mein|meine|meinem|meines|le|la|les|mon|ma|el|mi"
    r"|il|lo|mio|mia|het|de|mijn|o|a|meu|minha)[ \t]+)?[\w'-]+(?:[ \t]+[\w'-]+)?"
)
# Never inside a placeholder: "[password]", "[API key]".
_CUE = re.compile(
    rf"(?<![\w\[\]-])(?:(?P<sure>{_COMPOUND}(?:{_SURE}|{_SURE_ABROAD}))|(?P<pin>{_PIN})|(?P<everyday>{_EVERYDAY}))\b(?![\]-])"
    rf"(?:(?P<about>{_ABOUT})(?P<after_about>{_CONNECTOR})|(?P<connector>{_CONNECTOR}))?"
    r"(?:[ \t]+now)?[ \t]*",
    re.IGNORECASE,
)
_WORD_BEFORE = re.compile(r"([A-Za-z0-9][\w-]*)(?:'s|\u2019s)?[ \t]+$")

# What each everyday word opens, when said just before it or in "for the ..." ("wifi key", "key for the router").
_NETWORK = {"wifi", "wi-fi", "wlan", "wireless", "network", "router", "hotspot", "wpa", "wpa2", "wpa3", "wep", "vpn"}
_ACCOUNT = {"email", "e-mail", "mail", "bank", "banking", "account", "admin", "root", "computer", "laptop", "phone"}
_LOCK = {"door", "gate", "garage", "alarm", "safe", "lock", "locker", "padlock", "keypad", "building", "entry"}
_AUTH = {"access", "security", "verification", "login", "unlock", "2fa", "otp", "one-time", "backup", "recovery"}
_QUALIFIERS: dict[str, set[str]] = {
    "pass": _NETWORK | _ACCOUNT,
    "login": _NETWORK | _ACCOUNT,
    "log-in": _NETWORK | _ACCOUNT,
    "key": _NETWORK
    | {"product", "license", "licence", "activation", "registration", "serial", "encryption", "decryption"}
    | {"recovery", "backup", "master", "private", "secret", "ssh", "gpg", "pgp", "bitlocker", "filevault"},
    "code": _NETWORK | _ACCOUNT | _LOCK | _AUTH | {"master", "sms", "auth", "authentication", "pin", "puk", "sim"},
}
# Said just before an everyday word, these make it something else: "zip code 10115", "the car key is blue".
_NOT_SECRET = frozenset(
    "zip postal post area country dial error status exit return source qr bar dress morse colour color hex "
    "tracking reference booking confirmation order invoice customer promo discount voucher coupon gift airport "
    "language currency sort tax car house home room front back spare boarding bus train day season ski hall "
    "mountain press answer piano keyboard hot foreign primary unique hash lookup dictionary major minor".split()
)

# ---- Values ----

_QUOTED = re.compile(
    r'"[^"\n]{1,100}"|\'[^\'\n]{1,100}\'|\u201c[^\u201d\n]{1,100}\u201d|\u2018[^\u2019\n]{1,100}\u2019'
)
_TOKEN = re.compile(r"\S{1,100}(?!\S)")  # bounded like the key values; no password is longer
_PHRASE_TOKEN = re.compile(r"[ \t]*(\S{1,100})(?!\S)")
_PLAIN_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
_DIGITS_AFTER = re.compile(r"[ \t]+" + RUN_REST, re.IGNORECASE | re.ASCII)
_TRAILING_PUNCTUATION = ".,;:!?)]}\"'\u201d\u2019"
_SYMBOLS = "!@#$%^&*+=?~"
_GLUED = re.compile(rf"[^\s{re.escape(_TRAILING_PUNCTUATION)}]|[{re.escape(_TRAILING_PUNCTUATION)}]+[^\s]")
_MAX_PHRASE_WORDS = 8
_MIN_CODE_DIGITS = 4  # "PIN 1234", "the code is 4711"; "pin 10 photos" and "error code 404" are not secrets
# Words that follow "the password is" in ordinary sentences and are never the password.
_NOT_A_PASSWORD = frozenset(
    "a an the my your his her our their its it this that same not no wrong incorrect invalid expired changed "
    "reset too in on at under somewhere something nothing written saved stored missing required different still "
    "also and or for to which what where here there below above behind inside printed taped stuck known unknown "
    "forgotten lost broken working locked hidden needed set updated as like just only probably maybe always "
    "never usually being been getting going due about over from with by of if when so but because then".split()
    # ... and in the other languages of the cues: "das Passwort ist falsch", "le mot de passe est incorrect".
    + "falsch nicht noch auf unter im der die das ein eine mein meine zu abgelaufen geändert richtig "
    "faux incorrect pas sur dans le la les un une mon ma trop expiré changé "
    "incorrecta no en el mi muy caducada "
    "sbagliata non il lo mia scaduta "
    "fout niet het een mijn verlopen "
    "errada não o um uma minha".split()
)
# Alone they describe the password ("the password is correct"); in a longer phrase they may be part of it.
_DESCRIPTIONS = frozenset("correct right weak strong simple easy long short secret new old good fine ok okay".split())
# Words that end a passphrase's clause: "... battery staple and remind me", "... staple for the router".
_PHRASE_ENDS = frozenset(
    "and but or so because then please which that when if until since unless while for to on at in from with by".split()
)


def _looks_secret(value: str) -> bool:
    """Not an everyday word: digits, digits and letters, symbols, or capitals inside ("Blue42", "s3cr3t!", "1234#")."""
    if len(value) < 4:
        return False
    has_alpha = any(char.isalpha() for char in value)
    if value.isdigit() or (has_alpha and any(char.isdigit() for char in value)):
        return True
    if any(char in _SYMBOLS for char in value) and any(char.isalnum() for char in value):
        return True
    return any(char.isupper() for char in value[1:]) and any(char.islower() for char in value)


def _phrase(text: str, start: int, words_needed: int) -> int | None:
    """The end of a passphrase at `start`: two plain words or more, up to the end of the clause, if long enough."""
    end, words, position = start, 0, start
    while words < _MAX_PHRASE_WORDS:
        token = _PHRASE_TOKEN.match(text, position)
        if not token:
            break
        word = token.group(1)
        core = word.rstrip(_TRAILING_PUNCTUATION)
        if not core or core.lower() in _PHRASE_ENDS or holds_placeholder(core):
            break
        if words < 2 and not _PLAIN_WORD.fullmatch(core):
            return None
        end, words, position = token.start(1) + len(core), words + 1, token.end()
        if core != word:  # "staple, then ...", "staple." : the clause ends here
            break
    return end if words >= words_needed else None


def _value(text: str, start: int, open_value: bool, phrase_words: int | None) -> tuple[int, int] | None:
    """The password at `start`. `open_value`: an ordinary word may be the password, not only a secret-looking one.

    `phrase_words`: how many plain words make a passphrase after this cue (None: this cue takes no phrase).
    """
    quoted = _QUOTED.match(text, start)
    if quoted:
        return quoted.span()
    token = _TOKEN.match(text, start)
    if not token or holds_placeholder(token.group()):
        return None
    end = start + len(token.group().rstrip(_TRAILING_PUNCTUATION))
    word = text[start:end].lower()
    if end == start or word in _NOT_A_PASSWORD:
        return None
    if phrase_words is not None:
        # A soft word opens a passphrase only in a longer one: "correct horse battery staple", not "correct now".
        phrase_end = _phrase(text, start, phrase_words + (1 if word in _DESCRIPTIONS else 0))
        if phrase_end is not None:
            return start, phrase_end
    if word in _DESCRIPTIONS or not (open_value or _looks_secret(text[start:end])):
        return None
    if end == token.end():
        # "hunter two": spoken digits that carry on the password.
        digits = _DIGITS_AFTER.match(text, end)
        if digits:
            end = digits.end()
    return start, end


def _qualified(text: str, cue: re.Match[str], everyday: str) -> bool | None:
    """Whether a word says what an everyday cue opens; None if a word says it is no secret at all."""
    before = _WORD_BEFORE.search(text, max(0, cue.start() - 40), cue.start())
    words = {before.group(1).lower()} if before else set()
    if words & _NOT_SECRET:
        return None
    words |= {word.lower() for word in re.findall(r"[\w'-]+", cue.group("about") or "")}
    return bool(words & _QUALIFIERS[everyday])


def _code_digits(text: str, start: int, minimum: int) -> tuple[int, int] | None:
    """A run of at least `minimum` digits, written or spoken, at `start`, that is the whole value ("1234#" is not)."""
    run = RUN.match(text, start)
    if not run or digit_count(text, run) < minimum or _GLUED.match(text, run.end()):
        return None
    return run.span()


def _password_span(text: str, cue: re.Match[str]) -> tuple[int, int] | None:
    start = cue.end()
    connected = bool(cue.group("connector") or cue.group("after_about"))
    if cue.group("pin"):
        # Digits, or one token that looks like a secret ("1234#"); "PIN the poster" is neither.
        return _code_digits(text, start, 1 if connected else _MIN_CODE_DIGITS) or _value(text, start, False, None)
    if cue.group("sure"):
        # "passphrase correct horse battery staple" needs no "is"; "password tomorrow" is no passphrase.
        is_phrase_cue = "phrase" in cue.group("sure").lower()
        return _value(text, start, connected, 2 if connected else 3 if is_phrase_cue else None)
    everyday = cue.group("everyday").lower()
    qualified = _qualified(text, cue, everyday)
    if qualified is None:
        return None
    if everyday == "pass" and not qualified and not re.search("[:=]", cue.group("connector") or ""):
        return None  # "pass the salt", "the pass is valid": only "pass:" is a cue on its own
    if not (connected or qualified):
        return None  # "the key to success", "code review on Monday"
    # Both a connector and a qualifier ("the wifi key is ..."): as sure as "password is".
    sure = connected and qualified
    digits = _code_digits(text, start, 3 if sure else _MIN_CODE_DIGITS)
    return digits or _value(text, start, sure, 2 if sure else None)


def passwords(text: str) -> Iterator[Finding]:
    for cue in _CUE.finditer(text):
        span = _password_span(text, cue)
        if span and not holds_placeholder(text[span[0] : span[1]]):
            yield Finding(SecretKind.PASSWORD, *span)
