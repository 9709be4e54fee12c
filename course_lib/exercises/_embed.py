"""Detectors of the embed exercise (notebook 01): what a list of vectors can look like when
it is wrong (the whole table, pairs, one vector, repeats dropped, another order, …).
This module defines no exercise (its name starts with _)."""


def whole_table(outcome):
    values = outcome.value
    if isinstance(values, list) and len(values) == 1:
        values = values[0]  # [table.values()]
    sentence, table = outcome.case.args
    if len(set(sentence)) == len(table):
        return False  # this sentence uses every word: the whole table is not the slip here
    try:
        return list(values) == list(table.values())  # a list, or the dict_values view itself
    except TypeError:
        return False


def as_rows(value):
    # the learner's value as a list of rows of numbers, or None
    try:
        return [[float(x) for x in row] for row in value]
    except Exception:
        return None


def other_order(outcomes):
    # the right vectors, each as often as it should be, in another order
    for o in outcomes:
        got, wanted = as_rows(o.value), as_rows(o.case.expected)
        if o.error is None and not o.correct and got is not None and got != wanted \
                and sorted(got) == sorted(wanted):
            return o
    return None


def pairs(outcome):
    value = outcome.value
    return (isinstance(value, (list, tuple)) and len(value) > 0
            and all(isinstance(v, (list, tuple)) and any(isinstance(x, str) for x in v)
                    for v in value))


def one_vector(outcome):
    # a single vector of the table (a flat list of numbers) where a list of vectors was due
    value, table = outcome.value, outcome.case.args[1]
    return (isinstance(value, (list, tuple)) and len(outcome.case.args[0]) > 1
            and [number(x) for x in value] in [[float(x) for x in v] for v in table.values()])


def number(x):
    try:
        return float(x)
    except Exception:
        return None


def quoted_key(outcomes):
    # table["word"]: a KeyError for a key that is not a word of the sentence (nor one letter)
    return next((o for o in outcomes if isinstance(o.error, KeyError) and o.error.args
                 and o.error.args[0] not in o.case.args[0]
                 and not looked_up_letters([o])), None)


def looked_up_letters(outcomes):
    # a loop over one string (the sentence joined, or a word): a KeyError for one letter
    return next((o for o in outcomes if isinstance(o.error, KeyError) and o.error.args
                 and isinstance(o.error.args[0], str) and len(o.error.args[0]) == 1
                 and any(o.error.args[0] in w for w in o.case.args[0])), None)


def dropped_repeats(outcomes):
    # each word's vector once, in any order (a set or dict): on every case, the vectors of
    # the sentence's distinct words, and fewer than the words where a word repeats
    telling = None
    for o in outcomes:
        sentence, table = o.case.args
        try:
            got = sorted(list(map(float, v)) for v in o.value)
        except Exception:
            return None
        if got != sorted(list(map(float, table[w])) for w in set(sentence)):
            return None
        if len(set(sentence)) < len(sentence):
            telling = o
    return telling


def words_back(outcome):
    value = outcome.value
    return (isinstance(value, (list, tuple)) and len(value) > 0
            and all(isinstance(v, str) for v in value))


def numbers_per_word(outcome):
    """One number per word (a sum, a mean or one slot of each vector) instead of the vector."""
    value, sentence = outcome.value, outcome.case.args[0]
    return (isinstance(value, (list, tuple)) and len(value) == len(sentence) > 0
            and all(number(x) is not None for x in value))


def positions_as_keys(outcomes):
    # table[i] with i a position: a KeyError whose key is a whole number
    return next((o for o in outcomes if isinstance(o.error, KeyError) and o.error.args
                 and isinstance(o.error.args[0], int)), None)


def changed_the_word(outcomes):
    # table[word.upper()] (or .title(), a stray space): a KeyError for a changed sentence word
    return next((o for o in outcomes if isinstance(o.error, KeyError) and o.error.args
                 and isinstance(o.error.args[0], str) and o.error.args[0] not in o.case.args[0]
                 and o.error.args[0].strip().lower() in o.case.args[0]), None)


def tables_back(outcome):
    # the whole table once per word: a list of dicts
    return isinstance(outcome.value, list) and outcome.value and all(
        isinstance(x, dict) for x in outcome.value)
