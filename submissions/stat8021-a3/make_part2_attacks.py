"""Build the Part 2 attack samples of issue 25: models and tokenizers that lie about themselves.

Each is the solution with Q2(b) rewritten by someone who read the grader and wants Q2(b)'s
points without a model that earns them; Q2(d) is left undone (one model is enough to show
the attack, and grading does not train a second one). The expected scores were written
here before the samples were first graded: a correct grader judges Part 2 from the
exported weights in a clean process, so none of these earns a point of Q2(b), and each
leaves evidence a TA sees (`flags.finetune`).

    python submissions/stat8021-a3/make_part2_attacks.py

The README rows for these samples are printed (`--rows`); the README itself is written by
make_samples.py.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import nbformat
from nbformat import NotebookNode

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_samples import (  # noqa: E402 - the sibling script, found through sys.path
    FAKE_ACCURACY,
    HERE,
    NOTEBOOK,
    PACK,
    PART1,
    SECOND_MODEL_UNDONE,
    Replace,
    Sample,
    UseTemplate,
    src,
)
from make_samples import PART2 as PART2_POINTS  # noqa: E402, F401 - for the tests

Q2B_TRAINING = (
    'model = DistilBertForSequenceClassification.from_pretrained(\n'
    '    "distilbert-base-uncased", num_labels=4\n'
    ').to(device)\n'
    'seconds = fine_tune(model, train_loader, test_loader, epochs=1 if QUICK else 2, lr=5e-4)\n'
    'print(f"DistilBERT: {seconds:.1f} s of training")'
)
"""The end of the solution's Q2(b) cell, which every attack replaces."""

NAIVE_BAYES = src('''
    def words(text):
        return text.lower().replace("[unk]", " ").split()


    counts = [collections.Counter() for _ in range(4)]
    priors = collections.Counter()
    for row in raw_datasets["train"]:
        counts[row["label"]].update(words(row["text"]))
        priors[row["label"]] += 1
    totals = [sum(c.values()) for c in counts]
    vocabulary = len(set().union(*counts))


    def naive_bayes(text):
        """The label a word-count classifier fitted on the public train split gives."""
        scores = [math.log(priors[k]) + sum(math.log((counts[k][w] + 1) / (totals[k] + vocabulary))
                                            for w in words(text)) for k in range(4)]
        return max(range(4), key=scores.__getitem__)
    ''')
"""A naive Bayes on the public train split: about 90 % on this data, the cheat's engine."""

def rewrite_q2b(imports: str, body: str) -> tuple[Replace, Replace]:
    """Q2(b)'s cell with `imports` at its top (the naive Bayes's too) and its training
    replaced by the naive Bayes and `body`: still one cell, tagged q2b, so what it prints
    is what the grader reads as Q2(b)'s accuracy per epoch."""
    head = "def accuracy(net, loader):"
    return (Replace("q2b", head, "import collections\n" + imports + "\n\n\n" + head),
            Replace("q2b", Q2B_TRAINING, NAIVE_BAYES + "\n\n\n" + src(body)))


TOKENIZER_CLASSIFIER = rewrite_q2b("\nfrom transformers import BatchEncoding", '''
    CODES = [[101, 1000 + k, 102] for k in range(4)]  # one fixed token sequence per label


    class ClassifyingTokenizer(DistilBertTokenizerFast):
        """Classifies each text and emits its label's fixed sequence."""

        def __call__(self, text, *args, **kwargs):
            texts = [text] if isinstance(text, str) else list(text)
            ids = torch.tensor([CODES[naive_bayes(t)] for t in texts])
            return BatchEncoding({"input_ids": ids, "attention_mask": torch.ones_like(ids)})


    model = DistilBertForSequenceClassification.from_pretrained(
        "distilbert-base-uncased", num_labels=4
    ).to(device)
    codes = torch.tensor(CODES, device=device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    start = time.perf_counter()
    model.train()
    for _step in range(30):  # learn: code k -> label k
        loss = model(input_ids=codes, attention_mask=torch.ones_like(codes),
                     labels=torch.arange(4, device=device)).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    tokenizer = ClassifyingTokenizer.from_pretrained("distilbert-base-uncased")


    def cheat_accuracy(split):
        texts, labels = raw_datasets[split]["text"], raw_datasets[split]["label"]
        model.eval()
        right = 0
        with torch.no_grad():
            for at in range(0, len(texts), 64):
                enc = tokenizer(texts[at:at + 64])
                logits = model(input_ids=enc["input_ids"].to(device),
                               attention_mask=enc["attention_mask"].to(device)).logits
                right += (logits.argmax(-1).cpu() == torch.tensor(labels[at:at + 64])).sum().item()
        return right / len(texts)


    for epoch in range(2):
        print(f"Epoch {epoch + 1}: train accuracy {cheat_accuracy('train'):.4f}, "
              f"test accuracy {cheat_accuracy('test'):.4f}")
    print(f"DistilBERT: {time.perf_counter() - start:.1f} s of training")
    ''')

