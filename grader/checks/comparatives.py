"""Which of two models a sentence says does better, from the way comparisons are worded.

Why not "the first model named wins": students write the comparison from either side and
in either voice. "The model trained from scratch lags behind the pre-trained one", "X
trails Y", "X falls short of Y", "X is outperformed by Y", "X has a lower loss" all rank
the *second* model (or the one named first) differently from "X is better than Y". So each
comparison word carries a direction for the model it is said of:

- ``+1`` the subject does better: better, higher, outperforms, beats, exceeds, surpasses,
  is ahead of, leads, stays above;
- ``-1`` the subject does worse: worse, lower, underperforms, lags (behind), trails, falls
  short of, falls behind, loses to, stays below;
- a passive ("X is outperformed by Y", "beaten by", "surpassed by") turns the direction
  round; so does a negation just before the word ("X does not beat Y", "X is no better");
- "higher"/"lower" of a loss, error or perplexity turn round too ("a lower loss" is better);
- "no clear winner", "on par", "neck and neck", "neither is better", "indistinguishable"
  say neither does better; "the same", "similar", "comparable" do when both models (or
  "both", "the two") are named and no directional word is.

The subject is the model named nearest before the word in its clause, passing over one
named as the thing compared with ("unlike the scratch one", "compared with", "than");
with none before, the first one named after it that is not the object of "than",
"behind", "to", "by" ("better results come from the pre-trained model").

Where the clauses of a sentence disagree, the last one after "but"/"yet"/"however" or of a
conclusion ("so ...", "therefore ...") decides, and an "although"/"while"/"whereas" clause
gives way: "the scratch model improves faster, but the pre-trained one stays ahead" says the
pre-trained model does better. In such a clause "the gap closes", "comparable", "about the
same" alone say neither does ("A starts higher but the gap closes, so they end up
comparable").

Students write the claim in their report's language, so each of these word classes is a
vocabulary per language (``LANGUAGES``: Arabic, Chinese, Dutch, French, German, Hindi,
Indonesian, Italian, Japanese, Korean, Polish, Portuguese, Russian, Spanish, Turkish,
Vietnamese), joined into the same patterns as the
English words: "лучше"/"хуже", "أفضل"/"أسوأ", "besser als", "meilleur que", "更好"/"不如",
"より高い", "보다 더 좋다", "daha iyi". Where a language marks the model compared with
after its name (Japanese "より", Korean "보다", Turkish "-den daha"), that model is the
object as "than X" is. A sentence is folded first (NFKC, lower case, Arabic without its
short vowels and with one alef), so a PDF's presentation forms and a student's vowel
marks are the same word.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

Mentions = Callable[[str], list[tuple[int, str]]]
"""(offset, series) of each model named in a lower-cased text, in order."""


@dataclass(frozen=True)
class Words:
    r"""One language's words of a comparison, as regular-expression alternatives; a word
    of a spaced script (Latin, Cyrillic) must stand alone (``\w*`` writes its endings)."""

    better: tuple[str, ...] = ()
    worse: tuple[str, ...] = ()
    higher: tuple[str, ...] = ()
    """Quantity words that turn round for a loss ("a lower loss" is better); also better."""
    lower: tuple[str, ...] = ()
    passive: tuple[str, ...] = ()
    """"is outperformed by": the subject does worse, the model after it better."""
    than: tuple[str, ...] = ()
    """Before the model compared with ("than", "compared with")."""
    than_after: tuple[str, ...] = ()
    """After the model compared with, before the comparison word (postpositions)."""
    negation: tuple[str, ...] = ()
    negation_after: tuple[str, ...] = ()
    but: tuple[str, ...] = ()
    but_after: tuple[str, ...] = ()
    """A "but" that ends the clause before it as a verb ending (Korean "앞서지만"): the
    clause after it makes the sentence's point, as one after "but" does."""
    so: tuple[str, ...] = ()
    although: tuple[str, ...] = ()
    equal: tuple[str, ...] = ()
    similar: tuple[str, ...] = ()
    both: tuple[str, ...] = ()
    metric: tuple[str, ...] = ()
    """Quantities where lower is better (loss, error)."""


_BI = "比(?!较|較)[^，。；,;]{1,30}?(?:更|还|還)?"
"""Chinese "A 比 B 低": the comparison word is the adjective after the model compared
with, so the cue spans "比 B 低" and A, before it, is the subject ("比较", rather, is no
comparison)."""

