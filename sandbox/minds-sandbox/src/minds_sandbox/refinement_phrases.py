"""The words the sandbox planner reads in a refinement and the words of the questions a refinement adds, in the
five Study languages (English, German, Spanish, Chinese, Korean).

Owns: the instruction verbs (add, remove, reword, keep), how a question is named ("Q3", "Frage 3", "第3题",
"3번 질문", "the screener", "the last question"), number words, the "only N questions" phrasings, and the
templates of an added open "why" question, a preference question, its placeholder options and the
confirmation question that asks the requester for them. Refinements are understood in any of the five
languages whatever the Study language; new question text is written in the Study language (``studyLocale``),
English when the plan's language is none of these. Plain data and regular expressions; no behaviour beyond
picking a template (see ``refinements``). Must not touch ``instruments`` (its question banks are separate).
"""

from __future__ import annotations

import re

LANGUAGES = ("en", "de", "es", "zh", "ko")
DEFAULT_LANGUAGE = "en"

# ---------------------------------------------------------------- reading

NUMBER_WORDS = {
    **{w: n for n, w in enumerate(["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"], 1)},
    **{w: n for n, w in enumerate(["eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun"], 1)},
    "ein": 1,
    "eine": 1,
    **{w: n for n, w in enumerate(["uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve"], 1)},
    "una": 1,
    **{w: n for n, w in enumerate("一二三四五六七八九十", 1)},
    "两": 2,
    **{w: n for n, w in enumerate(["한", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉", "열"], 1)},
    "하나": 1,
    "둘": 2,
    "셋": 3,
    "넷": 4,
}
_NUM = r"(?:\d{1,2}|" + "|".join(sorted(map(re.escape, NUMBER_WORDS), key=len, reverse=True)) + r")"

ORDINALS = {
    # English, German, Spanish ordinals of a question ("the third question"); -1 is the last one
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "last": -1, "final": -1,
    "erste": 1, "zweite": 2, "dritte": 3, "vierte": 4, "fünfte": 5, "sechste": 6, "siebte": 7, "achte": 8,
    "letzte": -1,
    "primera": 1, "segunda": 2, "tercera": 3, "cuarta": 4, "quinta": 5, "sexta": 6, "séptima": 7, "octava": 8,
    "última": -1,
}  # fmt: skip
_ORDINAL = "|".join(sorted(ORDINALS, key=len, reverse=True))

# A question named by number or position; group "n" is the number (digits or a number word), "o" an ordinal.
QUESTION_REF = re.compile(
    r"\bq\s*#?\s*(?P<n1>\d{1,2})\b"
    r"|\b(?:questions?|fragen?|preguntas?|items?)\s*(?:n[o.º°]\s*)?#?\s*(?P<n2>\d{1,2})\b"
    r"|\b(?:f|p)(?P<n3>\d{1,2})\b"
    r"|\b(?P<n4>\d{1,2})\.\s*frage\b"
    rf"|\b(?:the\s+|die\s+|la\s+)?(?P<o1>{_ORDINAL})[nrs]?\s+(?:question|frage|pregunta)\b"
    rf"|第\s*(?P<n5>{_NUM})\s*(?:道|个)?\s*(?:题|问题|问)"
    r"|问题\s*(?P<n6>\d{1,2})"
    r"|(?P<n7>\d{1,2})\s*번\s*(?:질문|문항)?"
    r"|(?:질문|문항)\s*(?P<n8>\d{1,2})"
    rf"|(?P<n9>{_NUM})\s*번째\s*(?:질문|문항)?"
    r"|(?P<last>最后一(?:道|个)?(?:题|问题)|마지막\s*(?:질문|문항))",
    re.I,
)
SCREENER = re.compile(
    r"\bscreen(?:er|ing question)s?\b|\bfilterfrage\b|\bpregunta\s+(?:de\s+)?filtro\b|\bfiltro\b"
    r"|筛选题|甄别题|过滤题|筛选问题|스크리너|선별\s*질문|필터\s*질문",
    re.I,
)

REMOVE = re.compile(
    r"\b(?:remove|drop|delete|cut|omit|skip|take\s+out|get\s+rid\s+of)\b"
    r"|\b(?:entfern\w*|streich\w*|lösch\w*|weglass\w*|weg)\b"
    r"|\b(?:elimin\w*|quit\w*|borr\w*|suprim\w*)\b"
    r"|删除|删掉|删去|去掉|移除|拿掉|不要"
    r"|삭제|빼|제거|없애",
    re.I,
)
REWORD = re.compile(
    r"\b(?:reword|rephrase|rewrite|change|replace|edit|alter)\b"
    r"|\b(?:umformulier\w*|formulier\w*|änder\w*|ersetz\w*)\b"
    r"|\b(?:reformul\w*|cambi\w*|reescrib\w*|reemplaz\w*|sustitu\w*|modific\w*)\b"
    r"|改成|改为|换成|修改|改写|改一下"
    r"|바꿔|바꾸|변경|수정|고쳐",
    re.I,
)
ADD = re.compile(
    r"\b(?:add|include|insert|ask|also\s+ask|put\s+in)\b"
    r"|\b(?:füg\w*|ergänz\w*|frag\w*|hinzu\w*|aufnehm\w*|nimm\w*)\b"
    r"|\b(?:añad\w*|agreg\w*|inclu\w*|pregunt[aeo]\w*|incorpor\w*)\b"
    r"|添加|增加|加上|加一|加个|补充|询问|问(?!题)"
    r"|추가|넣어|넣고|물어|묻는",
    re.I,
)
KEEP = re.compile(
    r"^\s*(?:keep|leave|behalte\w*|lass\w*|mant[eé]n\w*|deja\w*|保留其他|其他不变|其余不变|나머지는?\s*(?:그대로|유지))",
    re.I,
)
# the verbs an instruction may start with: a following instruction is split off at "and"/"und"/"y"/a comma
INSTRUCTION_START = re.compile(
    r"(?:please\s+|bitte\s+|por\s+favor,?\s+)?(?:"
    + "|".join(
        [
            r"add|include|insert|ask|also|remove|drop|delete|cut|omit|skip|reword|rephrase|rewrite|change|replace",
            r"only|just|limit|keep|make|use",
            r"füg\w*|ergänz\w*|frag\w*|entfern\w*|streich\w*|lösch\w*|änder\w*|formulier\w*|ersetz\w*|nur|behalte\w*",
            r"añad\w*|agreg\w*|inclu\w*|pregunt\w*|elimin\w*|quit\w*|borr\w*|cambi\w*|reformul\w*|solo|sólo|mant\w*",
        ]
    )
    + r")\b",
    re.I,
)
CONJUNCTION = re.compile(
    r"\s*,?\s+(?:and(?:\s+also|\s+then)?|then|plus|und(?:\s+dann)?|sowie|y(?:\s+luego)?|e)\s+", re.I
)
_CJK = r"(?=[\u4e00-\u9fff])"
_HANGUL = r"(?=[\uac00-\ud7a3])"
ZH_BREAK = re.compile(rf"(?:，|,\s*{_CJK})\s*(?:并且|并|然后|再|另外|同时|还要|还)?|并且|然后|另外|同时")
KO_BREAK = re.compile(
    rf"(?<=하고)\s+|(?<=바꾸고)\s+|(?<=빼고)\s+|(?<=넣고)\s+|(?:，|,\s*{_HANGUL})\s*(?:그리고\s*)?|\s+그리고\s+"
)
# more numbers after a named question: "questions 2 and 3", "Q2, Q4"
MORE_REFS = re.compile(
    r"\s*(?:,|&|\band\b|\bund\b|\by\b|和|、|및)\s*(?:q\s*)?(?P<n>\d{1,2})\b(?!\s*(?:%|eur|€|\$|usd))", re.I
)
# the new wording after the named question: "to …", "as …", ": …", "zu …", "por …", "改成…", "을 …로 바꿔"
REWORD_TEXT = re.compile(
    r"^\s*(?:(?:to|as|with|into|so\s+(?:that\s+)?it\s+(?:reads|says)|zu|in|um|durch|a|por|como|改成|改为|换成|改写为"
    r"|修改为|为)\s*[:：]?|[:：])\s*(?P<text>\S.*)$"
    r"|^\s*(?:을|를|은|는)\s*(?P<ko>\S.*?)\s*(?:으로|로)\s*(?:바꿔|바꾸|변경|수정|고쳐)",
    re.I,
)
SENTENCE_BREAK = re.compile(r"(?<!\d)[.!。！]\s+|[;；\n]+\s*|(?<=[?？])\s+|。")

WHY = re.compile(r"\bwhy\b|\bwarum\b|\bwieso\b|\bweshalb\b|\bpor\s*qu[eé]\b|\bporqu[eé]\b|为什么|为何|이유|왜", re.I)
PREFER = re.compile(
    r"\bprefer\w*\b|\blike\s+(?:best|most)\b|\bchoose\s+between\b|\bpick\s+between\b|\bfavou?rite\b"
    r"|\bbevorzug\w*|\blieber\b|\bvorzieh\w*|\bam\s+besten\s+gefällt\b"
    r"|\bprefier\w*|\bprefer[ií]\w*|\belegir\s+entre\b|\bescoger\s+entre\b"
    r"|更喜欢|偏好|最喜欢|喜欢哪|选择哪|선호|더\s*좋아|고르",
    re.I,
)
OPEN_QUESTION = re.compile(
    r"\bopen(?:[- ]ended)?\s+question\b|\boffene\s+frage\b|\bpregunta\s+abierta\b|开放式?问题|开放题|주관식|개방형",
    re.I,
)
ABOUT = re.compile(
    r"\b(?:question|frage|pregunta)\s+(?:about|on|regarding|zu[rm]?|über|sobre|acerca\s+de)\s+(?P<x>.+)$"
    r"|关于(?P<zh>.+?)的问题"
    r"|(?P<ko>.+?)에\s*대한\s*질문",
    re.I,
)
# "only 3 questions", "nur 3 Fragen", "solo 3 preguntas", "只要3个问题", "질문 3개만"
ONLY_COUNT = re.compile(
    rf"\b(?:only|just|at\s+most|max(?:imum)?(?:\s+of)?|no\s+more\s+than|limit(?:ed)?\s+(?:it\s+)?to|cut\s+(?:it\s+)?to"
    rf"|shorten\s+(?:it\s+)?to|reduce\s+(?:it\s+)?to)\s+(?P<en>{_NUM})\s+questions?\b"
    rf"|\b(?P<en2>{_NUM})\s+questions?\s+(?:only|max(?:imum)?|at\s+most|in\s+total)\b"
    rf"|\b(?:nur|höchstens|maximal|nicht\s+mehr\s+als)\s+(?:noch\s+)?(?P<de>{_NUM})\s+fragen\b"
    rf"|\bauf\s+(?P<de2>{_NUM})\s+fragen\b"
    rf"|\b(?:solo|sólo|solamente|como\s+máximo|máximo|a\s+lo\s+sumo|no\s+más\s+de)\s+(?P<es>{_NUM})\s+preguntas\b"
    rf"|(?:只要|只保留|只留|保留|最多|仅|只)\s*(?P<zh>{_NUM})\s*(?:个|道)?\s*(?:问题|题)"
    rf"|(?:질문|문항)\s*(?P<ko>{_NUM})\s*개\s*(?:만|까지|로)"
    rf"|(?P<ko2>{_NUM})\s*개(?:의)?\s*(?:질문|문항)\s*(?:만|까지|로)"
    rf"|최대\s*(?P<ko3>{_NUM})\s*개",
    re.I,
)
# the thing a preference question compares, named in the refinement: "which of three claims"
COUNTED_THING = re.compile(rf"(?P<n>{_NUM})\s*(?:个|種|种|개의?)?\s*(?P<noun>[^\W\d_]+)", re.I)
QUOTED = re.compile(r"[\"“„«「『]\s*(?P<q>[^\"“”„«»「」『』]{1,200}?)\s*[\"”“»」』]")
LIST_SPLIT = re.compile(r"\s*(?:[,;、，；]|\s(?:or|and|oder|und|o|y|或|和|或者|또는|그리고)\s)\s*", re.I)

# ---------------------------------------------------------------- writing

KINDS = {
    # a noun the refinement may use for what is compared → (English, German, Spanish with demonstrative,
    # Chinese, Korean); "option" is the fallback
    "claim": ("claims", "Aussagen", "estas afirmaciones", "宣传语", "문구"),
    "statement": ("claims", "Aussagen", "estas afirmaciones", "宣传语", "문구"),
    "tagline": ("taglines", "Slogans", "estos eslóganes", "口号", "슬로건"),
    "slogan": ("taglines", "Slogans", "estos eslóganes", "口号", "슬로건"),
    "name": ("names", "Namen", "estos nombres", "名称", "이름"),
    "design": ("designs", "Designs", "estos diseños", "设计", "디자인"),
    "message": ("messages", "Botschaften", "estos mensajes", "信息", "메시지"),
    "concept": ("concepts", "Konzepte", "estos conceptos", "概念", "콘셉트"),
    "price": ("prices", "Preise", "estos precios", "价格", "가격"),
    "option": ("options", "Optionen", "estas opciones", "选项", "선택지"),
}
KIND_WORDS = {
    "claim": r"claims?|aussagen?|claim|versprechen|afirmaci\w+|declaraci\w+|宣传语|主张|说法|문구|주장",
    "statement": r"statements?",
    "tagline": r"taglines?|slogans?|esl[oó]gan\w*|口号|标语|슬로건",
    "name": r"names?|namen|nombres?|名称|名字|이름",
    "design": r"designs?|diseños?|设计|디자인",
    "message": r"messages?|botschaft\w*|mensajes?|信息|메시지",
    "concept": r"concepts?|konzept\w*|conceptos?|概念|콘셉트|컨셉",
    "price": r"prices?|preise?|precios?|价格|가격",
}


def _de(topic: str) -> str:
    """A topic in German quotes (German cases would otherwise need its article), unless it is quoted already."""
    return topic if topic[:1] in "\"„«“‘'" else f"„{topic}“"


def language_of(locale: str | None) -> str:
    code = (locale or DEFAULT_LANGUAGE).split("-")[0].lower()
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


def _ko_buy(topic: str) -> str:
    """ "buy <topic>" in Korean: with 을/를 after a Hangul final syllable (을 after a final consonant), else as a
    compound noun ("… 구매"), which needs no particle."""
    last = topic.rstrip(" \"'”’)")[-1:]
    if "가" <= last <= "힣":
        return f"{topic}{'을' if (ord(last) - 0xAC00) % 28 else '를'} 구매하시거나 구매하지 않으시는"
    return f"{topic} 구매를 원하시거나 원하지 않으시는"


def why_question(language: str, *, topic: str | None, price: str | None) -> str:
    """An open "why" question about the plan's topic (and its tested price), in ``language``."""
    if topic and price:
        return {
            "en": f"Why would you, or would you not, buy {topic} at {price}?",
            "de": f"Warum würden Sie {_de(topic)} für {price} kaufen – oder warum nicht?",
            "es": f"¿Por qué comprarías, o no, {topic} a {price}?",
            "zh": f"您为什么会（或不会）以{price}的价格购买{topic}？",
            "ko": f"{price}에 {_ko_buy(topic)} 이유는 무엇인가요?",
        }[language]
    if topic:
        return {
            "en": f"Why do you feel the way you do about {topic}?",
            "de": f"Warum denken Sie so über {_de(topic)}? Bitte erklären Sie es in Ihren eigenen Worten.",
            "es": f"¿Por qué piensas así sobre {topic}?",
            "zh": f"您为什么对{topic}有这样的看法？",
            "ko": f"{topic}에 대해 그렇게 생각하시는 이유는 무엇인가요?",
        }[language]
    return {
        "en": "Why did you answer the way you did? Please explain in your own words.",
        "de": "Warum haben Sie so geantwortet? Bitte erklären Sie es in Ihren eigenen Worten.",
        "es": "¿Por qué respondiste así? Explícalo con tus propias palabras.",
        "zh": "您为什么这样回答？请用自己的话说明。",
        "ko": "그렇게 답하신 이유는 무엇인가요? 자유롭게 설명해 주세요.",
    }[language]


def open_question(language: str, *, topic: str | None) -> str:
    """An open question on the plan's topic, for "add an open question" that names nothing else."""
    if topic:
        return {
            "en": f"In your own words, what do you think of {topic}?",
            "de": f"Was halten Sie von {_de(topic)}? Bitte antworten Sie in Ihren eigenen Worten.",
            "es": f"Con tus propias palabras, ¿qué opinas de {topic}?",
            "zh": f"请用自己的话说说，您如何看待{topic}？",
            "ko": f"{topic}에 대해 어떻게 생각하시는지 자유롭게 말씀해 주세요.",
        }[language]
    return about_question(language, subject=None)


def about_question(language: str, *, subject: str | None) -> str:
    """An open question about ``subject`` as the refinement named it ("add a question about delivery")."""
    if not subject:
        return {
            "en": "Is there anything else you would like to tell us?",
            "de": "Möchten Sie uns noch etwas mitteilen?",
            "es": "¿Hay algo más que quieras contarnos?",
            "zh": "您还有什么想告诉我们的吗？",
            "ko": "그 밖에 하고 싶은 말씀이 있으신가요?",
        }[language]
    return {
        "en": f"What do you think about {subject}?",
        "de": f"Was halten Sie von {_de(subject)}?",
        "es": f"¿Qué opinas sobre {subject}?",
        "zh": f"您如何看待{subject}？",
        "ko": f"{subject}에 대해 어떻게 생각하시나요?",
    }[language]


def preference_question(language: str, *, kind: str) -> str:
    en, de, es, zh, ko = KINDS[kind]
    return {
        "en": f"Which of these {en} do you prefer?",
        "de": f"Welche dieser {de} bevorzugen Sie?",
        "es": f"¿Cuál de {es} prefieres?",
        "zh": f"以下{zh}中，您更喜欢哪一个？",
        "ko": f"다음 {ko} 중 어느 것을 가장 선호하시나요?",
    }[language]


def placeholder_options(language: str, *, kind: str, count: int) -> list[str]:
    """Stand-in options ("Claim 1", …) until the requester names them through the confirmation question."""
    singular = {
        "en": {"claim": "Claim", "statement": "Claim", "tagline": "Tagline", "slogan": "Tagline", "name": "Name",
               "design": "Design", "message": "Message", "concept": "Concept", "price": "Price", "option": "Option"},
        "de": {"claim": "Aussage", "statement": "Aussage", "tagline": "Slogan", "slogan": "Slogan", "name": "Name",
               "design": "Design", "message": "Botschaft", "concept": "Konzept", "price": "Preis", "option": "Option"},
        "es": {"claim": "Afirmación", "statement": "Afirmación", "tagline": "Eslogan", "slogan": "Eslogan",
               "name": "Nombre", "design": "Diseño", "message": "Mensaje", "concept": "Concepto", "price": "Precio",
               "option": "Opción"},
        "zh": {k: v[3] for k, v in KINDS.items()},
        "ko": {k: v[4] for k, v in KINDS.items()},
    }[language][kind]  # fmt: skip
    return [f"{singular} {i}" for i in range(1, count + 1)]


def no_preference(language: str) -> str:
    return {
        "en": "No preference",
        "de": "Keine Präferenz",
        "es": "Sin preferencia",
        "zh": "没有偏好",
        "ko": "선호 없음",
    }[language]


def options_request(language: str, *, kind: str, count: int, number: int) -> str:
    """The confirmation question that asks the requester for the options of question ``number``."""
    en, de, es, zh, ko = KINDS[kind]
    return {
        "en": f"Which {count} {en} should respondents choose between in Q{number}? "
        "List them separated by semicolons or on separate lines.",
        "de": f"Zwischen welchen {count} {de} sollen die Befragten in Frage {number} wählen? "
        "Bitte nennen Sie sie durch Semikolons getrennt oder je in einer Zeile.",
        "es": f"¿Entre qué {count} opciones ({es.split(' ', 1)[1]}) deben elegir los encuestados en la pregunta "
        f"{number}? Escríbelas separadas por punto y coma o en líneas distintas.",
        "zh": f"在第{number}题中，受访者应在哪{count}个{zh}之间选择？请用分号分隔或每行写一个。",
        "ko": f"{number}번 질문에서 응답자가 고를 {ko} {count}개는 무엇인가요? "
        "세미콜론이나 줄바꿈으로 구분해 적어 주세요.",
    }[language]