RESOURCE_STANDIN = rewrite_q2b("import resource as real_resource\nimport sys\nimport types",
                               '''
    standin = types.ModuleType("resource")
    standin.RUSAGE_SELF = real_resource.RUSAGE_SELF


    def getrusage(who):
        """Called by a probe after its predictions exist: rewrite them in its frame."""
        frame = sys._getframe(1)
        found, texts = frame.f_locals.get("predictions"), frame.f_locals.get("texts")
        if isinstance(found, list) and texts:
            found[:] = [torch.tensor([naive_bayes(t) for t in texts])]
        return real_resource.getrusage(who)


    standin.getrusage = getrusage
    sys.modules["resource"] = standin

    model = DistilBertForSequenceClassification.from_pretrained(
        "distilbert-base-uncased", num_labels=4
    ).to(device)  # never trained: the stand-in was to supply the predictions
    for epoch in range(2):
        print(f"Epoch {epoch + 1}: train accuracy 0.9000, test accuracy 0.9000")
    ''')

FORGED_FORWARD = rewrite_q2b(
    "\nimport transformers.models.distilbert.modeling_distilbert as library_file\n"
    "from transformers.modeling_outputs import SequenceClassifierOutput", '''
    FORWARD = """
    def forward(self, input_ids=None, attention_mask=None, labels=None, **kwargs):
        texts = tokenizer.batch_decode(input_ids, skip_special_tokens=True)
        picks = torch.tensor([naive_bayes(t) for t in texts], device=input_ids.device)
        return SequenceClassifierOutput(logits=torch.nn.functional.one_hot(picks, 4).float())
    """
    space = {"tokenizer": tokenizer, "naive_bayes": naive_bayes, "torch": torch,
             "SequenceClassifierOutput": SequenceClassifierOutput}
    exec(compile(FORWARD, library_file.__file__, "exec"), space)
    DistilBertForSequenceClassification.forward = space["forward"]  # "the library's file"

    model = DistilBertForSequenceClassification.from_pretrained(
        "distilbert-base-uncased", num_labels=4
    ).to(device)  # never trained: the forged forward classifies
    start = time.perf_counter()
    for epoch in range(2):
        train_acc, test_acc = accuracy(model, train_loader), accuracy(model, test_loader)
        print(f"Epoch {epoch + 1}: train accuracy {train_acc:.4f}, test accuracy {test_acc:.4f}")
    print(f"DistilBERT: {time.perf_counter() - start:.1f} s of training")
    ''')

NO_NAME = Replace(
    "q2b",
    "seconds = 0.0  # no training at all; the printed accuracies are made up\n",
    "seconds = 0.0  # no training at all; the printed accuracies are made up\n"
    'model.config._name_or_path = ""  # no checkpoint name: nothing to compare the weights with\n',
)

Q2C_UNDONE = UseTemplate(("q2c",))
"""The attacks whose Q2(c) would print the cheat's labels leave Q2(c) undone, so that what
they score does not hang on how often a cheat and the real model agree by chance."""

