"""Tiny but real models under real checkpoint names, for grading without a download.

Why tiny and random: tests, CI and a student's laptop must run the unchanged template
(`DistilBertForSequenceClassification.from_pretrained("distilbert-base-uncased",
num_labels=4)`) in seconds, offline. The weights are freshly initialised from a small
config (2 layers, width 128), so "fine-tuning" trains them from scratch; on the pack's
news data that still reaches the handout's accuracy in a few epochs. The tokenizers
are trained with the `tokenizers` library on the pack's own text, so words map to
real ids rather than `[UNK]` (the empty-cache trap of FIELD-NOTES).

A TA grading for real fetches the real checkpoints instead (`grader models fetch`).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from grader.models.cache import install_snapshot

VOCAB_SIZE = 2000
MAX_POSITIONS = 512  # students often pad to the tokenizer's 512; the table must cover it


@dataclass(frozen=True)
class TinyModel:
    """One family: the names it is installed under and how to build it."""

    family: str
    names: tuple[str, ...]
    build: Callable[[Path, list[str]], None]


def _wordpiece(texts: list[str]) -> dict[str, int]:
    from tokenizers import BertWordPieceTokenizer

    tok = BertWordPieceTokenizer(lowercase=True)
    tok.train_from_iterator(texts, vocab_size=VOCAB_SIZE, show_progress=False,
                            special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"])
    return tok.get_vocab()


def _build_distilbert(out: Path, texts: list[str]) -> None:
    import torch
    from transformers import (
        DistilBertConfig,
        DistilBertForMaskedLM,
        DistilBertTokenizerFast,
    )

    tokenizer = DistilBertTokenizerFast(vocab=_wordpiece(texts), do_lower_case=True,
                                        model_max_length=MAX_POSITIONS)
    config = DistilBertConfig(vocab_size=len(tokenizer), dim=128, hidden_dim=256, n_layers=2,
                              n_heads=4, max_position_embeddings=MAX_POSITIONS,
                              pad_token_id=tokenizer.pad_token_id)
    torch.manual_seed(0)
    DistilBertForMaskedLM(config).save_pretrained(out)
    tokenizer.save_pretrained(out)


def _build_bert(out: Path, texts: list[str]) -> None:
    import torch
    from transformers import BertConfig, BertForMaskedLM, BertTokenizerFast

    tokenizer = BertTokenizerFast(vocab=_wordpiece(texts), do_lower_case=True,
                                  model_max_length=MAX_POSITIONS)
    config = BertConfig(vocab_size=len(tokenizer), hidden_size=128, intermediate_size=256,
                        num_hidden_layers=2, num_attention_heads=4,
                        max_position_embeddings=MAX_POSITIONS,
                        pad_token_id=tokenizer.pad_token_id)
    torch.manual_seed(0)
    BertForMaskedLM(config).save_pretrained(out)
    tokenizer.save_pretrained(out)


def _build_roberta(out: Path, texts: list[str]) -> None:
    import torch
    from tokenizers import ByteLevelBPETokenizer
    from transformers import RobertaConfig, RobertaForMaskedLM, RobertaTokenizerFast

    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator(texts, vocab_size=VOCAB_SIZE, show_progress=False,
                            special_tokens=["<s>", "<pad>", "</s>", "<unk>", "<mask>"])
    with tempfile.TemporaryDirectory() as tmp:
        bpe.save_model(tmp)
        vocab = json.loads((Path(tmp) / "vocab.json").read_text(encoding="utf-8"))
        lines = (Path(tmp) / "merges.txt").read_text(encoding="utf-8").splitlines()
    merges = [tuple(line.split()) for line in lines if line and not line.startswith("#")]
    tokenizer = RobertaTokenizerFast(vocab=vocab, merges=merges, model_max_length=MAX_POSITIONS)
    config = RobertaConfig(vocab_size=len(tokenizer), hidden_size=128, intermediate_size=256,
                           num_hidden_layers=2, num_attention_heads=4,
                           max_position_embeddings=MAX_POSITIONS + 2, type_vocab_size=1,
                           pad_token_id=tokenizer.pad_token_id,
                           bos_token_id=tokenizer.bos_token_id,
                           eos_token_id=tokenizer.eos_token_id)
    torch.manual_seed(0)
    RobertaForMaskedLM(config).save_pretrained(out)
    tokenizer.save_pretrained(out)


TINY_MODELS = (
    TinyModel("distilbert", ("distilbert-base-uncased", "distilbert/distilbert-base-uncased"),
              _build_distilbert),
    TinyModel("bert", ("bert-base-uncased", "google-bert/bert-base-uncased"), _build_bert),
    TinyModel("roberta", ("roberta-base", "FacebookAI/roberta-base"), _build_roberta),
)


def read_texts(paths: Iterable[Path]) -> list[str]:
    """Text from JSON-lines files (`{"text": ...}` per line) or plain text files."""
    texts: list[str] = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            if path.suffix == ".jsonl":
                texts.append(str(json.loads(line)["text"]))
            else:
                texts.append(line)
    return texts


def seed_tiny(cache: Path, texts: list[str],
              on_event: Callable[[str], None] | None = None) -> dict[str, Path]:
    """Build every tiny model and install it under each of its names; name -> snapshot."""
    if len(texts) < 50:
        raise ValueError(f"need text to train the tokenizers on; got {len(texts)} lines")
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # a bar per tiny shard is noise
    emit = on_event or (lambda _msg: None)
    cache.mkdir(parents=True, exist_ok=True)
    installed: dict[str, Path] = {}
    for model in TINY_MODELS:
        with tempfile.TemporaryDirectory(prefix=f"tiny-{model.family}-") as tmp:
            model.build(Path(tmp), texts)
            for name in model.names:
                installed[name] = install_snapshot(cache, name, Path(tmp))
        emit(f"{model.family}: {', '.join(model.names)}")
    return installed


def check_loads(cache: Path, name: str) -> int:
    """Load a cached tokenizer offline and return its vocabulary size (the empty-cache trap)."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(name, cache_dir=str(cache), local_files_only=True)
    return len(tokenizer)
