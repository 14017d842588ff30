#!/usr/bin/env python3
"""Reports import circles between the modules of each Rust crate of the repository.

A module is a file. For every compilation target (library, binaries, examples, tests,
benches, build script) of every package under `crates/` and of `embedded/firmware`, the
script follows the `mod` declarations from the target's root (`#[path]` included), then adds an
edge A -> B when file A names an item of file B: a `use` path (`crate::`, `self::`,
`super::`, or a child module or imported name of A's own module) or such a path inside the
code (`crate::x::f()`, `super::Kernel`, `$crate::...` in macros). Paths are resolved to the
module that defines the item: a name that a module only imports (`use`, `pub use`, globs) is
followed to where it is defined, and `#[macro_export]` macros to the file that defines them.
A parent declaring `mod child;` is not an import; a child naming an item of its parent's file
is the edge child -> parent. External crates (`core`, `std`, dependencies) are ignored.

Test code is left out by default: items under `#[cfg(test)]` (unit-test modules, test-only
`mod` declarations and helpers). A unit test sits above everything it tests, the way Cargo
lets a package's dev-dependencies depend on the package itself; `--tests` puts it back in.

Every strongly connected component of more than one file is an import circle: the script
prints each with the edges that close it (file:line and the path) and exits with status 1.
Exit status 0 means no circle anywhere.

Usage: scripts/check-import-cycles.py [--quiet] [--edges] [--tests] [PACKAGE_DIR ...]
    PACKAGE_DIR  package directories to check (default: crates/* and embedded/firmware)
    --edges      also print every edge found (to inspect what the checker sees)
    --quiet      print only the circles
    --tests      include `#[cfg(test)]` code

Needs only the Python standard library (3.8+). It reads Rust source with a small lexer rather
than the compiler, so macro-generated modules are invisible to it, and `cfg` is ignored: every
file that some configuration compiles is a module of the graph, whichever target it is for.
"""

import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ITEM_KEYWORDS = {"fn", "struct", "enum", "trait", "type", "const", "static", "union"}


# --------------------------------------------------------------------------------------------
# Lexer: identifiers, `::`, single punctuation characters and string literals, with line
# numbers. Comments, numbers, char literals and lifetimes are dropped.


def lex(text):
    toks = []
    i, n, line = 0, len(text), 1
    ident_re = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    line += text[i] == "\n"
                    i += 1
        elif re.match(r"b?r#*\"", text[i : i + 260]):
            m = re.match(r"b?r(#*)\"", text[i:])
            end = text.find('"' + m.group(1), i + m.end())
            end = n if end < 0 else end
            body = text[i + m.end() : end]
            toks.append(("str", body, line))
            line += body.count("\n")
            i = end + 1 + len(m.group(1))
        elif c == '"' or text.startswith('b"', i) or text.startswith('c"', i):
            j = i + (1 if c == '"' else 2)
            start = j
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            body = text[start:j]
            toks.append(("str", body, line))
            line += body.count("\n")
            i = j + 1
        elif c == "'" or text.startswith("b'", i):
            j = i + (1 if c == "'" else 2)
            m = re.match(r"(\\(u\{[0-9a-fA-F_]*\}|x[0-9a-fA-F]{2}|.)|[^\\'\n])'", text[j:])
            if m:  # a char literal
                i = j + m.end()
            else:  # a lifetime or label
                m = ident_re.match(text, j)
                i = m.end() if m else j
        elif c.isdigit():
            m = re.match(r"[0-9][0-9A-Za-z_]*(\.[0-9][0-9A-Za-z_]*)?", text[i:])
            i += m.end()
        elif c.isalpha() or c == "_":
            m = ident_re.match(text, i)
            word = m.group(0)
            if word.startswith("r#"):
                word = word[2:]
            toks.append(("id", word, line))
            i = m.end()
        elif text.startswith("::", i):
            toks.append(("p", "::", line))
            i += 2
        else:
            toks.append(("p", c, line))
            i += 1
    return toks


# --------------------------------------------------------------------------------------------
# One file: its `mod` declarations, `use` trees, paths in code and top-level item names.


class FileInfo:
    def __init__(self, path):
        self.path = path
        self.children = []  # (name, path attribute or None, line) of outline `mod name;`
        self.uses = []  # (inline depth, segments, binding or "*", line)
        self.paths = []  # (inline depth, segments, line) paths in code
        self.defs = set()  # names of items defined at the file's top level
        self.exported_macros = set()  # `#[macro_export] macro_rules! name`


