#!/usr/bin/env python3
"""Validates JSON outputs against a schema of docs/schemas (JSON Schema 2020-12, Python's jsonschema).

usage: validate_json.py SCHEMA.json [--lines] FILE...   (--lines: every non-blank line is one document, NDJSON)
Exit 0 when every document is valid; otherwise prints each error with its file, line and JSON path, and exits 1.
"""
import json
import sys

import jsonschema


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    schema = json.load(open(argv[1], encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    lines = "--lines" in argv[2:]
    failures = 0
    documents = 0
    for path in [a for a in argv[2:] if a != "--lines"]:
        text = open(path, encoding="utf-8").read()
        pieces = [(i + 1, l) for i, l in enumerate(text.splitlines()) if l.strip()] if lines else [(1, text)]
        for line, piece in pieces:
            documents += 1
            try:
                document = json.loads(piece)
            except ValueError as error:
                print(f"{path}:{line}: not JSON: {error}")
                failures += 1
                continue
            for error in validator.iter_errors(document):
                print(f"{path}:{line}: {'/'.join(map(str, error.absolute_path)) or '(top)'}: {error.message}")
                failures += 1
    if documents == 0:
        print("no documents to validate")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
