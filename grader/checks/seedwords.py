"""The words and numbers of per-seed figures: which split, seed, step or model a word names.

Why a module of its own: the sentences, the tables and the pairing of lab B's per-seed
claims (`grader.checks.seedclaims`) must agree on what "val", "seed 2", "1.2k steps" or
"85.3%" mean; one vocabulary here keeps a table header and a sentence from reading the
same word two ways. A number gets its role (seed, step, epoch, accuracy) from the words
around it before anything is paired, so a seed index is never read as an accuracy. A
report in French or Spanish says "graine 1" or "semilla 1" and "au pas 1200" or "en el
paso 1200": the words of the languages students write in are one table here
(``OTHER_LANGUAGES``), read only next to a number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

OTHER_LANGUAGES: dict[str, dict[str, tuple[str, ...]]] = {
    # language: {"seed" | "seeds" | "step" | "steps" | "and": its words}
    "French": {"seed": ("graine",), "seeds": ("graines",), "step": ("pas", "étape"),
               "steps": ("pas", "étapes"), "and": ("et",)},
    "Spanish": {"seed": ("semilla",), "seeds": ("semillas",), "step": ("paso",),
                "steps": ("pasos",), "and": ("y",)},
    "Portuguese": {"seed": ("semente",), "seeds": ("sementes",), "step": ("passo",),
                   "steps": ("passos",), "and": ("e",)},
    "Italian": {"seed": ("seme",), "step": ("passo",), "steps": ("passi",), "and": ("e",)},
    "German": {"step": ("schritt",), "steps": ("schritte", "schritten"), "and": ("und",)},
    "Dutch": {"step": ("stap",), "steps": ("stappen",), "and": ("en",)},
    "Norwegian, Danish, Swedish": {"seed": ("frø", "frö"), "step": ("steg", "steget", "trin"),
                                   "steps": ("steg", "trin"), "and": ("og", "och")},
    "Polish": {"seed": ("ziarno",), "step": ("krok", "kroku"), "steps": ("kroków", "kroki"),
               "and": ("i",)},
    "Turkish": {"step": ("adım",), "steps": ("adım",), "and": ("ve",)},
    "Indonesian": {"step": ("langkah",), "steps": ("langkah",), "and": ("dan",)},
    "Russian": {"seed": ("сид",), "step": ("шаг", "шаге", "шага"), "steps": ("шагов", "шага"),
                "and": ("и",)},
    "Vietnamese": {"seed": ("hạt giống",), "step": ("bước",), "steps": ("bước",),
                   "and": ("và",)},
    "Hindi": {"seed": ("बीज",), "step": ("चरण",), "steps": ("चरण",)},
    "Georgian": {"step": ("ნაბიჯი", "ნაბიჯზე"), "steps": ("ნაბიჯი",)},
    "Chinese": {"seed": ("种子", "種子"), "step": ("步",), "steps": ("步",)},
    "Japanese": {"seed": ("シード",), "step": ("ステップ",), "steps": ("ステップ",)},
    "Korean": {"seed": ("시드",), "step": ("스텝",), "steps": ("스텝",)},
    "Romanian": {"seed": ("sămânța", "sămânță", "samanta"), "step": ("pas", "pasul"),
                 "steps": ("pași", "pasi", "de pași", "de pasi"), "and": ("și",)},
    "Czech, Slovak": {"seed": ("semínko", "semienko"), "step": ("krok", "kroku"),
                      "steps": ("kroků", "krokov", "kroky"), "and": ("a",)},
    "Hungarian": {"step": ("lépés", "lépésnél", "lépésben"), "steps": ("lépés", "lépésnél"),
                  "and": ("és",)},
    "Finnish, Estonian": {"seed": ("siemen", "siemenellä", "seeme"),
                          "step": ("askel", "askeleella", "askeleessa", "samm"),
                          "steps": ("askelta", "askeleen", "sammu"), "and": ("ja",)},
    "Ukrainian, Bulgarian": {"seed": ("сід",), "step": ("крок", "кроці", "стъпка"),
                             "steps": ("кроків", "кроки", "стъпки"), "and": ("і", "та")},
    "Serbian, Croatian, Slovenian": {"step": ("korak", "koraku"),
                                     "steps": ("koraka", "korakov"), "and": ("i",)},
    "Greek": {"step": ("βήμα",), "steps": ("βήματα",), "and": ("και",)},
    "Thai": {"step": ("ขั้นตอนที่", "สเต็ป"), "steps": ("ขั้นตอน", "สเต็ป")},
    "Tagalog": {"step": ("hakbang",), "steps": ("hakbang",)},  # "at" is English too
    "Arabic": {"step": ("الخطوة", "خطوة"), "steps": ("خطوة", "خطوات")},
    "Persian": {"step": ("گام",), "steps": ("گام",)},
    "Hebrew": {"step": ("צעד",), "steps": ("צעדים",)},
    "Swahili": {"step": ("hatua",), "steps": ("hatua",)},
}
"""The words for a seed and a step in the languages students write in, besides English's
(German, Dutch and others say "Seed" too). Each counts only right before (a step, a seed)
or right after (steps) a number, never alone: French "pas" is also "not", Italian "seme"
a seed of any plant, so "ne dépasse pas 0.86" holds no step (an accuracy is no step)
and "la graine" with no number is no seed. Where one language inflects the word, each
form used next to a number is listed ("на шаге 1200", "1200 шагов"). "And" joins the
last two of a list of seeds or figures ("graines 1, 2 et 3"), only between numbers."""


def _words(kind: str) -> str:
    """The words of `kind` of every language, longest first, as one alternation; a word
    of an alphabet is whole (no letter touches it: "dépasse" holds no "pas"), one of the
    scripts written without spaces ("第1200步") is not."""
    words = sorted({w for lang in OTHER_LANGUAGES.values() for w in lang.get(kind, ())},
                   key=len, reverse=True)
    return "|".join(re.escape(w) if ord(w[0]) >= 0x3000  # Chinese, Japanese, Korean
                    else rf"(?<![^\W\d_]){re.escape(w)}(?![^\W\d_])" for w in words)


SEED_WORDS, SEEDS_WORDS, STEP_WORDS, STEPS_WORDS, AND_WORDS = (_words(k) for k in (
    "seed", "seeds", "step", "steps", "and"))
VAL = (r"val(?:id(?:ation|ación|ação|azione|ierung|atie|ering|ointi|ace|are|asi|ácia|acija"
       r"|ácie|áció|ációs)?)?|walidac(?:ja|ji|yjn\w*)|валидац\w*|валідац\w*|dev(?:elopment)?"
       r"|eval(?:uation)?")
""""Validation" as students abbreviate it, in English and in the languages they write in
(Dutch "validatie", Swedish "validering", Finnish "validointi", Czech "validace", Romanian
"validare", Indonesian "validasi", Polish "walidacja", Russian and Ukrainian): a table's
"Beste validatie" column is the best validation accuracy."""
TEST = r"test(?:ing|e|i|u|en|ovací|owa|owy)?|тест\w*"
KEYWORD = re.compile(rf"(?<![a-z])(?:(?P<val>{VAL})|(?P<test>{TEST})|"
                     r"(?P<train>train(?:ing)?(?=[\s_-]*(?:acc|set|split|loss))))(?![a-z])",
                     re.IGNORECASE)
WEAK_VAL = re.compile(r"\b(?:best|peaks?|peaked|highest|max(?:imum)?|reach(?:es|ed)?)\b",
                      re.IGNORECASE)
TRAIL = re.compile(rf"\s*\)?\s*(?:\(\s*)?(?:(?:on|in|for|at|of)\s+(?:the\s+)?)?"
                   rf"(?:held[- ]out\s+)?(?:(?P<val>{VAL})|(?P<test>{TEST}))(?![a-z])",
                   re.IGNORECASE)
CHAIN = re.compile(r"^\s*(?:acc\w*|set|split)?\s*(?:,|and|&|/|or)\s*(?:the\s+)?$", re.IGNORECASE)
SEED = re.compile(rf"(?:(?<![a-z])seed(?P<many>s)?|(?P<several>{SEEDS_WORDS})|{SEED_WORDS}"
                  r"|(?<![\w.])(?-i:s)(?=\d{1,2}\b))"
                  r"[\s_#:=-]*(?:no\.?\s*|n[°º]\s*|number\s*|of\s+)?"
                  r"(?P<n>\d+)(?![\d.]*\d)", re.IGNORECASE)
"""A seed as a number's word names it ("seed 2", "seeds 1-3", "graine 2"), or as a
student's shorthand glued to it, a lower-case "s" ("pretrained s2: val 0.851", a phone's
notes or an OCR'd screenshot): "S1" is a supplementary figure's name, "5s" a time, and
"s12345" no seed (one or two digits)."""
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "1st": 1, "2nd": 2,
            "3rd": 3, "4th": 4, "5th": 5, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
ORDINAL_SEED = re.compile(r"(?<![a-z])(?:(?P<before>first|second|third|fourth|fifth|1st|2nd"
                          r"|3rd|4th|5th)\s+seed|seed\s+(?:number\s+)?(?P<after>one|two|three"
                          r"|four|five))(?![a-z])", re.IGNORECASE)
"""A seed named in words: "the second seed", "seed two" (seed 2)."""
GENERIC_SEED = re.compile(r"(?<![a-z])(?:(?:one|every|each|all|any|some|per|across|both|"
                          r"several|other|different|most)\s+(?:of\s+the\s+|the\s+)?"
                          r"(?:\w+\s+)?seeds?)(?![a-z])", re.IGNORECASE)
"""Seeds spoken of together or unnamed ("for one seed", "on every seed", "across seeds"):
figures of such a sentence are no claim about the seed named before it."""
STEP_BEFORE = re.compile(r"(?:(?<![a-z])(?:global[\s_]+)?(?:step|iteration|iter|update)s?"
                         rf"|{STEP_WORDS}|{STEPS_WORDS})[\s_#:=]*(?:no\.?\s*|n[°º]\s*|number\s*)?$",
                         re.IGNORECASE)
STEP_AFTER = re.compile(r"^\s*(?:(?:training\s+)?(?:steps|iterations|iters|updates)\b"
                        rf"|(?:{STEPS_WORDS}))", re.IGNORECASE)
DURATION = re.compile(r"(?<![a-z])(?:every|for|with|of|over|from|in)\s+(?:(?:a\s+)?total\s+of\s+|"
                      r"about\s+|around\s+|~\s*|only\s+|just\s+)?$", re.IGNORECASE)
"""Words before "N steps" that make it a length of training or an interval ("trained for
2k steps", "with 2k steps", "evaluated every 200 steps", "learn the task from 2k steps of
labelled data", "in 2000 steps"), not the step of the best
validation figure: read as a step, it is a claim the logs contradict."""
PER_RUN = re.compile(r"^\s*(?:training\s+)?(?:steps|iterations|iters|updates)\s+(?:per|each|a|in\s+"
                     r"total|of\s+training|total)\b", re.IGNORECASE)
"""Words after "N steps" that make it the length of every run ("2000 steps per run", "2k
steps in total"), as a slide's notes line glued to the last seed's line says it: no
step of a best validation figure."""
AT_STEP = re.compile(r"@\s*$")
"""A whole number after "@" is a step ("val 0.851 @ 1400"), unless epochs follow."""
SPACED_STEP = re.compile(r"(?<![\w.,])\d{1,2}(?: \d{3})+(?!\w|[.,]\d|\s*%)")
"""A step grouped by plain spaces ("step 1 400", "12 000 steps"): read whole, where a step
word stands before or after it, never as step 1 and a stray 400."""
GROUPING = str.maketrans("", "", ",\u00a0\u2009\u202f ")
ORDINAL_STEP = re.compile(r"^\s*(?:training\s+)?(?:step|iteration|update)\b", re.IGNORECASE)
EPOCH = re.compile(r"(?<![a-z])epochs?[\s#:=]*$|^\s*epochs?\b", re.IGNORECASE)
NUM = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d{1,3}(?:[\u00a0\u2009\u202f]\d{3})+|\d+)"
                 r"(\.\d+)?(?:\s*(k)(?![a-z]))?"
                 r"(\s*(?:%|percent\b|per\s+cent\b))?((?<=\d)(?:st|nd|rd|th)(?![a-z]))?"
                 r"(?![\w])(?!\.\d)", re.IGNORECASE)
AVERAGE = re.compile(r"\b(?:average|averaged|mean|median|std|standard deviation|"
                     r"across (?:all|the) (?:three |3 )?seeds|over (?:all|the) seeds)\b",
                     re.IGNORECASE)
FIELDS = ("best_validation", "step", "test")
"""What a claim holds besides its seed and model: the three figures T3/T4 ask for."""


BINDS = re.compile(r"^[\s,()-]*(?:(?:from|with|starting|on|a|an|the|randomly|random|"
                   r"initiali[sz]ed|weights|model|models|once|and|then|when|after|being|"
                   r"trained|also)[\s,()-]+)*$", re.IGNORECASE)
"""Words that may stand between "fine-tuned" and a family word of the same phrase
("fine-tuned from scratch", "the scratch model, once fine-tuned")."""


MODEL_WORDS: dict[str, tuple[str, ...]] = {
    "notpretrain": ("не предобучен", "без предобучения", "без предварительного обучения",
                    "nicht vortrainiert", "ohne vortraining", "non pré-entraîné",
                    "sans pré-entraînement", "sans préentraînement", "no preentrenado",
                    "sin preentrenamiento", "non pre-addestrat", "senza pre-addestramento",
                    "não pré-treinado", "sem pré-treino", "ön eğitimsiz",
                    "بدون تدريب مسبق", "未预训练", "无预训练", "未經預訓練",
                    "事前学習なし", "사전 학습 없이", "tanpa pra-pelatihan", "tanpa prapelatihan",
                    "tanpa pra-latih", "tidak dilatih sebelumnya", "niet voorgetraind",
                    "zonder voortraining", "zonder pre-training", "bez wstępnego trenowania",
                    "bez pretrenowania", "nie wstępnie wytrenowan", "niepretrenowan", "không huấn luyện trước",
                    "không tiền huấn luyện", "chưa huấn luyện trước",
                    "बिना पूर्व-प्रशिक्षण", "बिना पूर्व प्रशिक्षण", "बिना प्री-ट्रेनिंग",
                    "ikke forhåndstren", "ikke fortrænet", "inte förtränad"),
    "withoutpretrain": ("без предобучения", "без предварительного обучения", "ohne vortraining",
                        "sans pré-entraînement", "sin preentrenamiento",
                        "senza pre-addestramento", "sem pré-treino", "ön eğitimsiz",
                        "بدون تدريب مسبق", "无预训练", "事前学習なし", "사전 학습 없이",
                        "tanpa pra-pelatihan", "tanpa prapelatihan", "zonder voortraining",
                        "zonder pre-training", "bez wstępnego trenowania", "bez pretrenowania",
                        "không tiền huấn luyện", "बिना पूर्व-प्रशिक्षण", "बिना प्री-ट्रेनिंग"),
    "pretrain": ("предобучен", "предварительно обучен", "vortrainiert", "pré-entraîné",
                 "préentraîné", "pré-entrainé", "préentrainé", "preentrenad", "pre-entrenad",
                 "pre-addestrat", "preaddestrat", "pré-treinad", "pre-treinad",
                 "önceden eğitilmiş", "ön eğitimli", "مسبق", "预训练", "預訓練",
                 "事前学習", "事前訓練", "学習済み", "사전 학습", "사전학습", "사전 훈련",
                 "pra-latih", "pralatih", "dilatih sebelumnya", "hasil pra-pelatihan",
                 "hasil prapelatihan", "voorgetraind", "wstępnie wytrenowan",
                 "wstępnie trenowan", "pretrenowan", "tiền huấn luyện", "huấn luyện trước",
                 "पूर्व-प्रशिक्षित", "पूर्व प्रशिक्षित", "प्री-ट्रेन्ड", "forhåndstrent",
                 "forhåndstren", "fortrænet", "förtränad", "förtränat"),
    "scratch": ("с нуля", "von grund auf", "von null auf", "de zéro", "à partir de zéro",
                "desde cero", "da zero", "do zero", "sıfırdan", "من الصفر", "从头", "從頭",
                "从零", "スクラッチ", "ゼロから", "처음부터", "스크래치", "dilatih dari awal",
                "dari nol", "vanaf nul", "vanaf het begin getraind", "od zera",
                "huấn luyện từ đầu", "từ con số 0", "शुरू से", "स्क्रैच", "fra bunnen",
                "fra grunnen", "fra scratch", "från grunden", "fra grunden"),
    "random": ("случайно инициализирован", "случайной инициализаци", "zufällig initialisiert",
               "initialisé aléatoirement", "initialisation aléatoire",
               "inicializado aleatoriamente", "inicialización aleatoria",
               "inizializzato casualmente", "inizializzazione casuale",
               "inicializado aleatoriamente", "rastgele başlatılmış", "تهيئة عشوائية",
               "随机初始化", "隨機初始化", "ランダム初期化", "무작위 초기화", "랜덤 초기화",
               "inisialisasi acak", "diinisialisasi acak", "diinisialisasi secara acak",
               "willekeurig geïnitialiseerd", "willekeurige initialisatie",
               "losowo zainicjalizowan", "losowej inicjalizacji", "losowa inicjalizacja",
               "khởi tạo ngẫu nhiên", "यादृच्छिक रूप से आरंभ", "रैंडम इनिशियलाइज"),
    "finetun": ("дообучен", "feinabgestimmt", "feingetunt", "affiné", "微调", "微調",
                "ファインチューニング", "미세 조정", "disetel halus", "fijnafgestemd",
                "dostrojon", "tinh chỉnh", "फाइन-ट्यून"),
}
"""The models' names in the languages students write in, under the English stem they
translate (letters only, lower case: "pre-trained" -> "pretrain"). A pack names its
families in English ("pretrained", "not pre-trained", "randomly initiali", "fine-tuned");
a family word that starts with a stem also names its family by that stem's words, so a
Russian report's "предобученная модель" or an Arabic "المدرب مسبقا" is the pack's
"pretrained" and "с нуля" its "scratch", with no word per pack. A "not"/"without" stem
is looked up before the plain one, so a negated name is never the pre-trained model
("без предобучения" holds "предобучен", and the longer name wins as "not pre-trained"
does). Arabic is written without its short vowels and with a bare alef (as the claim
reader folds it)."""


def _in_other_languages(words: dict[str, list[str]]) -> dict[str, list[str]]:
    """Per family, the ``MODEL_WORDS`` its own words stand for (none it has already)."""
    out: dict[str, list[str]] = {}
    for name, ws in words.items():
        extra: list[str] = []
        for w in ws:
            key = re.sub(r"[^a-z]", "", w.lower())
            stem = next((k for k in MODEL_WORDS if key.startswith(k)), None)
            if stem is not None:
                extra += [t for t in MODEL_WORDS[stem] if t not in ws and t not in extra]
        if extra:
            out[name] = extra
    return out


@dataclass
class Families:
    """Which model a text names: `words` per family; a `fallback` word ("fine-tuned",
    the pre-trained model in the labs) counts unless it is in one phrase with another
    family's word ("the model fine-tuned from scratch"). A family is also named by the
    words of other languages its words translate to (``MODEL_WORDS``)."""

    words: dict[str, list[str]]
    fallback: dict[str, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._words = {name: list(ws) + _in_other_languages({name: ws}).get(name, [])
                       for name, ws in self.words.items()}
        self._fallback = {name: list(ws) + _in_other_languages({name: ws}).get(name, [])
                          for name, ws in self.fallback.items()}

    def mentions(self, text: str) -> list[tuple[int, str]]:
        """(offset, family) of each mention, in order; a word inside a longer word of
        another family ("pre-trained" in "not pre-trained") is that family's."""
        low = text.lower()
        spans = _spans(low, self._words)
        kept = [(s, e, n) for s, e, n in spans
                if not any(s2 <= s and e <= e2 and e2 - s2 > e - s and n2 != n
                           for s2, e2, n2 in spans)]
        for s, e, n in _spans(low, self._fallback):
            bound = any(n2 != n and (BINDS.match(low[e:s2]) if s2 >= e else
                                     BINDS.match(low[e2:s]) if e2 <= s else True)
                        for s2, e2, n2 in kept)
            if not bound:
                kept.append((s, e, n))
        return sorted((s, n) for s, _e, n in kept)

    def first(self, text: str) -> str | None:
        found = self.mentions(text)
        return found[0][1] if found else None

    def with_abbreviations(self, text: str) -> Families:
        """These families, each also named by the short names ``text`` defines for it
        ("(PT = pre-trained RoBERTa, Scratch = same architecture randomly initialised)"
        over a table whose columns read "PT best val", "PT step"): a student's legend
        names the model the table's columns then abbreviate."""
        extra: dict[str, list[str]] = {}
        for short, meaning in _definitions(text):
            named = self.first(meaning)
            if named is not None and self.first(short) is None:
                extra.setdefault(named, []).append(short.lower())
        if not extra:
            return self
        return Families({n: [*ws, *extra.get(n, [])] for n, ws in self.words.items()},
                        self.fallback)


ABBREVIATION_CHARS = 5
"""The longest short name a legend defines ("PT", "FT", "SCR")."""


def _definitions(text: str) -> list[tuple[str, str]]:
    """(short name, meaning) of each "X = meaning" whose X is a short capitalised word
    alone after a bracket, a comma or a line's start; the meaning runs to the next comma,
    semicolon or bracket."""
    out = []
    at = text.find("=")
    while at >= 0:
        head = text[:at].rstrip()
        short = head[len(head.rstrip("".join(ch for ch in head[-ABBREVIATION_CHARS - 1:]
                                             if ch.isalpha()))):] if head else ""
        before = head[:len(head) - len(short)].rstrip()
        tail = text[at + 1:at + 80]
        end = min((k for k in (tail.find(c) for c in ",;)\n") if k >= 0), default=len(tail))
        if 0 < len(short) <= ABBREVIATION_CHARS and short[:1].isupper() \
                and (not before or before[-1] in "(,;\n"):
            out.append((short, tail[:end]))
        at = text.find("=", at + 1)
    return out


def _spans(low: str, words: dict[str, list[str]]) -> list[tuple[int, int, str]]:
    out = []
    for name, ws in words.items():
        for w in ws:
            # a short name ("pt") is a word of its own, not the start of one
            ends = "(?![a-z])" if len(w) <= ABBREVIATION_CHARS else ""
            for m in re.finditer(rf"(?<![a-z]){re.escape(w.lower())}{ends}", low):
                out.append((m.start(), m.end(), name))
    return out


RANGE_DASHES = "–—-"
"""What joins the ends of a range ("1200–1600", "1200-1600")."""


def _in_range(text: str, start: int, end: int) -> bool:
    """Whether a whole number is an end of a range of whole numbers ("steps 1200–1600")."""
    after, before = text[end:end + 2], text[max(0, start - 2):start]
    return (after[:1] in RANGE_DASHES and after[1:2].isdigit()) or (
        before[-1:] in RANGE_DASHES and before[:1].isdigit())


@dataclass
class Number:
    """A number of a sentence, where it is, its value (an accuracy as a fraction) and
    what the words around it make it."""

    start: int
    end: int
    value: float
    role: str  # seed | seeds | step | epoch | acc | other


def _comma_decimals(text: str, at: int) -> str:
    """The digits after a decimal comma that ends a "0" at ``at`` ("0,84", "0,7"), where
    they are not a group of three (which NUM reads as "0,853"); "" when there are none."""
    if text[at:at + 1] != ",":
        return ""
    digits = ""
    for ch in text[at + 1:]:
        if not ch.isdigit():
            break
        digits += ch
    rest = text[at + 1 + len(digits):at + 2 + len(digits)]
    return digits if 0 < len(digits) != 3 and rest != "," else ""


def _dot_grouped(whole: str, frac: str | None, kilo: str | None, pct: str | None) -> bool:
    """Whether a number is a whole one grouped by a dot, as languages with a decimal comma
    write it ("1.200"): one to three digits, a dot, three digits, nothing more."""
    return frac is not None and len(frac) == 4 and whole.isdigit() and len(whole) <= 3 \
        and not kilo and not pct


def read_numbers(text: str) -> list[Number]:
    """Every number of a sentence with its role; accuracies as fractions."""
    seeds = {m.start("n"): m for m in SEED.finditer(text)}
    spaced = {m.start(): m.end() for m in SPACED_STEP.finditer(text)
              if STEP_BEFORE.search(text[max(0, m.start() - 40):m.start()])
              or STEP_AFTER.match(text[m.end():m.end() + 30])}
    out: list[Number] = []
    for m in NUM.finditer(text):
        if out and m.start() < out[-1].end:
            continue  # the rest of a step grouped by spaces
        if m.start() in spaced:
            out.append(Number(m.start(), spaced[m.start()],
                              float(text[m.start():spaced[m.start()]].translate(GROUPING)),
                              "step"))
            continue
        whole, frac, kilo, pct = m.group(1), m.group(2), m.group(3), m.group(4)
        if whole[:2] == "0," and whole.count(",") == 1 and not frac:
            whole, frac = "0", "." + whole[2:]  # "0,853": a decimal comma (0 groups nothing)
        decimals = _comma_decimals(text, m.end()) if whole == "0" and not frac else ""
        if decimals:  # "±0,84": two decimals after a comma, no group of three
            out.append(Number(m.start(), m.end() + 1 + len(decimals),
                              float("0." + decimals), "acc"))
            continue
        value = float(whole.translate(GROUPING) + (frac or ""))
        before = text[max(0, m.start() - 40):m.start()]
        after = text[m.end():m.end() + 30]
        if m.start() in seeds:
            named = seeds[m.start()]
            role = "seeds" if named.group("many") or named.group("several") else "seed"
        elif (STEP_AFTER.match(after) and DURATION.search(before) or PER_RUN.match(after)
              ) and not pct:
            role = "other"
        elif _in_range(text, m.start(), m.end()) and not pct and not frac:
            role = "other"  # "steps 1200–1600": a span of steps, no run's step
        elif _dot_grouped(whole, frac, kilo, pct) and (STEP_BEFORE.search(before)
                                                         or STEP_AFTER.match(after)):
            role, value = "step", float(whole + frac[1:])  # "la pasul 1.200": a step is whole
        elif (STEP_BEFORE.search(before) or STEP_AFTER.match(after)
              or (m.group(5) and ORDINAL_STEP.match(after))
              or (AT_STEP.search(before) and not pct and not EPOCH.match(after))
              ) and (kilo or not frac):
            role, value = "step", value * (1000 if kilo else 1)
        elif EPOCH.search(before) or EPOCH.match(after):
            role = "epoch"
        elif kilo:
            role = "other"
        elif pct:
            role, value = ("acc", value / 100) if value <= 100 else ("other", value)
        elif frac and value <= 1:
            role = "acc"
        elif frac and value <= 100:
            role, value = "acc", value / 100
        else:
            role = "other"
        out.append(Number(m.start(), m.end(), value, role))
    # a seed glued to its shorthand ("s2") is no number NUM reads alone: its seed still is
    taken = {n.start for n in out}
    out += [Number(m.start("n"), m.end("n"), float(m.group("n")), "seed")
            for start, m in seeds.items() if start not in taken]
    return sorted(out, key=lambda n: n.start)


def cell_value(cell: str, role: str) -> float | int | None:
    """A figure written alone (a table cell, an item of a list): a step as a whole number
    ("1,200", "1.2k", and "1.200" as languages with a decimal comma group it), an accuracy
    as a fraction ("85.3%", "85.3" and "0,853" are 0.853); None when the cell is not one."""
    cell = cell.strip("*_ ")
    if role == "step":
        grouped = re.fullmatch(r"\d{1,3}(?:([.\u00a0\u2009\u202f ])\d{3})+", cell)
        if grouped:  # "1.200", "1 200": a step is whole, so a dot or space groups digits
            return int(re.sub(r"\D", "", cell))
        m = re.fullmatch(r"(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(k)?", cell, re.IGNORECASE)
        if not m:
            return None
        return int(float(m.group(1).replace(",", "") + (m.group(2) or ""))
                   * (1000 if m.group(3) else 1))
    # a decimal comma ("0,853", "85,3 %"): an accuracy has no thousands to group
    m = re.fullmatch(r"(\d+(?:[.,]\d+)?|[.,]\d+)\s*(%)?", cell)
    if not m:
        return None
    value = float(m.group(1).replace(",", "."))
    if m.group(2) or value > 1:
        value /= 100
    return round(value, 6) if 0 <= value <= 1 else None