def parse_use_tree(toks, i, prefix, out, line):
    """Parses a use tree at toks[i]; appends (segments, binding) to out; returns the index
    after the tree."""
    segs = list(prefix)
    while i < len(toks):
        kind, val, _ = toks[i]
        if kind == "p" and val == "{":
            i += 1
            while i < len(toks) and not (toks[i][0] == "p" and toks[i][1] == "}"):
                i = parse_use_tree(toks, i, segs, out, line)
                if i < len(toks) and toks[i][0] == "p" and toks[i][1] == ",":
                    i += 1
            return i + 1
        if kind == "p" and val == "*":
            out.append((segs, "*"))
            return i + 1
        if kind == "p" and val == "::":
            if not segs:
                segs.append("::")  # `::name`: an external crate
            i += 1
            continue
        if kind == "p" and val == "$":
            i += 1
            continue
        if kind == "id":
            i += 1
            binding = val
            if i + 1 < len(toks) and toks[i][1] == "as":
                binding = toks[i + 1][1]
                i += 2
            if i < len(toks) and toks[i][0] == "p" and toks[i][1] == "::":
                segs.append(val)
                continue
            if val == "self":
                out.append((segs, segs[-1] if binding == "self" and segs else binding))
            else:
                out.append((segs + [val], binding))
            return i
        return i + 1  # unexpected token: skip it
    return i


def skip_item(toks, i):
    """The index after the item that starts at toks[i] (its attributes included): up to its `;`
    or through its `{...}` block, whichever comes first outside brackets."""
    level = 0
    while i < len(toks):
        v = toks[i][1] if toks[i][0] == "p" else None
        if v in ("(", "["):
            level += 1
        elif v in (")", "]"):
            level -= 1
        elif v == ";" and level == 0:
            return i + 1
        elif v == "{" and level == 0:
            depth = 0
            while i < len(toks):
                if toks[i][0] == "p" and toks[i][1] == "{":
                    depth += 1
                elif toks[i][0] == "p" and toks[i][1] == "}":
                    depth -= 1
                    if depth == 0:
                        return i + 1
                i += 1
            return i
        i += 1
    return i


def scan_file(path, with_tests):
    info = FileInfo(path)
    with open(path, encoding="utf-8") as f:
        toks = lex(f.read())
    stack = []  # brace frames: True for an inline `mod`
    pending_path = None
    pending_export = False
    i = 0
    while i < len(toks):
        kind, val, line = toks[i]
        depth = sum(stack)  # inline module depth
        if kind == "p" and val == "#":
            # an attribute: #[...] or #![...]
            j = i + 1
            inner = j < len(toks) and toks[j][1] == "!"
            if inner:
                j += 1
            if j < len(toks) and toks[j][1] == "[":
                level, k = 0, j
                while k < len(toks):
                    if toks[k][1] == "[":
                        level += 1
                    elif toks[k][1] == "]":
                        level -= 1
                        if level == 0:
                            break
                    k += 1
                attr = toks[j + 1 : k]
                if len(attr) >= 3 and attr[0][1] == "path" and attr[1][1] == "=" and attr[2][0] == "str":
                    pending_path = [attr[2][1]]
                elif attr and attr[0][1] == "cfg_attr":  # cfg_attr(COND, path = "...")
                    for a in range(1, len(attr) - 2):
                        if attr[a][1] == "path" and attr[a + 1][1] == "=" and attr[a + 2][0] == "str":
                            pending_path = (pending_path or []) + [attr[a + 2][1]]
                if attr and attr[0][1] == "macro_export":
                    pending_export = True
                words = {t[1] for t in attr if t[0] == "id"}
                if not with_tests and attr and attr[0][1] == "cfg" and "test" in words and not words & {"not", "any"}:
                    if inner:  # `#![cfg(test)]`: the whole file is test code
                        break
                    i = skip_item(toks, k + 1)
                    pending_path = None
                    continue
                i = k + 1
                continue
        if kind == "p" and val == "{":
            is_mod = i >= 2 and toks[i - 1][0] == "id" and (
                toks[i - 2][1] == "mod" or (i >= 3 and toks[i - 2][1] == "$" and toks[i - 3][1] == "mod"))
            stack.append(is_mod)
            pending_path = None
        elif kind == "p" and val == "}":
            if stack:
                stack.pop()
            pending_path = None
            pending_export = False
        elif kind == "p" and val == ";":
            pending_path = None
        elif kind == "id" and val == "mod" and i + 2 < len(toks) and toks[i + 1][0] == "id":
            name = toks[i + 1][1]
            if toks[i + 2][1] == ";" and depth == 0:
                info.children.append((name, pending_path, line))
            elif toks[i + 2][1] == "{" and not stack:
                info.defs.add(name)  # an inline module: an item of this file
            if toks[i + 2][1] == ";":
                pending_path = None
        elif kind == "id" and val == "use" and (i == 0 or toks[i - 1][1] in (";", "{", "}", "]", "pub", ")", "crate")):
            out = []
            j = parse_use_tree(toks, i + 1, [], out, line)
            for segs, binding in out:
                info.uses.append((depth, segs, binding, line))
            i = j
            continue
        elif kind == "id" and val == "macro_rules" and i + 2 < len(toks) and toks[i + 1][1] == "!":
            name = toks[i + 2][1]
            if not stack:
                info.defs.add(name)
            if pending_export:
                info.exported_macros.add(name)
            pending_export = False
        elif kind == "id" and val in ITEM_KEYWORDS and not stack and i + 1 < len(toks):
            j = i + 1
            while j < len(toks) and toks[j][1] in ("fn", "unsafe", "extern", "async") or toks[j][0] == "str":
                j += 1
            if j < len(toks) and toks[j][0] == "id":
                info.defs.add(toks[j][1])
        elif kind == "id" and i + 1 < len(toks) and toks[i + 1][1] == "::" and (i == 0 or toks[i - 1][1] != "::"):
            # a path in code: ident :: ident :: ...  ($crate counts as crate)
            segs = [val]
            j = i + 1
            while j + 1 < len(toks) and toks[j][1] == "::" and toks[j + 1][0] == "id":
                segs.append(toks[j + 1][1])
                j += 2
            info.paths.append((depth, segs, line))
            i = j
            continue
        i += 1
    return info