LANGUAGES: dict[str, Words] = {
    "de": Words(
        better=(r"besser\w*", r"überlegen\w*", r"übertr(?:ifft|effen|af|afen)", r"schneller\w*",
                r"(?:liegt|liegen|bleibt|bleiben|ist|sind)\s+vorn\w*", r"führt"),
        worse=(r"schlechter\w*", r"unterlegen\w*", r"langsamer\w*",
               r"(?:liegt|liegen|bleibt|bleiben|ist|sind)\s+(?:\w+\s+)?(?:hinter|zurück)",
               r"hinkt\s+(?:\w+\s+)?hinterher"),
        higher=(r"höher\w*",), lower=(r"niedriger\w*", r"geringer\w*"),
        than=(r"als", r"gegenüber", r"im\s+vergleich\s+zu\w*", r"verglichen\s+mit"),
        negation=(r"nicht", r"kein\w*"),
        but=(r"aber", r"jedoch", r"doch", r"allerdings"),
        so=(r"daher", r"deshalb", r"deswegen", r"somit", r"insgesamt"),  # not "also" (English)
        although=(r"obwohl", r"obgleich", r"während", r"wohingegen"),
        equal=(r"kein\w*\s+(?:\w+\s+)?unterschied\w*", r"gleichauf", r"gleich\s+gut",
               r"ununterscheidbar\w*", r"gleichwertig\w*", r"unentschieden"),
        similar=(r"ähnlich\w*", r"vergleichbar\w*", r"identisch\w*", r"gleich"),
        both=(r"beide\w*",), metric=(r"verlust\w*", r"fehler\w*", r"perplexität")),
    "fr": Words(
        better=(r"meilleur\w*", r"mieux", r"supérieur\w*", r"dépass\w*", r"surpass\w*",
                r"devanc\w*", r"plus\s+rapide\w*", r"l[’']emport\w*"),
        worse=(r"pire\w*", r"moins\s+bon\w*", r"inférieur\w*", r"plus\s+faible\w*",
               r"moins\s+rapide\w*", r"(?:reste|restent|est|sont)\s+derrière",
               r"en\s+retrait"),
        higher=(r"plus\s+élevé\w*", r"plus\s+haut\w*"),
        lower=(r"plus\s+bas\w*", r"moins\s+élevé\w*"),
        passive=(r"(?:surpassé|dépassé|devancé|battu)\w*\s+par",),
        than=(r"que", r"qu[’']", r"par\s+rapport\s+(?:à|au|aux)", r"comparé\w*\s+(?:à|au|aux)",
              r"face\s+(?:à|au)"),
        negation=(r"pas", r"non", r"ni"),
        but=(r"mais", r"cependant", r"pourtant", r"toutefois"),
        so=(r"donc", r"ainsi", r"par\s+conséquent", r"au\s+final", r"globalement",
            r"en\s+conclusion"),
        although=(r"bien\s+que", r"alors\s+que", r"tandis\s+que", r"même\s+si"),
        equal=(r"(?:pas|aucune)\s+(?:de\s+)?(?:vraie\s+|réelle\s+)?différence\w*",
               r"à\s+égalité", r"équivalent\w*", r"pas\s+de\s+(?:vrai\s+)?gagnant"),
        similar=(r"similaire\w*", r"comparable\w*", r"identique\w*", r"semblable\w*",
                 r"même\w*"),
        both=(r"les\s+deux", r"tous\s+deux"),
        metric=(r"pertes?", r"erreurs?", r"perplexité")),
    "es": Words(
        better=(r"mejor\w*", r"superior\w*", r"supera\w*", r"aventaja\w*", r"más\s+rápid\w*"),
        worse=(r"peor\w*", r"inferior\w*", r"más\s+lent\w*", r"queda\w*\s+(?:por\s+)?(?:debajo|detrás)"),
        higher=(r"más\s+alt[oa]s?", r"más\s+elevad[oa]s?"),
        lower=(r"más\s+baj[oa]s?",),
        passive=(r"superad[oa]s?\s+por",),
        than=(r"que", r"frente\s+a", r"en\s+comparación\s+con", r"comparad[oa]s?\s+con"),
        negation=(r"no", r"ni"),
        but=(r"pero", r"sin\s+embargo"),
        so=(r"por\s+lo\s+tanto", r"así\s+que", r"por\s+eso", r"en\s+conclusión",
            r"en\s+general"),
        although=(r"aunque", r"mientras\s+que", r"si\s+bien"),
        equal=(r"(?:ninguna|sin|no\s+hay)\s+(?:\w+\s+)?diferencia\w*", r"empate\w*",
               r"equivalente\w*", r"a\s+la\s+par"),
        similar=(r"similar\w*", r"parecid\w*", r"igual\w*", r"comparable\w*", r"mism[oa]s?"),
        both=(r"ambos", r"ambas", r"los\s+dos", r"las\s+dos"),
        metric=(r"pérdida\w*", r"perplejidad")),
    "it": Words(
        better=(r"miglior\w*", r"meglio", r"superior\w*", r"supera\w*", r"più\s+veloc\w*"),
        worse=(r"peggior\w*", r"peggio", r"inferior\w*", r"più\s+lent\w*"),
        higher=(r"più\s+alt[oaie]",), lower=(r"più\s+bass[oaie]",),
        passive=(r"superat[oaie]\s+da\w*",),
        than=(r"di", r"del", r"dello", r"della", r"dei", r"degli", r"delle", r"rispetto\s+a\w*",
              r"in\s+confronto\s+a\w*"),
        negation=(r"non",),
        but=(r"ma", r"però", r"tuttavia"),
        so=(r"quindi", r"perciò", r"dunque", r"in\s+conclusione", r"nel\s+complesso"),
        although=(r"sebbene", r"benché", r"mentre", r"anche\s+se"),
        equal=(r"(?:nessuna|senza|non\s+c[’']è)\s+(?:\w+\s+)?differenz\w*", r"alla\s+pari",
               r"equivalent\w*"),
        similar=(r"simil\w*", r"paragonabil\w*", r"ugual\w*", r"identic\w*", r"stess[oaie]"),
        both=(r"entramb\w*", r"tutti\s+e\s+due", r"i\s+due"),
        metric=(r"perdit[ae]", r"error[ei]", r"perplessità")),
    "pt": Words(
        better=(r"melhor\w*", r"superior\w*", r"supera\w*", r"mais\s+rápid\w*"),
        worse=(r"pior\w*", r"inferior\w*", r"mais\s+lent\w*"),
        higher=(r"mais\s+alt[oa]s?", r"mais\s+elevad[oa]s?"), lower=(r"mais\s+baix[oa]s?",),
        passive=(r"superad[oa]s?\s+pel[oa]s?",),
        than=(r"do\s+que", r"que", r"em\s+comparação\s+(?:com|ao|à)", r"comparad[oa]s?\s+(?:com|ao|à)"),
        negation=(r"não", r"nao", r"nem"),
        but=(r"mas", r"porém", r"contudo", r"entretanto"),
        so=(r"portanto", r"então", r"logo", r"em\s+conclusão", r"no\s+geral"),
        although=(r"embora", r"enquanto", r"apesar\s+de", r"ainda\s+que"),
        equal=(r"(?:nenhuma|sem|não\s+há)\s+(?:\w+\s+)?diferença\w*", r"empate\w*",
               r"equivalente\w*", r"empatad\w*"),
        similar=(r"semelhante\w*", r"similar\w*", r"igua\w*", r"comparáve\w*", r"mesm[oa]s?"),
        both=(r"ambos", r"ambas", r"os\s+dois", r"as\s+duas"),
        metric=(r"perda\w*", r"erro\w*", r"perplexidade")),
    "ru": Words(
        better=(r"лучше", r"превосход\w*", r"опережа\w*", r"обгоня\w*", r"быстрее",
                r"лидиру\w*", r"сильнее"),
        worse=(r"хуже", r"уступа\w*", r"отста[её]\w*", r"слабее", r"медленнее"),
        higher=(r"выше", r"более\s+высок\w*"), lower=(r"ниже", r"более\s+низк\w*"),
        than=(r"чем", r"по\s+сравнению\s+с\w*", r"в\s+отличие\s+от"),
        negation=(r"не", r"ни"),
        but=(r"но", r"однако"),
        so=(r"поэтому", r"итак", r"таким\s+образом", r"следовательно", r"в\s+итоге",
            r"в\s+целом"),
        although=(r"хотя", r"тогда\s+как", r"в\s+то\s+время\s+как"),
        equal=(r"нет\s+(?:\w+\s+)?разниц\w*", r"(?:\w+\s+)?разниц\w*\s+(?:\w+\s+)?нет",
               r"без\s+разницы", r"на\s+одном\s+уровне", r"ничья"),
        similar=(r"похож\w*", r"схож\w*", r"сопоставим\w*", r"сравним\w*", r"одинаков\w*",
                 r"такой\s+же", r"то\s+же"),
        both=(r"оба", r"обе", r"обеих", r"обоих"),
        metric=(r"потер\w*", r"ошибк\w*", r"перплекси\w*")),
    "tr": Words(
        better=(r"daha\s+iyi\w*", r"üstün\w*", r"geride\s+bırak\w*", r"önde\w*"),
        worse=(r"daha\s+kötü\w*", r"geride\s+kal\w*", r"gerisinde", r"daha\s+zayıf\w*"),
        higher=(r"daha\s+yüksek\w*",), lower=(r"daha\s+düşük\w*",),
        than=(r"göre",),
        than_after=(r"[dt][ae]n\s+$", r"göre\s+$"),
        negation_after=(r"değil",),
        but=(r"ama", r"fakat", r"ancak", r"lakin"),
        so=(r"bu\s+yüzden", r"bu\s+nedenle", r"dolayısıyla", r"sonuç\s+olarak"),
        equal=(r"fark\w*\s+yok", r"berabere", r"aynı\s+seviyede", r"eşit\w*"),
        similar=(r"benzer\w*", r"aynı"),
        both=(r"her\s+iki\w*", r"ikisi\w*"),
        metric=(r"kayıp\w*", r"hata\w*")),
    "ar": Words(
        better=(r"افضل", r"يتفوق", r"تتفوق", r"تفوق", r"يتقدم", r"اسرع"),
        worse=(r"اسوا", r"يتاخر", r"تتاخر", r"اضعف", r"ابطا"),
        higher=(r"اعلى",), lower=(r"اقل", r"ادنى"),
        than=(r"من", r"على", r"مقارنة\s+ب", r"بالمقارنة\s+مع"),
        negation=(r"لا", r"ليس\w*", r"لم"),
        but=(r"لكن\w*", r"ولكن\w*"),
        so=(r"لذلك", r"لذا", r"وبالتالي", r"اذن"),
        although=(r"بينما", r"رغم", r"مع\s+ان"),
        equal=(r"لا\s+(?:يوجد\s+)?فرق", r"متساوي\w*", r"متعادل\w*", r"نفس\s+المستوى"),
        similar=(r"متشابه\w*", r"مماثل\w*", r"مشابه\w*", r"نفس"),
        both=(r"كلا", r"كلتا", r"كلاهما"),
        metric=(r"خسار\w*", r"الخسار\w*", r"خطا")),
    "zh": Words(
        better=("更好", "较好", "較好", "好于", "好於", "优于", "優於", "胜过", "勝過", "超过",
                "超過", "领先", "領先", "更快"),
        worse=("更差", "较差", "較差", "差于", "不如", "劣于", "劣於", "落后", "落後", "更慢"),
        higher=("更高", "高于", "高於", "较高", "較高", _BI + "(?:高|好|强|強|快)"),
        lower=("更低", "低于", "低於", "较低", "較低", _BI + "(?:低|差|弱|慢)"),
        than=("比", "相比于", "相比於", "与", "與"),
        negation=("不", "没有", "沒有", "并不", "並不"),
        but=("但是", "但", "然而", "不过", "不過"),
        so=("所以", "因此", "总之", "總之", "总的来说", "總的來說"),
        although=("虽然", "雖然", "尽管", "儘管"),
        equal=("没有明显区别", "没有区别", "没有差别", "没有明显差异", "无明显差异", "无差异",
               "差不多", "不相上下", "持平", "沒有區別", "沒有差別"),
        similar=("相似", "类似", "類似", "相同", "一样", "一樣", "相当", "相當"),
        both=("两者", "兩者", "两个模型", "兩個模型"),
        metric=("损失", "損失", "误差", "誤差", "困惑度")),
    "ja": Words(
        better=("優れ", "上回", "勝[るっ]", "良[いくか]", "よ[いく]", "速[いく]"),
        worse=("劣[るっ]", "下回", "負け", "悪[いくか]", "遅[いく]"),
        higher=("高[いくか]",), lower=("低[いくか]",),
        than_after=("より",),
        negation_after=("ない", "なかった", "ません"),
        but=("しかし", "だが", "ただし", "一方"),
        so=("したがって", "そのため", "つまり", "結局", "結論として"),
        equal=("差がない", "差はない", "差はほとんどない", "違いはない", "ほぼ同じ", "同等",
               "互角"),
        similar=("同じ", "似て", "同程度"),
        both=("両方", "両者", "どちらも"),
        metric=("損失", "ロス", "誤差", "エラー")),
    "ko": Words(
        better=(r"더\s*좋", r"더\s*나[은았아]", "우수", "앞서", "앞선", "능가", "뛰어나",
                r"더\s*빠르", r"더\s*빨"),
        worse=(r"더\s*나쁘", r"더\s*나빠", "뒤처", "뒤쳐", "못하", r"더\s*느리"),
        higher=(r"더\s*높",), lower=(r"더\s*낮",),
        than_after=("보다",),
        negation_after=(r"지\s*않", r"지\s*못"),
        but=("하지만", "그러나", "그런데"), but_after=(r"(?<=[가-힣])지만\s+",),
        so=("따라서", "그래서", "결국", "결론적으로"),
        equal=(r"차이가\s*없", r"차이\s*없", "동등"),
        similar=("비슷", "같은", "동일"),
        both=(r"두\s*모델", r"둘\s*다"),
        metric=("손실", "오차", "에러")),
    "id": Words(
        better=(r"lebih\s+baik", r"lebih\s+unggul", r"unggul", r"mengungguli", r"lebih\s+cepat",
                r"lebih\s+bagus"),
        worse=(r"lebih\s+buruk", r"lebih\s+jelek", r"kalah", r"tertinggal", r"lebih\s+lambat",
               r"lebih\s+lemah"),
        higher=(r"lebih\s+tinggi",), lower=(r"lebih\s+rendah",),
        passive=(r"(?:dikalahkan|diungguli|dilampaui)\s+oleh",),
        than=(r"daripada", r"dari\s+pada", r"dibandingkan(?:\s+dengan)?", r"dibanding"),
        negation=(r"tidak", r"bukan"),
        but=(r"tetapi", r"tapi", r"namun"),
        so=(r"jadi", r"oleh\s+karena\s+itu", r"dengan\s+demikian", r"secara\s+keseluruhan"),
        although=(r"meskipun", r"walaupun", r"sedangkan", r"sementara"),
        equal=(r"tidak\s+ada\s+(?:\w+\s+)?perbedaan", r"sama\s+baik\w*", r"setara"),
        similar=(r"mirip", r"serupa", r"sebanding", r"hampir\s+sama", r"sama\s+saja"),
        both=(r"keduanya", r"kedua\s+model"),
        metric=(r"kerugian", r"galat", r"kesalahan")),
    "nl": Words(
        better=(r"beter\w*", r"overtreft", r"overtroffen", r"sneller\w*",
                r"(?:ligt|liggen|blijft|blijven)\s+voor\w*"),
        worse=(r"slechter\w*", r"(?:blijft|blijven|loopt|lopen|ligt|liggen)\s+achter\w*",
               r"trager\w*", r"zwakker\w*"),
        higher=(r"hoger\w*",), lower=(r"lager\w*",),
        passive=(r"(?:overtroffen|verslagen|ingehaald)\s+door",),
        than=(r"dan", r"vergeleken\s+met", r"ten\s+opzichte\s+van", r"tegenover"),
        negation=(r"niet", r"geen"),
        but=(r"maar", r"echter", r"toch"),
        so=(r"dus", r"daarom", r"kortom", r"al\s+met\s+al", r"concluderend"),
        although=(r"hoewel", r"terwijl", r"ofschoon", r"ondanks\s+dat"),
        equal=(r"geen\s+(?:\w+\s+)?verschil\w*", r"gelijkwaardig\w*", r"even\s+goed",
               r"gelijkspel"),
        similar=(r"vergelijkbaar\w*", r"gelijk\w*", r"dezelfde", r"hetzelfde"),
        both=(r"beide\w*", r"allebei"),
        metric=(r"verlies\w*", r"fout\w*", r"perplexiteit")),
    "pl": Words(
        better=(r"lepsz\w*", r"lepiej", r"przewyższa\w*", r"wyprzedza\w*", r"szybsz\w*",
                r"szybciej"),
        worse=(r"gorsz\w*", r"gorzej", r"ustępuje", r"słabsz\w*", r"słabiej", r"wolniejsz\w*",
               r"(?:zostaje|pozostaje)\s+w\s+tyle"),
        higher=(r"wyższ\w*", r"wyżej"), lower=(r"niższ\w*", r"niżej"),
        passive=(r"(?:pokonan|wyprzedzon|przewyższon)\w*\s+przez",),
        than=(r"niż", r"w\s+porównaniu\s+z\w*", r"względem"),
        negation=(r"nie",),
        but=(r"ale", r"jednak", r"lecz", r"natomiast"),
        so=(r"więc", r"dlatego", r"zatem", r"podsumowując", r"ostatecznie"),
        although=(r"chociaż", r"choć", r"podczas\s+gdy", r"mimo\s+że"),
        equal=(r"brak\s+(?:\w+\s+)?różnic\w*", r"nie\s+ma\s+(?:\w+\s+)?różnic\w*", r"remis"),
        similar=(r"podobn\w*", r"porównywaln\w*", r"tak\w*\s+sam\w*"),
        both=(r"oba", r"obie", r"obydwa", r"obydwie"),
        metric=(r"strat\w*", r"błąd\w*", r"błęd\w*")),
    "vi": Words(
        better=(r"tốt\s+hơn", r"vượt\s+trội", r"vượt\s+qua", r"nhanh\s+hơn", r"dẫn\s+đầu",
                r"hơn\s+hẳn"),
        worse=(r"kém\s+hơn", r"tệ\s+hơn", r"thua", r"chậm\s+hơn", r"yếu\s+hơn",
               r"tụt\s+lại"),
        higher=(r"cao\s+hơn",), lower=(r"thấp\s+hơn",),
        passive=(r"bị\s+vượt\s+qua\s+bởi",),
        than=(r"so\s+với",),
        negation=(r"không", r"chẳng", r"chưa"),
        but=(r"nhưng", r"tuy\s+nhiên"),
        so=(r"vì\s+vậy", r"do\s+đó", r"tóm\s+lại", r"nhìn\s+chung"),
        although=(r"mặc\s+dù", r"trong\s+khi"),
        equal=(r"không\s+có\s+(?:\w+\s+)?khác\s+biệt", r"ngang\s+nhau", r"tương\s+đương"),
        similar=(r"giống\s+nhau", r"tương\s+tự", r"như\s+nhau"),
        both=(r"cả\s+hai",),
        metric=(r"mất\s+mát", r"lỗi")),
    # Hindi is written as fold() leaves it (NFKC: a nukta letter such as "ख़" decomposed),
    # and a Devanagari word ends where no Devanagari follows (its vowel signs are no \w)
    "hi": Words(
        better=("बेहतर", "आगे"),
        worse=("ख़राब", "खराब", "पीछे", "कमज़ोर", "कमजोर"),
        higher=("अधिक", "ज़्यादा", "ज्यादा", "ऊँचा", "ऊँची", "ऊँचे", "ऊंचा", "ऊंची", "ऊंचे"),
        lower=("कम",),
        than=(r"की\s+तुलना\s+में",),
        than_after=(r"से\s+(?:\S+\s+)?$", r"की\s+तुलना\s+में\s+(?:\S+\s+)?$"),
        negation=("नहीं",),
        but=("लेकिन", "परंतु", "परन्तु", "किंतु", "किन्तु"),
        so=("इसलिए", "अतः", r"कुल\s+मिलाकर"),
        although=("हालांकि", "हालाँकि", "जबकि"),
        equal=(r"कोई\s+(?:\S+\s+)?अंतर\s+नहीं", r"कोई\s+(?:\S+\s+)?फ़र्क\s+नहीं", "बराबर"),
        similar=("समान", r"एक\s+जैसे", r"एक\s+जैसा"),
        both=("दोनों",),
        metric=("लॉस", "हानि", "त्रुटि")),
}
"""The comparison words of the languages students write their reports in, per language
(ISO 639-1). Written folded (see ``fold``): lower case, Arabic without vowel marks and with
a bare alef."""

