"""What an Audience brief names, read in any of the five languages: where its people live, how old they are and
what they do — and the people that fit it (names of that place, real jobs for their age).

Owns: ``read`` (a brief → ``Reading``: the place's cities, name pools, the age range and the occupations), the
lexicon of places (countries by their names and adjectives in en/de/es/zh/ko, and their largest cities; a city
named on its own is the only place), of age words ("Gen Z", "students", "retirees", "20대", "60岁以上"), of
occupation groups the brief may name ("office workers", "nurses", "Büroangestellte", "직장인", "上班族"), and
``occupation_for`` (a real job that suits an age: students and apprentices for 18–22, retirees from 67, never
"Aged enthusiast"). A brief that names no place lives where its language is spoken (an English one in the US).
Pure functions over plain data; deterministic. Must not touch state, clocks or I/O.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

DEFAULT_AGES = (18, 70)
STUDENT_AGES = (18, 22)  # a Mind this young is mostly studying or training
RETIRED_FROM = 67  # a Mind this old is retired


@dataclass(frozen=True)
class Country:
    code: str
    words: re.Pattern[str]  # how a brief names the country or its people, in the five languages
    cities: tuple[str, ...]
    first_names: tuple[str, ...]
    last_names: tuple[str, ...]


def _w(*words: str) -> re.Pattern[str]:
    latin = [w for w in words if w.isascii() or any(c in "äöüéáíóñ" for c in w)]
    other = [re.escape(w) for w in words if w not in latin]
    return re.compile("|".join([r"\b(?:" + "|".join(latin) + r")\b", *other]), re.IGNORECASE)


COUNTRIES = (
    Country(
        "DE",
        _w("germany", "german", "germans", "deutschland", "deutsche[nr]?", "alemania", "alemanes", "德国", "독일"),
        ("Berlin", "Hamburg", "Munich", "Cologne", "Frankfurt", "Stuttgart", "Leipzig", "Düsseldorf", "Dresden"),
        ("Lena", "Jonas", "Anna", "Lukas", "Sophie", "Felix", "Julia", "Maximilian", "Laura", "Tobias", "Katrin"),
        ("Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Hoffmann", "Koch"),
    ),
    Country(
        "KR",
        _w("korea", "korean", "koreans", "südkorea", "korea", "koreaner", "corea", "coreanos?", "韩国", "한국", "국내"),
        ("Seoul", "Busan", "Incheon", "Daegu", "Daejeon", "Gwangju", "Suwon", "Ulsan"),
        ("Ji-woo", "Seo-yeon", "Min-jun", "Ha-eun", "Do-yoon", "Soo-ah", "Ye-jin", "Hyun-woo", "Eun-ji", "Ji-ho"),
        ("Kim", "Lee", "Park", "Choi", "Jung", "Kang", "Cho", "Yoon"),
    ),
    Country(
        "ES",
        _w("spain", "spanish", "spaniards", "spanien", "spanier", "españa", "españoles", "西班牙", "스페인"),
        ("Madrid", "Barcelona", "Valencia", "Seville", "Zaragoza", "Málaga", "Bilbao"),
        ("Lucía", "Hugo", "Martina", "Pablo", "Sofía", "Daniel", "Carmen", "Javier", "Paula", "Alejandro"),
        ("García", "Fernández", "González", "Rodríguez", "López", "Martínez", "Sánchez", "Pérez"),
    ),
    Country(
        "CN",
        _w("china", "chinese", "chinesen", "chinos", "中国", "国内", "중국"),
        ("Shanghai", "Beijing", "Shenzhen", "Guangzhou", "Chengdu", "Hangzhou", "Wuhan"),
        ("Wei", "Fang", "Jing", "Lei", "Min", "Yang", "Xin", "Hao", "Li Na", "Jun"),
        ("Wang", "Li", "Zhang", "Liu", "Chen", "Yang", "Huang", "Zhao"),
    ),
    Country(
        "GB",
        _w(
            "uk",
            "united kingdom",
            "britain",
            "british",
            "england",
            "english adults",
            "großbritannien",
            "reino unido",
            "英国",
            "영국",
        ),
        ("London", "Manchester", "Birmingham", "Leeds", "Glasgow", "Bristol", "Liverpool"),
        ("Oliver", "Amelia", "George", "Isla", "Harry", "Emily", "Jack", "Sophie", "Thomas", "Grace"),
        ("Smith", "Jones", "Taylor", "Brown", "Williams", "Wilson", "Evans", "Davies"),
    ),
    Country(
        "NL",
        _w("netherlands", "dutch", "holland", "niederlande", "niederländer", "países bajos", "荷兰", "네덜란드"),
        ("Amsterdam", "Rotterdam", "Utrecht", "The Hague", "Eindhoven", "Groningen"),
        ("Daan", "Emma", "Sem", "Julia", "Lucas", "Tess", "Finn", "Sanne", "Bram", "Lotte"),
        ("de Jong", "Jansen", "de Vries", "van den Berg", "Bakker", "Visser", "Smit", "Meijer"),
    ),
    Country(
        "FR",
        _w("france", "french", "frankreich", "franzosen", "francia", "franceses", "法国", "프랑스"),
        ("Paris", "Lyon", "Marseille", "Toulouse", "Lille", "Bordeaux", "Nantes"),
        ("Camille", "Louis", "Léa", "Hugo", "Manon", "Gabriel", "Chloé", "Lucas", "Inès", "Jules"),
        ("Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand"),
    ),
    Country(
        "JP",
        _w("japan", "japanese", "japaner", "japón", "japoneses", "日本", "일본"),
        ("Tokyo", "Osaka", "Yokohama", "Nagoya", "Sapporo", "Fukuoka", "Kyoto"),
        ("Haruto", "Yui", "Sota", "Hina", "Ren", "Aoi", "Yuto", "Sakura", "Daiki", "Mei"),
        ("Sato", "Suzuki", "Takahashi", "Tanaka", "Watanabe", "Ito", "Yamamoto", "Nakamura"),
    ),
    Country(
        "US",
        _w(
            "u\\.s\\.a?",
            "usa",
            "united states",
            "america",
            "american",
            "americans",
            "amerikaner",
            "estados unidos",
            "estadounidenses",
            "美国",
            "미국",
        ),
        ("New York", "Chicago", "Los Angeles", "Houston", "Atlanta", "Denver", "Seattle", "Boston", "Dallas"),
        ("Emily", "Michael", "Jessica", "David", "Ashley", "James", "Sarah", "Robert", "Priya", "Marcus"),
        ("Johnson", "Miller", "Davis", "Garcia", "Wilson", "Thompson", "Martinez", "Patel", "Brown"),
    ),
    Country(
        "AT",
        _w("austria", "austrian", "österreich", "österreicher", "奥地利", "오스트리아"),
        ("Vienna", "Graz", "Linz", "Salzburg", "Innsbruck"),
        ("Lukas", "Anna", "David", "Lena", "Tobias", "Sarah", "Florian", "Julia"),
        ("Gruber", "Huber", "Bauer", "Wagner", "Pichler", "Steiner", "Moser"),
    ),
    Country(
        "PT",
        _w("portugal", "portuguese", "portugiesen", "portugueses", "葡萄牙", "포르투갈"),
        ("Lisbon", "Porto", "Braga", "Coimbra", "Faro"),
        ("Beatriz", "João", "Inês", "Tiago", "Mariana", "Rui", "Ana", "Diogo"),
        ("Silva", "Santos", "Ferreira", "Pereira", "Oliveira", "Costa"),
    ),
)
_BY_CODE = {c.code: c for c in COUNTRIES}
# A city a brief may name on its own: that city is then the only place (with the names of its country).
CITIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "Seoul": ("KR", ("seoul", "서울", "首尔")),
    "Busan": ("KR", ("busan", "부산", "釜山")),
    "Berlin": ("DE", ("berlin", "柏林", "베를린")),
    "Munich": ("DE", ("munich", "münchen", "múnich", "慕尼黑", "뮌헨")),
    "Hamburg": ("DE", ("hamburg", "hamburgo", "汉堡", "함부르크")),
    "Madrid": ("ES", ("madrid", "马德里", "마드리드")),
    "Barcelona": ("ES", ("barcelona", "巴塞罗那", "바르셀로나")),
    "Shanghai": ("CN", ("shanghai", "上海", "상하이")),
    "Beijing": ("CN", ("beijing", "peking", "pekín", "北京", "베이징")),
    "London": ("GB", ("london", "londres", "伦敦", "런던")),
    "Amsterdam": ("NL", ("amsterdam", "ámsterdam", "阿姆斯特丹", "암스테르담")),
    "Paris": ("FR", ("paris", "parís", "巴黎", "파리")),
    "Tokyo": ("JP", ("tokyo", "tokio", "东京", "도쿄")),
    "New York": ("US", ("new york", "nueva york", "纽约", "뉴욕")),
    "Chicago": ("US", ("chicago", "芝加哥", "시카고")),
    "Vienna": ("AT", ("vienna", "wien", "viena", "维也纳", "빈")),
    "Lisbon": ("PT", ("lisbon", "lissabon", "lisboa", "里斯本", "리스본")),
}
_HOME = {"de": "DE", "es": "ES", "zh": "CN", "ko": "KR", "en": "US"}

# occupation groups a brief may name → real jobs of that group
_GROUPS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (
        _w(
            "students?", "studierende", "studenten", "estudiantes", "universitarios", "大学生", "学生", "대학생", "학생"
        ),
        ("University student", "Graduate student", "Vocational student", "Design student", "Engineering student"),
    ),
    (
        _w("retirees?", "retired", "pensioners?", "rentner(?:innen)?", "jubilados", "退休", "은퇴"),
        ("Retired teacher", "Retired engineer", "Retired nurse", "Retired shop owner", "Retired civil servant"),
    ),
    (
        _w(
            "office workers?",
            "white-collar",
            "büroangestellte[nr]?",
            "angestellte[nr]?",
            "oficinistas?",
            "empleados de oficina",
            "上班族",
            "白领",
            "직장인",
            "회사원",
        ),
        (
            "Office worker",
            "Accountant",
            "Marketing coordinator",
            "HR specialist",
            "Sales manager",
            "Project manager",
            "Customer service representative",
            "Financial analyst",
        ),
    ),
    (
        _w("nurses?", "pflegekräfte", "krankenpfleger", "enfermer[oa]s?", "护士", "간호사"),
        ("Nurse", "Intensive care nurse", "Pediatric nurse", "Nursing assistant"),
    ),
    (
        _w("teachers?", "lehrer(?:innen)?", "profesores?", "maestr[oa]s?", "教师", "老师", "교사", "선생님"),
        ("Primary school teacher", "Secondary school teacher", "Teaching assistant", "Music teacher"),
    ),
    (
        _w(
            "developers?",
            "engineers?",
            "programmers?",
            "entwickler(?:innen)?",
            "ingenieur(?:e|innen)?",
            "desarrolladores",
            "ingenieros",
            "程序员",
            "工程师",
            "개발자",
            "엔지니어",
        ),
        ("Software developer", "Data engineer", "DevOps engineer", "QA engineer", "Mechanical engineer"),
    ),
    (
        _w(
            "parents?",
            "mothers?",
            "fathers?",
            "moms?",
            "dads?",
            "eltern",
            "mütter",
            "väter",
            "padres",
            "madres",
            "父母",
            "妈妈",
            "부모",
            "엄마",
        ),
        ("Office worker", "Nurse", "Teacher", "Sales assistant", "Accountant", "Electrician", "Stay-at-home parent"),
    ),
    (
        _w(
            "cafe owners?",
            "café owners?",
            "shop owners?",
            "small business owners?",
            "restaurant owners?",
            "inhaber(?:innen)?",
            "dueños",
            "店主",
            "사장님",
            "자영업자",
        ),
        ("Café owner", "Shop owner", "Restaurant owner", "Bakery owner", "Boutique owner"),
    ),
    (
        _w("procurement", "purchasing", "einkäufer(?:innen)?", "compras", "采购", "구매 담당"),
        ("Procurement manager", "Purchasing agent", "Sourcing specialist", "Vendor manager"),
    ),
    (
        _w("cyclists?", "commuters?", "pendler(?:innen)?", "radfahrer(?:innen)?", "ciclistas", "通勤", "자전거"),
        ("Office worker", "Software developer", "Nurse", "Teacher", "Architect", "Student", "Designer"),
    ),
)
WORKING = (
    "Office worker",
    "Nurse",
    "Teacher",
    "Software developer",
    "Electrician",
    "Accountant",
    "Sales assistant",
    "Marketing manager",
    "Mechanic",
    "Pharmacist",
    "Graphic designer",
    "Civil servant",
    "Chef",
    "Logistics coordinator",
    "Physiotherapist",
    "Bank clerk",
)
YOUNG = ("University student", "Apprentice", "Vocational student", "Part-time retail assistant", "Trainee")
RETIRED = ("Retired teacher", "Retired engineer", "Retired nurse", "Retired shop owner", "Retired civil servant")
_STUDENT_WORDS = re.compile(r"student|apprentice|trainee|vocational|azubi", re.IGNORECASE)

# age words → (youngest, oldest)
_AGE_WORDS = (
    (_w("gen z", "generation z", "zoomers?", "z세대", "z世代"), (18, 28)),
    (_w("millennials?", "generation y", "gen y", "밀레니얼", "千禧"), (29, 44)),
    (
        _w(
            "students?", "studierende", "studenten", "estudiantes", "universitarios", "大学生", "学生", "대학생", "학생"
        ),
        (18, 26),
    ),
    (
        _w(
            "retirees?",
            "retired",
            "pensioners?",
            "seniors?",
            "rentner(?:innen)?",
            "senioren",
            "jubilados",
            "mayores",
            "退休",
            "老年人",
            "은퇴",
            "노인",
            "시니어",
        ),
        (67, 85),
    ),
    (_w("teens?", "teenagers?", "jugendliche", "adolescentes", "青少年", "청소년"), (16, 19)),
    (_w("adults?", "erwachsene", "adultos", "成年人", "성인"), (18, 75)),
)
_AGE_RANGES = (
    re.compile(r"(?<!\d)(?P<lo>\d{2})\s*(?:-|–|—|~|to|bis|a|y|and|und|到|至)\s*(?P<hi>\d{2})(?!\d)", re.I),
    re.compile(r"(?:between|zwischen|entre)\s+(?P<lo>\d{2})\s+(?:and|und|y)\s+(?P<hi>\d{2})", re.I),
)
_AGE_ABOVE = re.compile(
    r"\b(?:over|above|older than|über|ab|mayores de|más de)\s+(?P<n>\d{2})(?!\d)"
    r"|(?<!\d)(?P<m>\d{2})\s*(?:\+|岁以上|세 이상|세이상)",
    re.I,
)
_AGE_BELOW = re.compile(
    r"\b(?:under|below|younger than|unter|menores de)\s+(?P<n>\d{2})(?!\d)"
    r"|(?<!\d)(?P<m>\d{2})\s*(?:岁以下|세 이하|세 미만|세이하)",
    re.I,
)
_DECADE = re.compile(r"(?<!\d)(?P<n>[1-9]0)\s*(?:대|多岁|s\b)")
WORKING_AGES = (23, 62)  # a brief that names jobs but no ages


@dataclass(frozen=True)
class Reading:
    cities: tuple[str, ...]
    first_names: tuple[str, ...]
    last_names: tuple[str, ...]
    ages: tuple[int, int]
    occupations: tuple[str, ...] | None  # the jobs the brief names (None: any real job for the age)


def read(brief: str, *, language: str = "en") -> Reading:
    """What a brief names: its place (a city named on its own, else a country's cities, else where its language
    is spoken), its ages and the occupations it names."""
    lowered = brief.lower()
    city = next((name for name, (_code, words) in CITIES.items() if any(_named(w, lowered) for w in words)), None)
    country = next((c for c in COUNTRIES if c.words.search(brief)), None)
    if country is None and re.search(r"\bUS\b", brief):  # "US" in capitals; "us" is a word
        country = _BY_CODE["US"]
    if city is not None:
        home = _BY_CODE[CITIES[city][0]]
        cities: tuple[str, ...] = (city,)
    else:
        home = country or _BY_CODE[_HOME.get(language, "US")]
        cities = home.cities
    groups = [jobs for pattern, jobs in _GROUPS if pattern.search(brief)]
    occupations = tuple(dict.fromkeys(j for jobs in groups for j in jobs)) or None
    ages = ages_of(brief)
    if occupations and ages == DEFAULT_AGES:
        ages = WORKING_AGES
    return Reading(cities, home.first_names, home.last_names, ages, occupations)


def _named(word: str, lowered: str) -> bool:
    if word.isascii() or any(c in "äöüéáíóñ" for c in word):
        return re.search(rf"\b{re.escape(word)}\b", lowered) is not None
    return word in lowered


def ages_of(brief: str) -> tuple[int, int]:
    """The age range a brief names ("aged 25-40", "zwischen 30 und 45", "60세 이상", "20대", "Gen Z",
    "retirees"), else ``DEFAULT_AGES``."""
    for pattern in _AGE_RANGES:
        if match := pattern.search(brief):
            low, high = sorted((int(match["lo"]), int(match["hi"])))
            if 10 <= low < high <= 99:
                return low, high
    if match := _AGE_ABOVE.search(brief):
        return int(match["n"] or match["m"]), 85
    if match := _AGE_BELOW.search(brief):
        return 18, max(19, int(match["n"] or match["m"]) - 1)
    if match := _DECADE.search(brief):
        return int(match["n"]), int(match["n"]) + 9
    return next((ages for pattern, ages in _AGE_WORDS if pattern.search(brief)), DEFAULT_AGES)


def suits(occupation: str, age: int) -> bool:
    """Whether a job is plausible at an age: studying or training from 16 to 35, retired from 60, any other job
    from 16 (a barista at 17) to 70."""
    if _STUDENT_WORDS.search(occupation):
        return 16 <= age <= 35
    if occupation.lower().startswith("retired"):
        return age >= 60
    return 16 <= age <= 70


def occupation_for(age: int, named: tuple[str, ...] | None, rng: random.Random) -> str:
    """A real job for a Mind of this age: one the brief names when it suits the age; students and apprentices
    at 18–22, retirees from 67, else a working-age job."""
    fitting = [o for o in named or () if suits(o, age)]
    if fitting:
        return rng.choice(fitting)
    if age <= STUDENT_AGES[1]:
        return rng.choice(YOUNG)
    if age >= RETIRED_FROM:
        return rng.choice(RETIRED)
    return rng.choice(WORKING)
