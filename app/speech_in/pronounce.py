"""Pronunciations of the user's own words for pocketsphinx's dictionary, from espeak-ng's IPA in ARPAbet.

pocketsphinx can only write a word its dictionary has, and names and jargon ("Kubernetes", "Grafana") are
mostly not there. espeak-ng (the reply voice, installed with Murmur) spells any word in IPA; that is turned
into the CMU phones of pocketsphinx's US English model, one word at a time, without stress.
"""

import logging
import shutil
import subprocess
from collections.abc import Iterable

log = logging.getLogger("murmur.speech")

# IPA as espeak-ng writes US English, longest symbols first when read; ties (zero-width joiners), stress and
# length marks are dropped before.
_ARPABET = {
    "tʃ": "CH", "dʒ": "JH", "eɪ": "EY", "aɪ": "AY", "ɔɪ": "OY", "aʊ": "AW", "oʊ": "OW", "ɪɹ": "IH R",
    "ɛɹ": "EH R", "ʊɹ": "UH R", "ɔɹ": "AO R", "ɑɹ": "AA R", "iə": "IY AH", "n̩": "AH N", "l̩": "AH L",
    "i": "IY", "ɪ": "IH", "ᵻ": "IH", "e": "EH", "ɛ": "EH", "æ": "AE", "a": "AA", "ɑ": "AA", "ɒ": "AA",
    "ɔ": "AO", "o": "OW", "ʊ": "UH", "u": "UW", "ʌ": "AH", "ə": "AH", "ɐ": "AH", "ɚ": "ER", "ɜ": "ER",
    "ɝ": "ER", "p": "P", "b": "B", "t": "T", "d": "D", "k": "K", "ɡ": "G", "g": "G", "f": "F", "v": "V",
    "θ": "TH", "ð": "DH", "s": "S", "z": "Z", "ʃ": "SH", "ʒ": "ZH", "h": "HH", "m": "M", "n": "N", "ŋ": "NG",
    "l": "L", "ɹ": "R", "r": "R", "w": "W", "j": "Y", "ɾ": "D", "x": "K", "ç": "HH",
}  # fmt: skip
_DROPPED = str.maketrans("", "", "ˈˌːˑ\u200d\u0361 -'")
_LONGEST = max(map(len, _ARPABET))


def arpabet(ipa: str) -> str | None:
    """The phones of an IPA spelling ("ɡɹæfˈɑːnə" -> "G R AE F AA N AH"); None when a symbol is unknown."""
    text, phones = ipa.translate(_DROPPED), []
    while text:
        for size in range(min(_LONGEST, len(text)), 0, -1):
            phone = _ARPABET.get(text[:size])
            if phone is not None:
                phones.append(phone)
                text = text[size:]
                break
        else:
            return None
    return " ".join(phones) or None


def pronunciations(words: Iterable[str]) -> dict[str, str]:
    """{word: phones} for each word espeak-ng can spell; nothing when espeak-ng is not installed."""
    wanted = list(dict.fromkeys(words))
    program = shutil.which("espeak-ng")
    if not wanted or program is None:
        return {}
    try:
        done = subprocess.run(
            [program, "-q", "--ipa", "-v", "en-us"],
            input="\n".join(wanted),
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
    except (OSError, subprocess.SubprocessError) as error:
        log.warning("no pronunciations for the user's words: %r", error)
        return {}
    spelt = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    if len(spelt) != len(wanted):  # espeak-ng read the lines otherwise than one word each: take none
        return {}
    found = {word: arpabet(ipa) for word, ipa in zip(wanted, spelt, strict=True)}
    return {word: phones for word, phones in found.items() if phones}
