"""Lab A's Q4 claim written in the languages students write their reports in.

Why: a report in Arabic or Russian says "the pre-trained model is better" with words the
claim reader did not know, so the claim went unread and the TA sheet said "no sentence
comparing them". The comparison words (better, worse, than, but, so, no difference) and
the models' names are a vocabulary per language (``comparative_words.LANGUAGES``,
``seedwords.MODEL_WORDS``), each sentence below written as a student of that language
would, none taken from the corpus.
"""

from __future__ import annotations

import pytest

from grader.checks.seedwords import Families
from tests.grader.checks._claims import FALLBACK, LAB_A, better


@pytest.mark.parametrize(("text", "want"), [
    # Russian
    ("Предобученная модель лучше модели, обученной с нуля.", "pretrained"),
    ("Модель, обученная с нуля, хуже предобученной.", "pretrained"),
    ("Модель с нуля уступает предобученной на каждой эпохе.", "pretrained"),
    ("Модель с нуля учится быстрее, но предобученная остаётся выше.", "pretrained"),
    ("Модель с нуля не лучше предобученной.", "pretrained"),
    ("Явной разницы нет: обе модели одинаковы в конце.", "equal"),
    # Arabic (with and without its short vowels, hamza written or not)
    ("النموذج المدرَّب مسبقًا أفضل من النموذج من الصفر في كل الحقب.", "pretrained"),
    ("النموذج المدرب مسبقا افضل من النموذج من الصفر.", "pretrained"),
    ("النموذج من الصفر أسوأ من النموذج المدرب مسبقا.", "pretrained"),
    ("النموذج من الصفر يتفوق على النموذج المدرب مسبقا.", "scratch"),
    ("لا فرق بين النموذج المدرب مسبقا والنموذج من الصفر.", "equal"),
    # German
    ("Das vortrainierte Modell ist besser als das von Grund auf trainierte.", "pretrained"),
    ("Das von Grund auf trainierte Modell ist schlechter als das vortrainierte.",
     "pretrained"),
    ("Das zufällig initialisierte Modell übertrifft das vortrainierte Modell.", "scratch"),
    ("Zwischen dem vortrainierten Modell und dem Modell von Grund auf gibt es keinen "
     "klaren Unterschied.", "equal"),
    # French
    ("Le modèle pré-entraîné est meilleur que le modèle entraîné de zéro.", "pretrained"),
    ("Le modèle entraîné de zéro est surpassé par le modèle pré-entraîné.", "pretrained"),
    ("Le modèle de zéro n'est pas meilleur que le modèle pré-entraîné.", "pretrained"),
    # Spanish
    ("El modelo preentrenado es mejor que el modelo entrenado desde cero.", "pretrained"),
    ("El modelo entrenado desde cero es peor que el preentrenado.", "pretrained"),
    # Italian
    ("Il modello pre-addestrato è migliore del modello addestrato da zero.", "pretrained"),
    ("Il modello addestrato da zero è peggiore del modello pre-addestrato.", "pretrained"),
    # Portuguese
    ("O modelo pré-treinado é melhor do que o modelo treinado do zero.", "pretrained"),
    ("O modelo treinado do zero é pior do que o pré-treinado.", "pretrained"),
    # Turkish
    ("Önceden eğitilmiş model, sıfırdan eğitilen modelden daha iyi.", "pretrained"),
    ("Sıfırdan eğitilen model daha kötü sonuç veriyor.", "pretrained"),
    # Chinese
    ("预训练模型比从头训练的模型更好。", "pretrained"),
    ("从头训练的模型不如预训练模型。", "pretrained"),
    ("从头训练的模型在每个 epoch 都比预训练模型低。", "pretrained"),
    # Japanese
    ("事前学習モデルはスクラッチモデルより高い精度を示した。", "pretrained"),
    ("スクラッチモデルは事前学習モデルより低い。", "pretrained"),
    # Korean
    ("사전 학습 모델이 처음부터 학습한 모델보다 더 좋다.", "pretrained"),
    ("처음부터 학습한 모델은 사전 학습 모델보다 더 낮다.", "pretrained"),
])
def test_a_claim_in_another_language_names_the_model_that_does_better(text, want):
    assert better(text) == want


def test_a_lower_loss_in_another_language_is_better():
    assert better("Предобученная модель имеет более низкие потери, чем модель с нуля.") \
        == "pretrained"
    assert better("Le modèle de zéro a une perte plus élevée que le modèle pré-entraîné.") \
        == "pretrained"


def test_the_models_names_of_other_languages_are_the_packs_families():
    fams = Families(LAB_A, FALLBACK)
    assert [n for _, n in fams.mentions("модель без предобучения и предобученная модель")] \
        == ["scratch", "pretrained"]
    assert [n for _, n in fams.mentions("the pretrained model")] == ["pretrained"]
    # a pack whose families name neither gets no words of other languages
    other = Families({"small": ["small"], "large": ["large"]})
    assert other.mentions("предобученная модель с нуля") == []