# --------------------------------------------------------------------------------------------
# A crate (one target): modules, name resolution, edges.


class Module:
    def __init__(self, files, parent, name):
        self.files = files  # one or more files (cfg alternatives behind one name)
        self.parent = parent
        self.name = name
        self.children = {}  # name -> Module


class Crate:
    def __init__(self, root_file, label, with_tests):
        self.label = label
        self.with_tests = with_tests
        self.infos = {}  # file -> FileInfo
        self.file_module = {}  # file -> Module
        self.root = self.load(root_file, None, "crate", True)
        self.macros = {}  # exported macro name -> file
        for f, info in self.infos.items():
            for m in info.exported_macros:
                self.macros[m] = f

    def load(self, path, parent, name, mod_rs):
        path = os.path.normpath(path)
        if path in self.file_module:  # the same file twice: keep the first
            return self.file_module[path]
        module = Module([path], parent, name)
        self.file_module[path] = module
        info = self.infos[path] = scan_file(path, self.with_tests)
        directory = os.path.dirname(path)
        own = directory if mod_rs else os.path.join(directory, os.path.splitext(os.path.basename(path))[0])
        for child, attrs, line in info.children:
            if attrs:  # #[path] or cfg_attr paths: each file is the module under some cfg
                candidates = [(os.path.join(directory, a), os.path.basename(a) == "mod.rs") for a in attrs]
            else:
                candidates = [(os.path.join(own, child + ".rs"), False), (os.path.join(own, child, "mod.rs"), True)]
            found = False
            for cand, cand_mod_rs in candidates:
                if found and not attrs:
                    break
                if os.path.isfile(cand):
                    found = True
                    sub = self.load(cand, module, child, cand_mod_rs)
                    if child in module.children and module.children[child] is not sub:
                        module.children[child].files.extend(sub.files)
                        for f in sub.files:
                            self.file_module[f] = module.children[child]
                        module.children[child].children.update(sub.children)
                        for grandchild in sub.children.values():
                            grandchild.parent = module.children[child]
                    else:
                        module.children[child] = sub
            if not found:
                print(f"warning: {path}:{line}: no file for `mod {child}`", file=sys.stderr)
        return module

    # Name lookup: the files that define `name` as seen in `module`, following imports.
    def lookup(self, module, name, seen):
        if name in module.children:
            return ("module", module.children[name])
        key = (id(module), name)
        if key in seen:
            return None
        seen = seen | {key}
        for f in module.files:
            info = self.infos[f]
            if name in info.defs:
                return ("item", module)
        for f in module.files:
            for depth, segs, binding, _ in self.infos[f].uses:
                if depth == 0 and binding == name:
                    return self.resolve(module, 0, segs, seen)
        if module is self.root and name in self.macros:
            return ("item", self.file_module[self.macros[name]])
        for f in module.files:
            for depth, segs, binding, _ in self.infos[f].uses:
                if depth == 0 and binding == "*":
                    target = self.resolve(module, 0, segs, seen)
                    if target and target[0] == "module":
                        found = self.lookup(target[1], name, seen)
                        if found:
                            return found
        return None

    def resolve(self, module, depth, segs, seen=frozenset()):
        """Resolves a path written in `module` at inline depth `depth`: ("module", M) when it
        names a module, ("item", M) when it names an item of M, None when it is external."""
        if not segs or segs[0] == "::":
            return None
        first = segs[0]
        rest = segs[1:]
        if first == "crate":
            current = self.root
        elif first in ("self", "super"):
            current = module
            k = 0
            while k < len(segs) and segs[k] in ("self", "super"):
                if segs[k] == "super":
                    if depth > 0:
                        depth -= 1  # out of an inline module: still this file
                    elif current.parent is not None:
                        current = current.parent
                    else:
                        return None
                k += 1
            rest = segs[k:]
        else:
            found = self.lookup(module, first, seen) if depth == 0 else (
                ("module", module.children[first]) if first in module.children else None)
            if found is None:
                return None
            if found[0] == "item":
                return found
            current = found[1]
        for seg in rest:
            found = self.lookup(current, seg, seen)
            if found is None:
                return ("item", current)
            if found[0] == "item":
                return found
            current = found[1]
        return ("module", current)

    def edges(self):
        """Yields (from file, to file, line, path text)."""
        for f, info in self.infos.items():
            module = self.file_module[f]
            items = [(d, s, b != "*", ln) for d, s, b, ln in info.uses] + [(d, s, True, ln) for d, s, ln in info.paths]
            for depth, segs, _, line in items:
                if not segs:
                    continue
                target = self.resolve(module, depth, segs)
                if target is None or target[1] is module:
                    continue  # external, or this module itself (cfg alternatives of one module)
                for g in target[1].files:
                    if g != f:
                        yield f, g, line, "::".join(segs)


