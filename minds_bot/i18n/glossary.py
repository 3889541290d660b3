"""The house terms of each language: the words Minds' own documentation uses, so the bot says what Minds says.

Owns: ``TERMS`` — for each shared term (Study, Audience, Mind, revision, approve, confirmation question, run,
digest, summary, recalibrate, members, coverage, research) the word each catalog uses, taken from Minds' MCP tool
reference in that language (getminds.ai/mcp/<lang>/tools) where it has the term (heatmap: Heatmap /
mapa de calor / 热力图 / 히트맵; an NPS detractor: Detraktor), and a pattern a translation
of a message that speaks of the term must contain; and ``FORBIDDEN`` — the variants a catalog must not use
(a masculine Spanish Study — "Nuevo Study" in a title too —, German "Fassung" for a revision, "Freigabe" for an
approval — Minds' German uses it for *sharing* —, German "Recherche" for research (Minds: Forschung; an
Audience's Web-/Hintergrundrecherche is Minds' own) and "Kritiker" for detractors, Spanish "heatmap" and “ ”
quotes (« »), Chinese 热图, 批准人 for an approver (审批人), 线程 for a thread
(消息列) and a space after 。, Korean "실행 취소" for cancelling a run (it reads as
Undo: 실행 중단) and 공백 for missing answers (누락), Korean 멤버 for an
Audience's members, particle fallbacks such as "이(가)" …). Patterns that must also
catch titles and capitalised forms are case-insensitive.
``tests/i18n/test_glossary.py`` holds every catalog to both (``violations`` says what is off in one translation,
so translations written outside the catalogs can be checked the same way). Text in code spans (`` `…` ``),
``{placeholders}`` and Slack tokens is not looked at: commands and values are not words of the language.
Must not touch: anything at run time — this is data for the catalogs' tests and for translators.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Term:
    """A shared term: ``where`` finds the English messages that speak of it; ``house`` is, per language, what
    their translation must contain (a regular expression, case-insensitive); ``words`` what a translator writes."""

    english: str
    where: str
    house: dict[str, str]
    words: dict[str, str]
    # English messages that match ``where`` but do not speak of the term (e.g. "run" the verb).
    unless: str | None = None


@dataclass(frozen=True)
class Forbidden:
    """A variant a language must not use (``pattern``, a regular expression), in every message or only in those
    whose English matches ``where`` and not ``unless``."""

    language: str
    pattern: str
    why: str
    where: str | None = None
    unless: str | None = None
    flags: int = field(default=0)
    # Look at the translation as written (placeholders and code spans included), for rules about spacing.
    literal: bool = False


TERMS: tuple[Term, ...] = (
    Term(
        "Study",
        r"(?-i:\bStud(y|ies)\b)",
        {"de": r"Stud(y|ies)", "es": r"Stud(y|ies)", "zh": r"Stud(y|ies)", "ko": r"Stud(y|ies)"},
        {"de": "die Study", "es": "la Study", "zh": "Study", "ko": "Study"},
    ),
    Term(
        "Audience",
        r"(?-i:\bAudiences?\b)",
        {"de": r"Audience", "es": r"Audience", "zh": r"Audience", "ko": r"Audience"},
        {"de": "die Audience", "es": "la Audience", "zh": "Audience", "ko": "Audience"},
    ),
    Term(
        "revision",
        r"\brevisions?\b",
        {"de": r"Revision", "es": r"revisi[oó]n", "zh": r"修订版", "ko": r"수정본"},
        {"de": "die Revision", "es": "la revisión", "zh": "修订版", "ko": "수정본"},
    ),
    Term(
        "approve",
        r"\bapprov(e|es|ed|ing|al|er|ers)\b",
        {"de": r"genehmig", "es": r"aprob|aprueb|aprué", "zh": r"批准|审批", "ko": r"승인"},
        {"de": "genehmigen, Genehmigung, die Genehmigenden", "es": "aprobar", "zh": "批准, 审批人", "ko": "승인"},
    ),
    Term(
        "confirmation question",
        r"confirmation questions?",
        {"de": r"Rückfrage", "es": r"preguntas? de confirmación", "zh": r"确认问题", "ko": r"확인 질문"},
        {"de": "die Rückfrage", "es": "la pregunta de confirmación", "zh": "确认问题", "ko": "확인 질문"},
    ),
    Term(
        "run",
        r"\b(a|the|this|that|each|every|latest|newest|last|one|its|live|recent|finished)\s+runs?\b",
        {"de": r"Durchl[aä]uf", "es": r"ejecuci[oó]n", "zh": r"运行", "ko": r"실행"},
        {"de": "der Durchlauf", "es": "la ejecución", "zh": "运行", "ko": "실행"},
    ),
    Term(
        "digest",
        r"\bdigests?\b",
        {"de": r"Digest", "es": r"bolet[ií]n|boletines", "zh": r"简讯", "ko": r"다이제스트"},
        {"de": "der Digest", "es": "el boletín", "zh": "简讯", "ko": "다이제스트"},
    ),
    Term(
        "summary",
        r"\bsummar(y|ies)\b",
        {"de": r"Zusammenfassung", "es": r"resumen", "zh": r"摘要", "ko": r"요약"},
        {"de": "die Zusammenfassung", "es": "el resumen", "zh": "摘要", "ko": "요약"},
    ),
    Term(
        "recalibrate",
        r"\brecalibrat\w*|refresh an Audience",
        {"de": r"kalibrier", "es": r"recalibr", "zh": r"重新校准", "ko": r"재보정"},
        {"de": "neu kalibrieren, die Neukalibrierung", "es": "recalibrar", "zh": "重新校准", "ko": "재보정"},
    ),
    Term(
        "members",
        r"\bmembers?\b",
        {"de": r"Mitglied", "es": r"miembro", "zh": r"成员", "ko": r"구성원"},
        {"de": "die Mitglieder", "es": "los miembros", "zh": "成员", "ko": "구성원"},
        # Not an Audience's members: a workspace's or channel's (Slack's word, 멤버) or a Study's invited people
        # (the role "member", 멤버 as Minds' role name).
        unless=r"workspace|channel|invite|^member$",
    ),
    Term(
        "heatmap",
        r"\bheatmaps?\b",
        {"de": r"Heatmap", "es": r"mapas? de calor", "zh": r"热力图", "ko": r"히트맵"},
        {"de": "die Heatmap", "es": "el mapa de calor", "zh": "热力图", "ko": "히트맵"},
    ),
    Term(
        "detractors",
        r"\bdetractors?\b",
        {"de": r"Detraktor"},
        {"de": "die Detraktoren"},
    ),
    Term(
        "coverage",
        r"\bcoverage\b",
        {"de": r"Abdeckung", "es": r"cobertura", "zh": r"覆盖", "ko": r"커버리지"},
        {"de": "die Abdeckung", "es": "la cobertura", "zh": "覆盖情况", "ko": "커버리지"},
    ),
)

_ENGLISH_RUN = r"(?<![A-Za-z])runs?(?![A-Za-z])"
_PARTICLE_FALLBACK = r"이\(가\)|가\(이\)|은\(는\)|는\(은\)|을\(를\)|를\(을\)|과\(와\)|와\(과\)|\(으\)로"

FORBIDDEN: tuple[Forbidden, ...] = (
    # German
    Forbidden("de", r"Fassung", "a revision is a Revision (Minds: 'Entwurfsrevision')"),
    Forbidden(
        "de", r"[Ff]reigeb|Freigabe", "approving is genehmigen; Minds' German uses Freigabe for sharing", r"approv"
    ),
    Forbidden("de", r"\b(das|ein neues|dieses|jedes|keines|welches) Mind(?![-\w])", "der Mind (masculine)"),
    Forbidden("de", r"auffrisch", "recalibrating is neu kalibrieren"),
    Forbidden("de", _ENGLISH_RUN, "a run is a Durchlauf"),
    Forbidden(
        "de",
        r"\bRecherche",
        "research is Forschung (Minds: 'startet keine Forschung'); an Audience's Web- or Hintergrundrecherche "
        "and 'recherchiert' are Minds' own words for its grounding",
    ),
    Forbidden("de", r"kritiker", "NPS detractors are Detraktoren (with Promotoren, Passive)", flags=re.IGNORECASE),
    Forbidden("de", r"^Minds antworten$", "the button answers Minds' questions: an imperative, not 'Minds answer'"),
    # Spanish
    Forbidden(
        "es",
        r"\b(?i:el|un|este|ese|del|al|otro|nuevo|ningún|primer|mismo|propio|cualquier) Study\b",
        "la Study (feminine, as Minds writes it)",
    ),
    Forbidden(
        "es",
        r"\bStudy (nuevo|creado|duplicado|vinculado|asociado|seleccionado|elegido|indicado|encontrado|público|"
        r"privado|original|copiado|compartido|abierto|anterior [a-z]+do)\b",
        "la Study: adjectives and participles feminine",
    ),
    Forbidden("es", r"\b(revisad|aprobad|responded|escribid|elegid|vosotros)\b", "tú, not vosotros"),
    Forbidden("es", r"[Rr]evisión\b[^.;:]*\bsolicitado\b", "la revisión … solicitada"),
    Forbidden("es", r"resumen", "a digest is a boletín; resumen is a summary", r"\bdigests?\b", r"summar"),
    Forbidden("es", _ENGLISH_RUN, "a run is an ejecución"),
    Forbidden("es", r"\bheatmaps?\b", "a heatmap is un mapa de calor (Minds: 'un mapa de calor')", flags=re.IGNORECASE),
    Forbidden("es", r"[“”]", "Spanish quotes with « » (one style in every message)"),
    # Chinese
    Forbidden("zh", r"摘要", "a digest is 简讯; 摘要 is a summary", r"\bdigests?\b", r"summar"),
    Forbidden("zh", r"全部\s+(个|条)", "'全部 1 个' when the count is one: say '这 {count} 个'"),
    Forbidden(
        "zh", r"(?<!实地)调研", "research is 研究 (Minds: 网络研究, 后台研究); 实地调研 (fieldwork) is a set phrase"
    ),
    Forbidden("zh", _ENGLISH_RUN, "a run is 运行"),
    Forbidden("zh", r"热图", "a heatmap is 热力图 (Minds: 热力图)"),
    Forbidden("zh", r"批准人", "an approver is 审批人 (approving stays 批准)"),
    Forbidden("zh", r"线程", "a Slack thread is 消息列 (Slack's Chinese word)"),
    Forbidden("zh", r"[。！？；：，、）] +(?=\S)", "no space after Chinese punctuation", literal=True),
    # Korean
    Forbidden(
        "ko", r"멤버", "an Audience's members are 구성원 (Minds: 구성원 수)", None, r"workspace|channel|Slack|^member$"
    ),
    Forbidden("ko", r"응답 범위", "coverage is 커버리지 (Minds: 커버리지 개수)"),
    Forbidden(
        "ko",
        r"연구|(?<!시장 )(?<!현장 )조사",
        "research is 리서치 (Minds: 웹 리서치); 시장 조사, 현장 조사 are set phrases",
    ),
    Forbidden("ko", _PARTICLE_FALLBACK, "a particle chosen from the word: write it, or {name:이} after a placeholder"),
    Forbidden("ko", r"\bMinds?\s+\d*\s*개|개의 Minds?\b|Minds?[가이] 여러 개", "Minds are counted with 명"),
    Forbidden("ko", _ENGLISH_RUN, "a run is 실행"),
    Forbidden("ko", r"실행 취소", "실행 취소 reads as Undo: cancelling a run is 실행 중단", r"\bcancel"),
    Forbidden("ko", r"공백", "missing answers are 누락된 답변 (공백 is whitespace)"),
)

_LITERAL = re.compile(r"`[^`]*`|\{[a-zA-Z_][a-zA-Z0-9_]*(?::[^{}]*)?\}|<[^<>]*>")


def words_of(text: str) -> str:
    """``text`` without its code spans, placeholders and Slack tokens: the words a glossary speaks of."""
    return _LITERAL.sub(" ", text)


def violations(language: str, english: str, translation: str) -> list[str]:
    """What is wrong with ``translation`` (of the English ``english``) by the glossary; empty when nothing is."""
    said, source = words_of(translation), words_of(english)
    found: list[str] = []
    for term in TERMS:
        if language not in term.house or not re.search(term.where, source, re.IGNORECASE):
            continue
        if term.unless and re.search(term.unless, english, re.IGNORECASE):
            continue
        if not re.search(term.house[language], said, re.IGNORECASE):
            found.append(f"{term.english}: expected {term.words[language]!r}")
    for rule in FORBIDDEN:
        if rule.language != language:
            continue
        if rule.where and not re.search(rule.where, source, re.IGNORECASE):
            continue
        if rule.unless and re.search(rule.unless, english, re.IGNORECASE):
            continue
        if match := re.search(rule.pattern, translation if rule.literal else said, rule.flags):
            found.append(f"{match.group()!r}: {rule.why}")
    return found