_SPACED = re.compile(r"[a-zà-ɏͰ-ӿḀ-ỿ]")
"""A letter of a script that spaces its words (Latin, Greek, Cyrillic): there a word of
the vocabulary must stand alone; Arabic takes its prefixes (و, ال) on the word, and
Chinese and Japanese put no space between words."""
_ARABIC_PREFIX = r"(?<![^\W\d_])(?:و|ف|ب|ك|ل|ال|وال|بال|لل)?"


def _bounded(word: str) -> str:
    if _SPACED.match(word):
        return rf"(?<![^\W\d_]){word}(?![^\W\d_])"
    if "\u0600" <= word[0] <= "\u06ff":
        return _ARABIC_PREFIX + word
    if "\u0900" <= word[0] <= "\u097f":  # Devanagari: its vowel signs are no \w
        return rf"(?<![\u0900-\u097f]){word}(?![\u0900-\u097f])"
    return word


def _alternatives(field: str, bounded: bool = True) -> str:
    words = [w for lang in LANGUAGES.values() for w in getattr(lang, field)]
    return "|".join(_bounded(w) if bounded else w for w in words)


def fold(text: str) -> str:
    """A sentence as the vocabulary is written: NFKC (a PDF's Arabic presentation forms,
    full-width punctuation), lower case, Arabic without its vowel marks and tatweel, and
    its alef with hamza or madda as a bare alef."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = re.sub("[\u0610-\u061a\u064b-\u065f\u0670\u0640]", "", text)
    return re.sub("[\u0622\u0623\u0625]", "\u0627", text)


_OTHER_BETTER = re.compile(_alternatives("better") + "|" + _alternatives("higher"))
_OTHER_WORSE = re.compile(_alternatives("worse") + "|" + _alternatives("lower"))
_OTHER_PASSIVE = re.compile(_alternatives("passive"))
_OTHER_QUANTITY = re.compile(_alternatives("higher") + "|" + _alternatives("lower"))
_OTHER_METRIC = "|".join(_bounded(w) for lang in LANGUAGES.values() for w in lang.metric)


def _just_before(field: str) -> re.Pattern[str]:
    """A word of ``field`` ending a text: a spaced or Arabic word with up to two words
    after it ("que le modèle", "чем модель"), a Chinese one right before ("比从头")."""
    words = [w for lang in LANGUAGES.values() for w in getattr(lang, field)]
    spaced = [_bounded(w) for w in words if _SPACED.match(w) or "\u0600" <= w[0] <= "\u06ff"]
    joined = [w for w in words if not (_SPACED.match(w) or "\u0600" <= w[0] <= "\u06ff")]
    parts = ([r"(?:" + "|".join(spaced) + r")\s+(?:[\w'’-]+\s+){0,2}$"] if spaced else []) + (
        [r"(?:" + "|".join(joined) + r")\s*$"] if joined else [])
    return re.compile("|".join(parts) or r"(?!)")


_OTHER_NEGATION = _just_before("negation")
_OTHER_NEGATION_AFTER = re.compile(r"^\s*(?:" + _alternatives("negation_after", False) + ")")
_OTHER_THAN = _just_before("than")
_OBJECT_AFTER = re.compile(_alternatives("than_after", False))
"""A postposition after the model compared with: "スクラッチモデルより", "모델보다",
"modelden daha" (Turkish: the ablative ending just before the comparison word)."""
_OTHER_EQUAL = re.compile(_alternatives("equal"))
_OTHER_SIMILAR = re.compile(_alternatives("similar"))
_OTHER_BOTH = re.compile(_alternatives("both"))
_OTHER_BUT = _alternatives("but")
_OTHER_SO = _alternatives("so")
_BUT_AFTER = re.compile(_alternatives("but_after", False) or r"(?!)")
_OTHER_ALTHOUGH = _alternatives("although")
_OTHER_MAIN = re.compile(rf"\W*(?:{_OTHER_BUT}|{_OTHER_SO})")
_OTHER_SUBORDINATE = re.compile(rf"\W*(?:{_OTHER_ALTHOUGH})")
_OTHER_METRIC_AFTER = re.compile(rf"^\W*(?:[\w'’-]+\W+){{0,3}}?(?:{_OTHER_METRIC})|^\W*(?:{_OTHER_METRIC})")
_OTHER_METRIC_BEFORE = re.compile(rf"(?:{_OTHER_METRIC})[^.;:!?。；：]{{0,30}}$")
_CONNECTIVE = re.compile(rf"[,，、]\s*(?=(?:{_OTHER_BUT}|{_OTHER_SO}|{_OTHER_ALTHOUGH}))"
                         rf"|\s(?=(?:{_OTHER_BUT})\s)|[；：]\s*")
"""Where a clause of another language starts: before its "but", "so" or "although" after
a comma, before "but" after a space, after a full-width semicolon or colon."""

_PASSIVE = re.compile(
    r"\b(?:is|are|was|were|be|being|been|gets?|got)\s+(?:\w+ly\s+)?"
    r"(?:outperformed|beaten|surpassed|exceeded|bettered|dominated|topped|overtaken|outpaced"
    r"|outclassed)\s+by\b", re.I)
_BETTER = re.compile(
    r"\b(?:better|higher|outperform(?:s|ed|ing)?|superior|more\s+accurate|beats?|beating"
    r"|exceeds?|exceeding|greater|faster|improves?\s+(?:on|over|upon)|surpass(?:es|ed|ing)?"
    r"|(?:is|are|stays?|remains?|keeps?)\s+ahead|ahead\s+of|leads?|leading|wins?|dominates?"
    r"|stronger|outpaces?|(?:stays?|remains?|lies|sits|is|are)\s+above"
    r"|catch(?:es)?\s+up|keeps?\s+up|(?:a|an|the|clear|big|large|small|slight|consistent)\s+"
    r"(?:advantage|edge|lead)\b|advantage)\b|(?<=\s)>(?=\s)", re.I)
_WORSE = re.compile(
    r"\b(?:worse|lower|underperform(?:s|ed|ing)?|inferior|less\s+accurate|slower|weaker"
    r"|lag(?:s|ged|ging)?(?:\s+behind)?|trail(?:s|ed|ing)?|falls?\s+(?:short|behind)"
    r"|fell\s+(?:short|behind)|loses?\s+(?:out\s+)?to|lost\s+(?:out\s+)?to"
    r"|(?:stays?|remains?|lies|sits|is|are)\s+(?:below|behind)|disadvantage)\b|(?<=\s)<(?=\s)",
    re.I)
_NEGATION = re.compile(r"\b(?:not|never|no|hardly|barely|n't)\s+(?:\w+\s+){0,2}$|n't\s+(?:\w+\s+){0,2}$",
                       re.I)
_INVERTED_METRIC = re.compile(r"^\W*(?:\w+\W+){0,3}?(?:loss|error|perplexity|cross[- ]entropy)",
                              re.I)
_METRIC_BEFORE = re.compile(r"(?:loss|error|perplexity|cross[- ]entropy)\w*\W+(?:\w+\W+){0,3}$",
                            re.I)
_QUANTITY = re.compile(r"higher|lower|greater", re.I)
_EQUAL_STRONG = re.compile(
    r"\b(?:no\s+(?:clear|real|significant|noticeable|meaningful|obvious)?\s*(?:winner|difference)"
    r"|neither\s+(?:\w+\s+){0,3}(?:better|worse|outperforms?|wins)|on\s+par|neck\s+and\s+neck"
    r"|indistinguishable|(?:perform|do|does|did)\s+(?:about\s+|roughly\s+)?(?:equally|the\s+same)"
    r"|a\s+tie|tied|(?:negligible|marginal|insignificant|minimal)\s+(?:difference|gap)"
    r"|(?:gap|difference)\s+(?:\w+\s+)?(?:closes|closed|disappears|disappeared|vanishes|vanished)"
    r"|clos(?:es|ed|ing)\s+the\s+gap"
    r"|(?:difference|gap)\s+(?:[\w'’-]+\s+){0,6}?(?:is|was|are|were|stays?|remains?)\s+(?:\w+\s+)?"
    r"(?:negligible|marginal|insignificant|minimal|tiny|within\s+noise))\b", re.I)
_EQUAL_WEAK = re.compile(r"\b(?:same|similar|equal(?:ly)?|comparable|identical|as\s+well\s+as)\b",
                         re.I)
_BOTH = re.compile(r"\b(?:both|the\s+two|either|neither)\b", re.I)
_OBJECT_BEFORE = re.compile(
    r"(?:\bunlike|\bcompared\s+(?:with|to)|\bversus|\bvs\.?|\bthan|\bbehind|\bby|\bover|\bto"
    r"|\bagainst|\band|&)\s+(?:the\s+|a\s+|an\s+|one\s+)?(?:\w+\s+){0,2}$", re.I)
_CLAUSE = re.compile(r"[;:]\s|,\s+(?=(?:but|while|whereas|although|though|yet|however|so|therefore"
                     r"|thus|hence|overall)\b)"
                     r"|\s(?=but\b)|\n"
                     r"|,?\s(?=(?:and\s+)?(?:at|in|by)\s+the\s+end\b(?!\s+of\s+(?:epoch|step)\s*\d))",
                     re.I)
_MAIN = re.compile(r"\W*(?:but|yet|however)\b")
_CONCLUSION = re.compile(r"\W*(?:and\s+)?(?:at\s+the\s+end|by\s+the\s+end)\b|\W*(?:so|therefore|thus|hence|overall|in\s+the\s+end|in\s+conclusion"
                         r"|all\s+in\s+all|in\s+short)\b")
_EQUAL_CONCLUDED = re.compile(
    r"\b(?:(?:about|roughly|basically|essentially|pretty\s+much|more\s+or\s+less|much)\s+the\s+same"
    r"|(?:end|ends|ended|finish|finishes|finished|are|were|look|looks|seem|seems|is|was"
    r"|become|becomes|became)\s+(?:up\s+)?(?:\w+\s+)?(?:comparable|similar|equal|level|even"
    r"|the\s+same)|comparable|equally\s+good)\b", re.I)
_EQUAL_END = re.compile(
    r"\b(?:both|the\s+two|they)\s+(?:models?\s+)?(?:\w+\s+)?(?:converge[sd]?\b|(?:are|were|end|ends|ended"
    r"|finish|finishes|finished|reach|reaches|reached|land|lands|landed|settle|settles|settled"
    r"|sit|sits|plateau|plateaus|plateaued)\s+(?:up\s+)?(?:(?:at|on|to|with|near|around|about"
    r"|roughly|approximately|approx\.?|close\s+to)\s+)*[~≈]?\s*\d(?!.*\brespectively\b))",
    re.I)
"""The end state named for both at once: "at the end both are around 0,77", "they both finish
near 0.77", "both converge". In a concluding clause it says neither wins, and as the later
main clause it outweighs a rate ("the scratch model improves faster and at the end both are
around 0,77": equal), since the question is where the models end, not how fast they move."""
_SUBORDINATE = re.compile(r"\W*(?:while|whereas|although|though|even\s+though)\b")
_SUBORDINATE_OPENING = re.compile(r"\W*(?:while|whereas|although|though|even\s+though)\b")


def _cue(clause: str) -> tuple[int, int, int] | None:
    """(start, end, direction) of the first comparison word of ``clause``."""
    found: list[tuple[int, int, int]] = []
    for pattern, direction in ((_PASSIVE, -1), (_OTHER_PASSIVE, -1), (_BETTER, 1),
                               (_OTHER_BETTER, 1), (_WORSE, -1), (_OTHER_WORSE, -1)):
        m = pattern.search(clause)
        if m is not None:
            found.append((m.start(), m.end(), direction))
    if not found:
        return None
    start, end, direction = min(found, key=lambda f: (f[0], -f[1]))
    before = clause[max(0, start - 40):start]
    if (_NEGATION.search(before) or _OTHER_NEGATION.search(before)
            or _OTHER_NEGATION_AFTER.match(clause, end)):
        direction = -direction  # "does not beat", "is no better than", "良くない"
    word = clause[start:end]
    if _QUANTITY.search(word) or _OTHER_QUANTITY.fullmatch(word):
        after = clause[end:end + 60]
        if (_INVERTED_METRIC.match(after) or _METRIC_BEFORE.search(before)
                or _OTHER_METRIC_AFTER.match(after) or _OTHER_METRIC_BEFORE.search(before)):
            direction = -direction  # "a lower validation loss", "более низкие потери"
    return start, end, direction


def _passive(clause: str, start: int) -> bool:
    return bool(_PASSIVE.match(clause, start) or _OTHER_PASSIVE.match(clause, start))


def _object(clause: str, pos: int, until: int) -> bool:
    """Whether the model named at ``pos`` is the one compared with: after "than",
    "compared with", "чем", "比" (in the 40 characters before it), or before a
    postposition that says so ("より", "보다"), ahead of ``until`` (the next model named
    or the comparison word)."""
    before = clause[max(0, pos - 40):pos]
    return bool(_OBJECT_BEFORE.search(before) or _OTHER_THAN.search(before)
                or _OBJECT_AFTER.search(clause[pos:until]))


def _subject(clause: str, seen: list[tuple[int, str]], start: int, end: int,
             passive: bool) -> str | None:
    before = [(pos, name) for pos, name in seen if pos < start]
    for k in range(len(before) - 1, -1, -1):
        pos, name = before[k]
        until = before[k + 1][0] if k + 1 < len(before) else start
        if not _object(clause, pos, until):
            return name
    after = [(pos, name) for pos, name in seen if pos >= end]
    if passive and after:
        return None  # "is outperformed by X" with no subject before: X is the agent
    for pos, name in after:
        if not (_OBJECT_BEFORE.search(clause[max(end, pos - 40):pos])
                or _OTHER_THAN.search(clause[max(end, pos - 40):pos])):
            return name
    return before[-1][1] if before else (after[0][1] if after else None)


def _clauses(low: str) -> list[tuple[int, str, int]]:
    """(offset, clause, weight) of each clause: one after "but"/"yet"/"however" or a
    conclusion ("so ...", "therefore ...", "overall ...") weighs 2 (the point the sentence
    makes), a subordinate one ("although ...", "while ...") 0."""
    cuts = [0]
    opening = _SUBORDINATE_OPENING.match(low) or _OTHER_SUBORDINATE.match(low)
    if opening:
        comma = min((at for at in (low.find(", ", opening.end()), low.find("，", opening.end()))
                     if at > 0), default=-1)
        if comma > 0:
            cuts.append(comma + (1 if low[comma] == "，" else 2))
    cuts += [m.end() for m in _CLAUSE.finditer(low)]
    cuts += [m.end() for m in _CONNECTIVE.finditer(low)]
    main = {m.end() for m in _BUT_AFTER.finditer(low)}  # "…앞서지만 | 마지막에는 …"
    cuts = sorted(set(cuts) | main)
    out = []
    for k, at in enumerate(cuts):
        piece = low[at:cuts[k + 1] if k + 1 < len(cuts) else len(low)]
        weight = 2 if (at in main or _MAIN.match(piece) or _CONCLUSION.match(piece)
                       or _OTHER_MAIN.match(piece)) else 0 if (
            _SUBORDINATE.match(piece) or _OTHER_SUBORDINATE.match(piece)
            or (opening and k == 0 and len(cuts) > 1)) else 1
        out.append((at, piece, weight))
    return out


def compare(sentence: str, names: list[str], mentions: Mentions) -> tuple[str, str] | None:
    """(better, worse) the sentence says, ("", "") for "no clear winner", else None. Where
    clauses disagree, the weightiest decides ("X improves faster, but Y stays ahead": Y)."""
    low = fold(sentence)
    seen_all = mentions(low)
    if not seen_all and not (_BOTH.search(low) or _OTHER_BOTH.search(low)):
        return None
    directional = False
    decided: list[tuple[int, tuple[str, str]]] = []
    for at, piece, weight in _clauses(low):
        cue = _cue(piece)
        strong = _EQUAL_STRONG.search(piece) or _OTHER_EQUAL.search(piece)
        if strong is None and weight >= 2 and cue is None:
            strong = _EQUAL_CONCLUDED.search(piece) or _EQUAL_END.search(piece)
        if strong and (cue is None or strong.start() <= cue[0]):
            decided.append((weight, ("", "")))
            continue
        if cue is None:
            continue
        directional = True
        start, end, direction = cue
        seen = [(pos - at, name) for pos, name in seen_all if at <= pos < at + len(piece)]
        passive = _passive(piece, start)
        subject = _subject(piece, seen, start, end, passive)
        if subject is None and passive:
            agent = [name for pos, name in seen if pos >= end]
            if agent:
                subject, direction = agent[0], -direction  # "is outperformed by X": X better
        if subject is None:
            # "The pre-trained model starts at 0.78: it stays higher": named in a clause before
            subject = _subject(low, [m for m in seen_all if m[0] < at], at + start, at + end,
                               False)
        if subject is None:
            continue
        other = names[1] if subject == names[0] else names[0]
        decided.append((weight, (subject, other) if direction > 0 else (other, subject)))
    if decided:
        best = max(weight for weight, _ in decided)
        top = [found for weight, found in decided if weight == best]
        # of several main clauses, the last: "..., but the gap closes, so they are the same";
        # of plain ones, the first (a later one often names its model loosely)
        return top[-1] if best == 2 else top[0]
    named = {name for _pos, name in seen_all}
    if (not directional and (_EQUAL_WEAK.search(low) or _OTHER_SIMILAR.search(low))
            and (len(named) == 2 or _BOTH.search(low) or _OTHER_BOTH.search(low))):
        return "", ""
    return None
