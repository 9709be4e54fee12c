"""Exercise of notebook 01: a sentence as its list of vectors (its embeddings).

Slips
-----
embed(sentence, table):

- table order: the vectors come out in the table's order, not the sentence's.
- dropped repeats: a repeated word gives its vector only once (a set or dict was used).
- flattened: all the numbers joined into one long list instead of one list per word.
- return inside the loop: only the first word's vector comes back.
- whole sentence as a key: ``table[sentence]`` looks the list itself up (TypeError).
- round brackets: ``table(word)`` calls the dict like a function (TypeError).
- split a list: ``sentence.split()`` on a list that is already split (AttributeError).
- first slot only: ``table[word][0]`` keeps one number per word.
- returned text: ``str([...])``, the list written out as characters.
- vectors as columns: the list of vectors transposed.
- one number per word: a sum, a mean or another single number instead of each vector.
- left out the first word / left out the last word: a loop from 1, or one that stops early.
- returned pairs: (word, vector) pairs instead of the vectors.
- one vector: a single vector instead of the list of the sentence's vectors.
- other order: the right vectors in another order (e.g. ``sentence[i - 1]``).
- used positions as keys: ``table[i]`` with i = 0, 1, … looks up a number, not a word
  (KeyError).
- loop runs one past the end: ``range(1, len(sentence) + 1)`` asks for a word after the last
  (IndexError).
- quoted the variable: ``table["word"]`` looks up the text 'word' (KeyError).
- returned the whole table: every vector of the table, whatever the sentence.
- reversed: the vectors in reverse order.
- one list too many: ``[table[word]]`` appended, an extra pair of brackets per vector.
- = instead of append: ``vectors = table[word]`` keeps only the last word's vector.
- returned the words: the words come back instead of their vectors.
- returned a dict: a dict word → vector instead of a list in the sentence's order.
- = instead of append, in a list: ``vectors = [table[word]]`` keeps the last word's vector.
- looked up a missing key: ``table.get("word")`` gives None for every word.
- looked up letters: a loop over a string gives one letter at a time (KeyError).
- changed the word: ``table[word.upper()]`` (KeyError).
- a table per word: the whole table once per word.
- first word every time: ``table[sentence[0]]`` inside the loop.
- changed its input: the sentence or the table was changed in place (named by the framework).
"""

from ._detect import raised, raised_everywhere, returned, text_back
from ._embed import (
    changed_the_word,
    dropped_repeats,
    looked_up_letters,
    numbers_per_word,
    one_vector,
    other_order,
    pairs,
    positions_as_keys,
    quoted_key,
    tables_back,
    whole_table,
    words_back,
)
from .core import Case, Exercise, Mistake

__all__ = ["EMBEDDING_EXERCISE", "check_embed", "evaluate_embed"]

_TABLE = {"the": [0.5, -1.0], "cat": [2.0, 1.5], "sat": [-1.0, 0.5], "on": [0.0, -2.0],
          "mat": [1.5, 2.5]}


