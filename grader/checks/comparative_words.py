"""The comparison words of each language students write their claims in (``LANGUAGES``):
better/worse, higher/lower, a passive, "than" before or after the model, negation,
but/so/although, "no difference", similar, both, and the words of a loss.

Why a module of data: ``comparatives`` joins these words into its patterns once; a new
language is a new entry here, never a new pattern there.
"""

from __future__ import annotations

from dataclasses import dataclass


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
