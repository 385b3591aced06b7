"""An entry renamed by its summary alone: the words of its text the old summary showed become the new summary,
so a misheard word put right in the list is put right in the text too."""

import re

_CUT = "…"  # where a summary was cut short of its text (app/domain/summaries.py)


def renamed_content(content: str, old_summary: str, new_summary: str) -> str:
    """`content` with the words `old_summary` showed of it replaced by `new_summary`; kept as it is when the
    old summary never came from it (the text was written apart from the name)."""
    words = old_summary.removesuffix(_CUT).split()
    if not words:
        return content
    # The summary is the text's opening words, spaced and capitalised anew: found wherever the text has them.
    said = re.compile(r"(?<!\w)" + r"\s+".join(re.escape(word) for word in words) + r"(?!\w)", re.IGNORECASE)
    new = new_summary.removesuffix(_CUT).strip()

    def put_right(found: re.Match[str]) -> str:
        # The capital a summary opens with is its own: words found in lower case mid-text stay in lower case.
        return new[:1].lower() + new[1:] if found.group()[:1].islower() else new

    return said.sub(put_right, content, count=1)
