"""Korean particles chosen from the word they follow, so a catalog never needs the fallback "이(가)".

Owns: ``particle(word, which)`` — the form of a particle (이/가, 은/는, 을/를, 과/와, 으로/로) that the last
syllable of ``word`` takes: a Hangul syllable by its 받침 (ㄹ takes 로, not 으로); a number as Korean reads it
(2 → 이 → "2가", 3 → 삼 → "3이", 10 → 십 → "10이", 1 → 일 → "1로", "75%" → 퍼센트 → "75%가"); a Latin word by how
Korean spells it (single letters and acronyms by their names: "CSV" → 브이 → "CSV를", "L" → 엘 → "L을"; words
ending in m/n/ng/ck/l take the 받침 form: "Plan"→"Plan이"; others do not: "Study를", "Audience를", "Mind가"; a file
name's extension letter by letter: "notes.png가", "page.html을").
A word it cannot read (a Slack mention, Chinese characters, an emoji) gets the fallback "이(가)" — the honest
form only where the word is truly unknown. Markup around the word (``*bold*``, ``_italic_``, `` `code` ``,
closing brackets and quotes) is looked through.
The catalogs use it through a placeholder's format spec: ``{study:을}`` in a Korean translation is ``{study}``
followed by 을 or 를 (``minds_bot.i18n`` fills it; either form of the pair names it: ``{study:를}`` is the same);
``{study:~을}`` is the particle alone, for a mark that closes between value and particle: ``“{study}”{study:~을}``.
Must not touch: anything but strings.
"""

from __future__ import annotations

import re

# Each particle's (after a final consonant, after a vowel) forms; either form names the pair.
_PAIRS: dict[str, tuple[str, str]] = {}
for _with, _without in (
    ("이", "가"),
    ("은", "는"),
    ("을", "를"),
    ("과", "와"),
    ("으로", "로"),
    ("이나", "나"),
    ("이라", "라"),
):
    _PAIRS[_with] = _PAIRS[_without] = (_with, _without)
PARTICLES = frozenset(_PAIRS)

_NO_FINAL, _RIEUL, _OTHER_FINAL = "none", "ㄹ", "final"
# How Korean reads a last digit: 0 영, 1 일, 2 이, 3 삼, 4 사, 5 오, 6 육, 7 칠, 8 팔, 9 구.
_DIGIT = {
    "0": _OTHER_FINAL,
    "1": _RIEUL,
    "2": _NO_FINAL,
    "3": _OTHER_FINAL,
    "4": _NO_FINAL,
    "5": _NO_FINAL,
    "6": _OTHER_FINAL,
    "7": _RIEUL,
    "8": _RIEUL,
    "9": _NO_FINAL,
}
# Letter names: 엘, 알 end in ㄹ; 엠, 엔 in another consonant; every other letter's name in a vowel.
_LETTER = {"l": _RIEUL, "r": _RIEUL, "m": _OTHER_FINAL, "n": _OTHER_FINAL}
_EXTENSION = re.compile(r"\w\.[A-Za-z0-9]{1,5}$")
_CLOSING = "*_~`\u200b )]}\"'」』）】》〉”’.,:;!?"


def final_sound(word: str) -> str | None:
    """``"none"``, ``"ㄹ"`` or ``"final"`` for how ``word`` ends when read in Korean; None when it cannot be read."""
    text = word.rstrip(_CLOSING)
    if not text or text.endswith(">"):  # a Slack token (<@U…>, <!date…>) reads as something we do not see
        return None
    last = text[-1]
    if "\uac00" <= last <= "\ud7a3":
        final = (ord(last) - 0xAC00) % 28
        return _NO_FINAL if final == 0 else _RIEUL if final == 8 else _OTHER_FINAL
    if last == "%":
        return _NO_FINAL  # 퍼센트
    if last.isdigit() and last.isascii():
        return _number(text)
    if last.isascii() and last.isalpha():
        if _EXTENSION.search(text):  # a file name: its extension is read letter by letter (.png → 지, .html → 엘)
            return _LETTER.get(last.lower(), _NO_FINAL)
        return _latin(text)
    return None


def particle(word: str, which: str) -> str:
    """The form of particle ``which`` (either form of the pair, e.g. "이" or "가") that follows ``word``."""
    with_final, without_final = _PAIRS[which]
    sound = final_sound(word)
    if sound is None:
        return f"({with_final[0]}){without_final}" if with_final == "으로" else f"{with_final}({without_final})"
    if sound == _NO_FINAL or (sound == _RIEUL and with_final == "으로"):
        return without_final
    return with_final


def _number(text: str) -> str:
    digits = ""
    for char in reversed(text):
        if char.isdigit() or char in ",. \u00a0":
            digits = char + digits
        else:
            break
    whole, _, fraction = digits.replace(",", "").replace(" ", "").replace("\u00a0", "").partition(".")
    if fraction:
        return _DIGIT[fraction[-1]]
    stripped = whole.rstrip("0")
    if stripped and stripped != whole:
        return _OTHER_FINAL  # ends in a unit: 십, 백, 천, 만, 억
    return _DIGIT[whole[-1]]


def _latin(text: str) -> str:
    letters = ""
    for char in reversed(text):
        if char.isascii() and char.isalpha():
            letters = char + letters
        else:
            break
    if len(letters) == 1 or (len(letters) >= 2 and letters[-2:].isupper()):  # a letter or an acronym: its name
        return _LETTER.get(letters[-1].lower(), _NO_FINAL)
    lower = letters.lower()
    if lower.endswith(("m", "n", "ng", "ck")):
        return _OTHER_FINAL
    if lower.endswith("l"):
        return _RIEUL
    return _NO_FINAL