def tarjan(nodes, succ):
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        work = [(v, iter(sorted(succ.get(v, ()))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(succ.get(w, ())))))
                    advanced = True
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def targets(package):
    """The root files of a package's targets, with a label each."""
    roots = []
    src = os.path.join(package, "src")
    for name in ("lib.rs", "main.rs"):
        p = os.path.join(src, name)
        if os.path.isfile(p):
            roots.append((p, name[:-3]))
    # explicit [lib]/[[bin]] paths in Cargo.toml
    manifest = os.path.join(package, "Cargo.toml")
    if os.path.isfile(manifest):
        with open(manifest, encoding="utf-8") as f:
            for m in re.finditer(r'^\s*path\s*=\s*"([^"]+\.rs)"', f.read(), re.M):
                p = os.path.normpath(os.path.join(package, m.group(1)))
                if os.path.isfile(p) and all(os.path.normpath(r) != p for r, _ in roots):
                    roots.append((p, os.path.relpath(p, package)))
    for sub in ("src/bin", "examples", "tests", "benches"):
        d = os.path.join(package, sub)
        if not os.path.isdir(d):
            continue
        for entry in sorted(os.listdir(d)):
            p = os.path.join(d, entry)
            if entry.endswith(".rs") and os.path.isfile(p):
                roots.append((p, f"{sub}/{entry}"))
            elif os.path.isfile(os.path.join(p, "main.rs")):
                roots.append((os.path.join(p, "main.rs"), f"{sub}/{entry}"))
    if os.path.isfile(os.path.join(package, "build.rs")):
        roots.append((os.path.join(package, "build.rs"), "build.rs"))
    return roots


def main(argv):
    quiet = "--quiet" in argv
    show_edges = "--edges" in argv
    with_tests = "--tests" in argv
    args = [a for a in argv if not a.startswith("--")]
    if any(a.startswith("-") for a in argv if a not in ("--quiet", "--edges", "--tests")):
        print(__doc__, file=sys.stderr)
        return 2
    if args:
        packages = [os.path.abspath(a) for a in args]
    else:
        crates = os.path.join(REPO, "crates")
        packages = [os.path.join(crates, d) for d in sorted(os.listdir(crates)) if os.path.isfile(os.path.join(crates, d, "Cargo.toml"))]
        packages.append(os.path.join(REPO, "embedded", "firmware"))
    circles = 0
    checked = 0
    for package in packages:
        if not os.path.isfile(os.path.join(package, "Cargo.toml")):
            print(f"error: {package}: not a Cargo package", file=sys.stderr)
            return 2
        for root, label in targets(package):
            crate = Crate(root, label, with_tests)
            checked += 1
            rel = lambda p: os.path.relpath(p, REPO)
            succ, where = {}, {}
            for a, b, line, text in crate.edges():
                succ.setdefault(a, set()).add(b)
                where.setdefault((a, b), (line, text))
                if show_edges:
                    print(f"edge {rel(package)} [{label}]: {rel(a)}:{line} -> {rel(b)}  ({text})")
            for comp in tarjan(crate.infos.keys(), succ):
                if len(comp) < 2:
                    continue
                circles += 1
                members = set(comp)
                print(f"circle in {rel(package)} [{label}]: {len(comp)} files")
                for a in comp:
                    for b in sorted(succ.get(a, ())):
                        if b in members:
                            line, text = where[(a, b)]
                            print(f"  {rel(a)}:{line} -> {rel(b)}  ({text})")
    if not quiet:
        print(f"check-import-cycles: {checked} targets in {len(packages)} packages, {circles} import circle(s)")
    return 1 if circles else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
