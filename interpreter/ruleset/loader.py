"""Load a ruleset: find it, read and merge its YAML, validate, cross-check, compile.

    load_ruleset("birmingham")               # a built-in ruleset, by name
    load_ruleset("rulesets/my-variant")      # any ruleset folder

Each stage collects every problem it finds, and every stage runs on what the stages before it
found well formed, so one run reports every independent error: a structure error leaves out only
its action (or the checks and compiling that read its section, which would only produce noise),
not the condition-language errors of the other actions. Reading and merging the files must
succeed first (there is no document without them). A loaded ruleset is cached per process and
served again as long as none of its files (nor its bases' files) changed. Between processes, what reading and checking
a valid ruleset concluded is cached on disk (`ruleset_cache`): a new process then only
builds the model and compiles the expressions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import rulesets
from brass_dsl import ast
from brass_dsl.source import SourcePos
from interpreter.ruleset import ruleset_cache
from interpreter.ruleset.bot_params import bot_params
from interpreter.ruleset.compile_rules import RulesetCompiler
from interpreter.ruleset.errors import Diagnostic, DiagnosticSink, RulesetError
from interpreter.ruleset.model import Ruleset, build_static_model
from interpreter.ruleset.primitives import build_registry
from interpreter.ruleset.ruleset_files import ROOT_FILE, ReadLog, display_name, path_problem, shorten
from interpreter.ruleset.yaml_source import Document

DEFAULT_RULESET = rulesets.DEFAULT

_cache: dict[Path, tuple[tuple[Any, ...] | None, Ruleset]] = {}


def resolve_ruleset_path(name_or_path: str | Path | None, relative_to: Path | None = None) -> Path | None:
    """A ruleset folder from a built-in name or a path; None if there is no such ruleset.

    A built-in name (`birmingham`) always means the shipped ruleset, whatever folders lie
    around. Anything else (a `Path`, or text that is no built-in name) is a path: relative to
    `relative_to`, the folder of the file that names it (`extends`, a scenario's `ruleset`),
    else (a name typed on the command line) to the current directory. A name written in a
    file never falls back to the current directory: the same file must mean the same ruleset
    wherever `brass` runs.
    """
    text = str(DEFAULT_RULESET if name_or_path is None else name_or_path)
    if path_problem(text) is not None:
        return None
    try:
        return _locate(name_or_path, text, relative_to)
    except OSError:
        return None


def _locate(name_or_path: str | Path | None, text: str, relative_to: Path | None) -> Path | None:
    """`resolve_ruleset_path` for a text without a `path_problem`; OSError if the system refuses it."""
    builtin = rulesets.builtin_path(text) if not isinstance(name_or_path, Path) and _is_builtin(text) else None
    if builtin is not None:
        return builtin.resolve()
    candidate = Path(text) if relative_to is None else Path(relative_to) / text
    if (candidate / ROOT_FILE).is_file():
        return candidate.resolve()
    if candidate.name == ROOT_FILE and candidate.is_file():
        return candidate.parent.resolve()
    return None


def _is_builtin(text: str) -> bool:
    return text in rulesets.builtin_names()


def ruleset_confined(text: str, relative_to: Path, roots: Sequence[Path]) -> bool:
    """Whether the ruleset `text` names from a file in `relative_to` is built in (by name, or by
    the path of a shipped ruleset's folder) or lies below one of `roots` once links and `..` are
    resolved. Decided from the path alone, before any file of it is read: a server (`brass serve`)
    must refuse a folder it does not open without telling what is there, or whether it exists."""
    if _is_builtin(text):
        return True
    if path_problem(text) is not None:
        return False
    try:
        folder = (Path(relative_to) / text).resolve()
    except (OSError, RuntimeError):  # a loop of links, a name the system refuses
        return False
    if folder.name == ROOT_FILE:  # `…/ruleset.yaml` names its folder (resolve_ruleset_path)
        folder = folder.parent
    shipped = {path.resolve() for name in rulesets.builtin_names() if (path := rulesets.builtin_path(name))}
    return folder in shipped or any(folder.is_relative_to(root) for root in roots)


def _resolve_for_extends(value: str, folder: Path) -> Path | None:
    """An `extends` value, relative to the extending ruleset's folder (OSError if refused)."""
    return _locate(value, value, folder)


def load_ruleset(name_or_path: str | Path | None = None) -> Ruleset:
    """Load, validate and compile a ruleset; raise RulesetError listing every problem."""
    folder = _find(name_or_path)
    cached = _cache.get(folder)
    if cached and cached[0] is not None and cached[0] == _fingerprint(cached[1].folders):
        return cached[1]
    ruleset = _load_uncached(folder)
    _cache[folder] = (_fingerprint(ruleset.folders), ruleset)
    return ruleset


def ruleset_from_document(document: Document, folders: Sequence[str], rule_folders: Mapping[str, str],
                          checked: bool = False) -> Ruleset:
    """A loaded ruleset built again from what its load concluded (its `source`, `folders` and
    `rule_folders`), reading no file: how another process plays exactly the ruleset this one
    loaded, even if its files have changed since (a loaded ruleset holds compiled closures, which
    do not pickle; these three do). The expressions are parsed and compiled again; RulesetError if
    anything is wrong. With `checked`, for a document no load has checked (a mutant of one, `brass
    verify --mutate`), the structure and cross-reference checks of a load run first."""
    sink = DiagnosticSink()
    if checked:
        from interpreter.ruleset.crossref import check_references
        from interpreter.ruleset.schema import validate_structure

        validate_structure(document, sink)
        sink.raise_if_any()  # the later checks assume a sound structure
        check_references(document, sink)
        sink.raise_if_any()
    ruleset = _compile(document, sink, {})
    sink.raise_if_any()
    assert ruleset is not None  # without an error, compiling always gives a ruleset
    ruleset.folders = tuple(folders)
    ruleset.source = document
    ruleset.rule_folders = dict(rule_folders)
    return ruleset


def _find(name_or_path: str | Path | None) -> Path:
    """The folder of the ruleset asked for, or a RulesetError located at the name."""
    text = str(DEFAULT_RULESET if name_or_path is None else name_or_path)
    problem = path_problem(text)
    if problem is not None:
        raise _error(text, f"'{shorten(text)}' cannot name a ruleset: {problem}")
    try:
        folder = _locate(name_or_path, text, None)
    except OSError as error:
        raise _error(text, f"cannot read '{shorten(text)}': {error.strerror or error}") from None
    if folder is None:
        raise _not_found(text)
    return folder


def clear_cache() -> None:
    _cache.clear()


def _load_uncached(folder: Path) -> Ruleset:
    ruleset = _load_cached(folder)
    return _load_checked(folder) if ruleset is None else ruleset


def _load_cached(folder: Path) -> Ruleset | None:
    """The ruleset built from what an earlier process found for exactly these files, or None."""
    hit = ruleset_cache.lookup(folder, _resolve_for_extends)
    if hit is None:
        return None
    sink = DiagnosticSink()
    try:
        ruleset = _compile(hit.document, sink, hit.trees)
    except Exception:  # never seen: what is cached compiled without a problem; the full load will say why
        return None
    return None if sink.items or ruleset is None else _finish(ruleset, hit.document, hit.chain)


def _load_checked(folder: Path) -> Ruleset:
    """Every stage, from the YAML files; the result is cached for the next process if valid."""
    from interpreter.ruleset.crossref import check_references  # cerberus, imported only here
    from interpreter.ruleset.merge import resolve_extends
    from interpreter.ruleset.schema import validate_structure

    log = ReadLog()
    doc, chain = resolve_extends(folder, _resolve_for_extends, known_names=rulesets.builtin_names(), log=log)
    _empty_optional_sections(doc)
    sink = DiagnosticSink()
    broken: set[tuple[Any, ...]] = set()
    validate_structure(doc, sink, broken=broken)
    if () in broken:  # not even a mapping of sections: nothing later can be checked
        sink.raise_if_any()
    usable, sections = _well_formed(doc, broken)
    broken |= _unsound(check_references(usable, sink, sections))
    trees: dict[str, ast.Node] = {}
    if sink.items:
        _compile_what_is_sound(doc, broken, sink, trees)
        sink.raise_if_any()
    ruleset = _compile(doc, sink, trees)
    sink.raise_if_any()
    assert ruleset is not None  # without an earlier error, compiling always gives a ruleset
    ruleset_cache.store(folder, chain, log, doc, trees)
    return _finish(ruleset, doc, chain)


# Sections a ruleset may leave out, read as empty tables by every later stage: a game without
# merchants has neither merchants nor merchant tiles.
OPTIONAL_TABLES = ("merchants", "merchant_tiles")


def _empty_optional_sections(doc: Document) -> None:
    if isinstance(doc.data, dict):
        for section in OPTIONAL_TABLES:
            doc.data.setdefault(section, {})


def _compile_what_is_sound(doc: Document, broken: set[tuple[Any, ...]], sink: DiagnosticSink,
                           trees: dict[str, ast.Node]) -> None:
    """After errors of the earlier stages, compile what they leave sound, for its own errors. The
    model is built only if every section it reads passed: a section that failed may hold anything
    (a billion income spaces is refused by the structure check, and must never be expanded)."""
    usable, sections = _well_formed(doc, broken)
    if sections & MODEL_SECTIONS:
        return
    _compile(usable, sink, trees, skip=sections)


def _unsound(failed: set[tuple[str, tuple[Any, ...]]]) -> set[tuple[Any, ...]]:
    """The paths of cross-reference errors that compiling must leave out: those in a section
    compiled on its own (a merchant, an action), and those of a section of the model whose bounds
    failed (totals over tables, the income track). A name that refers to nothing elsewhere in the
    model (a card's unknown location) harms nothing compiling reads, so the expressions are still
    checked."""
    return {path for check, path in failed
            if path and (path[0] not in MODEL_SECTIONS or check in BOUND_CHECKS)}


BOUND_CHECKS = ("check_totals", "check_income")

# The sections the model and the vocabulary are built from (`build_static_model`); the others
# (eras, merchants, round_end, game_end, actions) are compiled one by one and can be left out.
MODEL_SECTIONS = frozenset((
    "name", "title", "version", "players", "description", "rulebook", "rules", "colour_groups", "locations",
    "links", "industries", "tiles", "cards", "wild_cards", "merchant_tiles", "resources", "markets",
    "income_track", "setup", "economy", "turns"))


def _well_formed(doc: Document, broken: set[tuple[Any, ...]]) -> tuple[Document, frozenset[str]]:
    """What the later stages can check after errors, so that they still report every independent
    problem: the document without the actions that have an error (each action is checked and
    compiled on its own), and the other sections that have one (the checks and compiling that read
    them are left out; they would only add noise)."""
    bad_actions = {path[1] for path in broken if len(path) > 1 and path[0] == "actions"}
    sections = frozenset(path[0] for path in broken if path and not (path[0] == "actions" and len(path) > 1))
    if not bad_actions or not isinstance(doc.data.get("actions"), dict):
        return doc, sections
    data = dict(doc.data)
    data["actions"] = {aid: action for aid, action in data["actions"].items() if aid not in bad_actions}
    return Document(data, doc.marks, doc.key_marks, doc.origins), sections


def _finish(ruleset: Ruleset, doc: Document, chain: list[Path]) -> Ruleset:
    ruleset.folders = tuple(str(p) for p in chain)
    ruleset.source = doc  # the resolved Document with the position of every value (`brass diff`)
    ruleset.rule_folders = _rule_folders(doc, chain)
    return ruleset


def _rule_folders(doc: Document, chain: list[Path]) -> dict[str, str]:
    """Each rule ID -> the folder of the chain whose files state the rule's text (a variant that
    rewrites a rule states it anew), found from where the text's position lies."""
    prefixes = sorted(((display_name(folder) + "/", str(folder)) for folder in chain), key=lambda p: -len(p[0]))
    found = {}
    for rid in doc.data.get("rules", {}):
        pos = doc.pos(("rules", rid, "text")) or doc.pos(("rules", rid))
        found[rid] = next((folder for prefix, folder in prefixes if pos and pos.file.startswith(prefix)),
                          str(chain[-1]))
    return found


def _compile(doc: Document, sink: DiagnosticSink, trees: dict[str, ast.Node],
             skip: frozenset[str] | None = None) -> Ruleset | None:
    """Build the model and compile every expression against its vocabulary; `trees` holds the
    syntax tree of texts already parsed, and receives those of the texts parsed here. With `skip`
    (after errors in other sections: the compiled sections that have one), those sections are not
    compiled, and a part that cannot be built from the data as it is is left out (None if not even
    the model)."""
    try:
        ruleset = Ruleset(**build_static_model(doc.data), merchants={}, eras=(), data=doc.data)
        compiler = RulesetCompiler(doc, build_registry(ruleset), sink, trees, partial=skip is not None)
    except Exception:
        if skip is None:
            raise
        return None
    ruleset.registry = compiler.registry
    if skip is None or "bots" not in skip:  # (a wrong `bots:` leaves the defaults: its errors are reported)
        ruleset.bots = bot_params(doc.data.get("bots"))
    for section, build in (("eras", compiler.eras), ("merchants", compiler.merchants),
                           ("resources", lambda: compiler.resources(ruleset.resources)),  # `access_through`
                           ("round_end", compiler.round_end), ("game_end", compiler.game_end),
                           ("actions", compiler.actions), ("rules", compiler.rule_texts)):
        # rule texts last: one may read any part of the ruleset (a merchant's bonus)
        if skip is None:
            _set(ruleset, section, build())
        elif section not in skip:
            try:
                _set(ruleset, section, build())
            except Exception:  # data of the wrong shape that the earlier errors already report
                continue
    return ruleset


def _set(ruleset: Ruleset, section: str, value: Any) -> None:
    if section == "rules":  # the texts of the rules, with their {…} parts worked out
        ruleset.rules = {rid: replace(rule, text=value.get(rid, rule.text)) for rid, rule in ruleset.rules.items()}
    else:
        setattr(ruleset, section, value)


def _fingerprint(folders: tuple[str, ...]) -> tuple[Any, ...] | None:
    """Names, sizes and modification times of every YAML file of the chain (None if a folder
    cannot be read any more: the ruleset is then loaded again, and reports why)."""
    items = []
    try:
        for folder in folders:
            for path in sorted(Path(folder).glob("*.yaml")):
                stat = path.stat()
                items.append((str(path), stat.st_size, stat.st_mtime_ns))
    except OSError:
        return None
    return tuple(items)


def _not_found(name: str) -> RulesetError:
    import difflib  # only for a message: not imported with the module

    names = rulesets.builtin_names()
    hint = difflib.get_close_matches(name, names, n=1)
    suggestion = f"; did you mean '{hint[0]}'?" if hint else ""
    known = f" Built-in rulesets: {', '.join(names)}." if names else ""
    return _error(name, f"no ruleset here: '{shorten(name)}' is neither a folder with a ruleset.yaml "
                        f"nor a built-in ruleset name{suggestion}.{known}")


def _error(name: str, message: str) -> RulesetError:
    """An error about a ruleset named on the command line or in code, located at the name."""
    return RulesetError([Diagnostic(SourcePos(shorten(name), 1, 1), message)])