EMBEDDING_EXERCISE = Exercise(
    "embed(sentence, table)",
    cases=[Case(s) for s in (
        (["cat"], _TABLE), (["the", "cat"], _TABLE), (["cat", "the"], _TABLE),
        (["mat", "on", "sat"], _TABLE), (["the", "cat", "sat", "on", "the", "mat"], _TABLE))],
    reference=lambda sentence, table: [table[word] for word in sentence],
    show_args=lambda args: f"{args[0]!r}, table",
    mistakes=[
        Mistake("whole sentence as a key",
                "{call} raised TypeError: `table[sentence]` looks the whole list up as one "
                "word. Look up one word at a time: loop over the sentence.",
                detect=raised(TypeError, "unhashable")),
        Mistake("round brackets",
                "{call} raised TypeError: `table(word)` calls the table like a function. Look a "
                "word up with square brackets, `table[word]`.",
                detect=raised(TypeError, "not callable")),
        Mistake("split a list",
                "{call} raised AttributeError: the sentence is already a list of words, so "
                "there is nothing to `.split()`. Loop over it directly.",
                detect=raised(AttributeError, "split")),
        Mistake("used positions as keys",
                "{call} raised KeyError: {got}. The table's keys are words, not positions: "
                "look up the word at that position, `table[sentence[i]]` (or loop "
                "`for word in sentence`).", detect=positions_as_keys),
        Mistake("loop runs one past the end",
                "{call} raised IndexError: the loop asks for a word after the last one. "
                "Positions run 0 … len(sentence) − 1: use range(len(sentence)).",
                detect=raised_everywhere(IndexError)),
        Mistake("changed the word",
                "{call} raised KeyError: {got}. The word was changed before the lookup "
                "(.upper(), .title(), a space): the table's keys are the words exactly as the "
                "sentence writes them, `table[word]`.", detect=changed_the_word),
        Mistake("a table per word",
                "{call} gave the whole table once per word. Look each word up IN the table: "
                "`table[word]`; expected {expected}.", detect=returned(tables_back)),
        Mistake("looked up letters",
                "{call} raised KeyError: {got}, a single letter. A loop over a string (the "
                "sentence joined, or one word) gives letters; loop over the LIST of words: "
                "`for word in sentence`.", detect=looked_up_letters),
        Mistake("quoted the variable",
                "{call} raised KeyError: {got}. `table[\"word\"]` looks up the text "
                "'word' itself; without quotes, `table[word]`, it looks up the word the "
                "variable holds.", detect=quoted_key),
        Mistake("returned the whole table",
                "{call} gave back every vector of the table, whatever the sentence. Look up "
                "only the sentence's words, in order: {expected}.", detect=returned(whole_table)),
        Mistake("returned pairs",
                "{call} gave (word, vector) pairs, {got}. Return the vectors alone, in the "
                "sentence's order: {expected}.", detect=returned(pairs)),
        Mistake("returned the words",
                "{call} gave back the words themselves, {got}. Look each word up in the table "
                "and return its vector: {expected}.", detect=returned(words_back)),
        Mistake("returned a dict",
                "{call} returned a dict. A dict keeps each word once and forgets the "
                "sentence's order: return a list with one vector per word, {expected}.",
                detect=returned(lambda o: isinstance(o.value, dict))),
        Mistake("return inside the loop",
                "{call} gave {got}, only the first word's vector: the `return` sits inside "
                "the loop, so the function stops after one word. Return after the loop.",
                imitation=lambda sentence, table: [table[sentence[0]]]),
        Mistake("table order",
                "{call} gave the vectors in the table's order, not the sentence's. Position "
                "matters: 'cat the' and 'the cat' must give their vectors in opposite orders, "
                "so loop over the words of the sentence.",
                imitation=lambda sentence, table: [v for w, v in table.items() if w in sentence]),
        Mistake("left out the first word",
                "{call} gave {got}: the first word's vector is missing (a loop from 1, "
                "`range(1, len(sentence))`, skips Python position 0); expected {expected}.",
                imitation=lambda sentence, table: [table[w] for w in sentence[1:]]),
        Mistake("left out the last word",
                "{call} gave {got}: the last word's vector is missing (`range(len(sentence) - 1)` "
                "stops one early); expected {expected}.",
                imitation=lambda sentence, table: [table[w] for w in sentence[:-1]]),
        Mistake("dropped repeats",
                "{call} gave {got}: a word that appears twice must give its vector twice "
                "(a set or dict drops repeats); expected {expected}.", detect=dropped_repeats),
        Mistake("reversed",
                "{call} gave the vectors in reverse order, {got}. The first word's vector comes "
                "first: {expected}.", imitation=lambda sentence, table: [table[w] for w in
                                                                           sentence[::-1]]),
        Mistake("one list too many",
                "{call} gave {got}: each vector sits inside an extra pair of brackets. Append "
                "the vector itself, `table[word]`, not `[table[word]]`.",
                imitation=lambda sentence, table: [[table[w]] for w in sentence]),
        Mistake("= instead of append",
                "{call} gave {got}, the last word's vector alone: `vectors = table[word]` "
                "replaces the list at every step. Add to it: `vectors.append(table[word])`.",
                imitation=lambda sentence, table: table[sentence[-1]]),
        Mistake("= instead of append, in a list",
                "{call} gave {got}, the last word's vector alone: `vectors = [table[word]]` "
                "replaces the list at every step. Add to it: `vectors.append(table[word])`.",
                imitation=lambda sentence, table: [table[sentence[-1]]]),
        Mistake("looked up a missing key",
                "{call} gave {got}: `table.get(...)` found no such key and gave None. Look up "
                "the word the loop variable holds, `table[word]` (no quotes).",
                detect=returned(lambda o: any(x is None for x in o.value))),
        Mistake("first word every time",
                "{call} gave {got}: every entry is the FIRST word's vector (sentence[0] inside "
                "the loop). Look up the loop's own word: `table[word]`; expected {expected}.",
                imitation=lambda sentence, table: [table[sentence[0]] for _ in sentence]),
        Mistake("one vector",
                "{call} gave {got}, a single vector. The sentence has one vector per word: "
                "return the list of them, {expected}.", detect=returned(one_vector)),
        Mistake("other order",
                "{call} gave the right vectors in another order, {got}. Position matters: the "
                "i-th vector belongs to the i-th word of the sentence (for word in sentence, "
                "or sentence[i] with i from 0); expected {expected}.", detect=other_order),
        Mistake("first slot only",
                "{call} gave {got}: `table[word][0:1]` keeps only the first slot of each "
                "vector. Keep the whole vector, `table[word]`; expected {expected}.",
                imitation=lambda sentence, table: [table[w][:1] for w in sentence]),
        Mistake("first slot only",
                "{call} gave {got}, one number per word: `table[word][0]` is only the first "
                "slot of the word's vector. Keep the whole vector, `table[word]`.",
                imitation=lambda sentence, table: [table[w][0] for w in sentence]),
        Mistake("returned text",
                "{call} returned text, {got}: str() or an f-string turns the list into "
                "characters. Return the list of vectors itself; expected {expected}.",
                detect=text_back),
        Mistake("one number per word",
                "{call} gave {got}, one number per word. Each word's vector is a whole list "
                "of numbers: keep `table[word]` as it is; expected {expected}.",
                detect=returned(numbers_per_word)),
        Mistake("vectors as columns",
                "{call} gave {got}: the vectors stand as COLUMNS (a transpose, `zip(*...)`). "
                "Each word's vector is one entry of the list, in order: {expected}.",
                imitation=lambda sentence, table: [list(c) for c in zip(
                    *[table[w] for w in sentence], strict=True)]),
        Mistake("flattened",
                "{call} joined all the numbers into one long list, {got}. Keep one vector (one "
                "list) per word, so the result is a list of lists: {expected}.",
                imitation=lambda sentence, table: [x for w in sentence for x in table[w]]),
    ],
)

def evaluate_embed(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``embed``."""
    return EMBEDDING_EXERCISE.evaluate(func)


def check_embed(func):
    """Print feedback on a learner's ``embed(sentence, table)``."""
    EMBEDDING_EXERCISE.check(func)
