#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""schemacheck.py - validate mgtrace's JSON output against docs/schema/*.schema.json.

  schemacheck.py validate SCHEMA FILE...
      every JSON line of each FILE is valid against docs/schema/SCHEMA.schema.json
      (stat, check, trace, probe, clocks; stat's summary includes latency).
  schemacheck.py types FILE... | available
      the object types in FILEs; exit 0 when python3-jsonschema can be imported.
  schemacheck.py selftest SCHEMA FILE...
      the schema rejects each line of FILE with a field added to any one of its objects (at
      every depth: a field the code adds without the schema fails), and with any field's
      value of the wrong type; and without some field (the required ones).
Prints "PASS ..." / "FAIL ..." lines (tests/lib.sh tally counts them). Needs python3-jsonschema.
"""
import copy
import glob
import json
import os
import sys

import warnings

try:
    import jsonschema
except ImportError:
    if sys.argv[1:2] == ["available"]:
        sys.exit(1)
    raise
if sys.argv[1:2] == ["available"]:
    sys.exit(0)

# RefResolver: Debian 12's python3-jsonschema (4.10) has no other way; newer ones warn
warnings.filterwarnings("ignore", category=DeprecationWarning)

DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "schema")


def validator(name):
    store = {}
    for f in glob.glob(os.path.join(DIR, "*.schema.json")):
        with open(f) as fh:
            s = json.load(fh)
        jsonschema.Draft202012Validator.check_schema(s)
        store[s["$id"]] = s
    s = store["urn:mgtrace:schema:" + name]
    return jsonschema.Draft202012Validator(s, resolver=jsonschema.RefResolver.from_schema(s, store=store))


def lines(files):
    for f in files:
        with open(f) as fh:
            for n, line in enumerate(fh, 1):
                if line.strip():
                    yield f"{os.path.basename(f)}:{n}", json.loads(line)


def objects(o, path=""):
    """(path, dict) of every object inside o, o included."""
    if isinstance(o, dict):
        yield path or "/", o
        for k, v in o.items():
            yield from objects(v, f"{path}/{k}")
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from objects(v, f"{path}/{i}")


def get(o, path):
    for p in [p for p in path.split("/") if p]:
        o = o[int(p)] if isinstance(o, list) else o[p]
    return o


def main(argv):
    v = validator(argv[2])
    fails = n = 0
    for where, o in lines(argv[3:]):
        n += 1
        errs = sorted(v.iter_errors(o), key=lambda e: list(e.absolute_path))
        if argv[1] == "validate":
            if errs:
                fails += 1
                # the most specific error (inside oneOf, the branch of the line's type)
                e = jsonschema.exceptions.best_match(errs, key=lambda e: (-len(e.absolute_path),))
                for c in sorted(e.context or [], key=lambda c: -len(c.absolute_path)):
                    if c.validator != "const" and "type" not in c.absolute_path:
                        e = c
                        break
                print(f"FAIL {argv[2]} schema: {where} ({o.get('type')}): {'/'.join(map(str, e.absolute_path))}: {e.message[:300]}")
            continue
        # selftest: mutations of a valid line must be rejected
        if errs:
            print(f"FAIL {argv[2]} selftest: {where} is valid to begin with: {errs[0].message[:200]}")
            fails += 1
            continue
        missed = []
        for path, _ in list(objects(o)):
            m = copy.deepcopy(o)
            get(m, path)["field_the_schema_lacks"] = 1
            if v.is_valid(m):
                missed.append("added at " + path)
        required = 0
        for k in list(o):
            m = copy.deepcopy(o)
            del m[k]
            required += not v.is_valid(m)
            m = copy.deepcopy(o)
            m[k] = {"wrong": "type"}
            if v.is_valid(m):
                missed.append("wrong type of " + k)
        if not required:
            missed.append("the line without any one of its fields")
        if missed:
            fails += 1
            print(f"FAIL {argv[2]} selftest: {where} ({o.get('type')}): accepted {missed[:5]}")
    if n == 0:
        print(f"FAIL {argv[2]}: no JSON line in {argv[3:]}")
        return 1
    if not fails:
        print(f"PASS {argv[2]} schema {argv[1]}: {n} lines of {', '.join(map(os.path.basename, argv[3:]))}")
    return 1 if fails else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["types"]:
        # the object types of JSON lines files, sorted, space-separated
        print(" ".join(sorted({o.get("type") for _, o in lines(sys.argv[2:])})))
        sys.exit(0)
    if len(sys.argv) < 4 or sys.argv[1] not in ("validate", "selftest"):
        sys.exit(__doc__)
    sys.exit(main(sys.argv))