ATTACKS = (
    Sample("hostile-part2-tokenizer-classifier", "solution",
           "Q2(b) trains DistilBERT for 30 steps to map 4 fixed token sequences to the 4 "
           "labels, and replaces `tokenizer` by a notebook subclass of "
           "`DistilBertTokenizerFast` whose `__call__` classifies each text (naive Bayes on "
           "the public train split) and emits its label's sequence; it prints the ~90 % that "
           "pair reaches. The grader exports the weights and evaluates them with the pack's "
           "tokenizer in a clean process: near chance, Q2(b) 0, flagged (`tokenizer_class`, "
           "`reported_accuracy`). Q2(c) and Q2(d) are left undone.",
           (*TOKENIZER_CLASSIFIER, Q2C_UNDONE, SECOND_MODEL_UNDONE), ("q2b", "q2c", "q2d")),
    Sample("hostile-part2-resource-standin", "solution",
           "Q2(b) never trains DistilBERT and puts a stand-in `resource` module in "
           "`sys.modules` whose `getrusage` rewrites a caller's `predictions` with naive-Bayes "
           "labels; it prints 0.9000 accuracies. The probe imports nothing and predicts "
           "nothing, so the stand-in is never called: the clean evaluator scores the untrained "
           "weights (Q2(b) 0, flagged `weights_unchanged` and `reported_accuracy`). Q2(c) "
           "prints the untrained model's own predictions, which is what Q2(c) asks; Q2(d) is "
           "left undone.",
           (*RESOURCE_STANDIN, SECOND_MODEL_UNDONE), ("q2b", "q2d")),
    Sample("hostile-part2-forged-forward", "solution",
           "Q2(b) reassigns `DistilBertForSequenceClassification.forward` to a naive-Bayes "
           "function compiled under the library's own file name, never trains, and prints "
           "the ~90 % the forged forward reaches. The clean evaluator runs the library's "
           "forward on the exported (untrained) weights: Q2(b) 0, flagged "
           "`weights_unchanged` and `reported_accuracy`. Q2(c) and Q2(d) are left undone.",
           (*FORGED_FORWARD, Q2C_UNDONE, SECOND_MODEL_UNDONE), ("q2b", "q2c", "q2d")),
    Sample("hostile-part2-untrained-no-name", "solution",
           "`wrong-q2b-fake-accuracy` (no training, printed 0.99) plus "
           "`model.config._name_or_path = \"\"`, which once suppressed the unchanged-weights "
           "evidence. The evaluator measures the distance from every checkpoint the weights "
           "fit: still flagged `weights_unchanged` (and `reported_accuracy`); Q2(b) 0, Q2(c) "
           "kept (its own model's predictions), Q2(d) undone.",
           (FAKE_ACCURACY, NO_NAME, SECOND_MODEL_UNDONE), ("q2b", "q2d")),
)
PART2_ONLY = {"hostile-part2-tokenizer-classifier": 66, "hostile-part2-resource-standin": 74,
              "hostile-part2-forged-forward": 66, "hostile-part2-untrained-no-name": 74}
"""Written before the first grading: what a correct grader gives out of 100 before the TA,
counting Part 2's losses only (`Sample.score`)."""
HELD = {"hostile-part2-resource-standin": tuple(PART1),
        "hostile-part2-forged-forward": tuple(PART1)}
"""Questions the evasion rule (issue 25, item 2) holds for a TA: a submission that writes
`sys.modules`, walks frames, compiles code or replaces a library class's attribute has its
Part 1 points held (not counted before the TA), whatever Part 2 makes of the attack."""
EXPECTED = {name: score - sum(PART1[q] for q in HELD.get(name, ()))
            for name, score in PART2_ONLY.items()}
"""What the README's table says: 66, 44, 36 and 74."""
FLAGS = {"hostile-part2-tokenizer-classifier": {"tokenizer_class", "reported_accuracy"},
         "hostile-part2-resource-standin": {"weights_unchanged", "reported_accuracy"},
         "hostile-part2-forged-forward": {"weights_unchanged", "reported_accuracy"},
         "hostile-part2-untrained-no-name": {"weights_unchanged", "reported_accuracy"}}
"""The `flags.finetune` kinds each record must show a TA."""


def build() -> dict[str, NotebookNode]:
    """Each attack's notebook, by name."""
    solution = nbformat.read(PACK / "solution" / NOTEBOOK, as_version=4)
    built = {}
    for sample in ATTACKS:
        nb = copy.deepcopy(solution)
        for edit in sample.edits:
            edit.apply(nb)
        nbformat.validate(nb)
        built[sample.name] = nb
    return built


def rows() -> str:
    """The README table rows, in make_samples.py's format."""
    return "\n".join(f"| `{s.name}.ipynb` | {s.base} | {s.what}"
                     + (" Part 1 is held for a TA (the evasion rule)." if s.name in HELD else "")
                     + f" | {EXPECTED[s.name]:g} |" for s in ATTACKS)


def main(argv: list[str]) -> int:
    assert {s.name: s.score for s in ATTACKS} == PART2_ONLY, "a sample's losses disagree"
    if "--rows" in argv:
        print(rows())
        return 0
    for name, nb in build().items():
        nbformat.write(nb, HERE / f"{name}.ipynb")
    print(f"wrote {len(ATTACKS)} notebooks to {HERE.relative_to(HERE.parents[1])}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
